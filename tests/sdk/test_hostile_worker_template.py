"""Hostile input to the worker template (harness/arh_worker.py), through the
toy problem's worker (toy_worker.py: one field, n): malformed /solve
bodies (JSON, the keys, the token, the deadline, n) and requests of every
other shape (fuzz.WorkerFuzz), each answered with the 4xx its fault calls
for and never reaching the tester; afterwards a real /solve still works,
with exact counts. Group testing's worker under the same fuzz, its own
fields' faults too: tests/end_to_end/test_hostile_worker.py."""

import json
import random
import time
import unittest

import support
import toy
import toy_worker
from arh_grader import Failure, WorkerClient
from fuzz import WorkerFuzz, exchange, histogram, request, template_bad_solves

SEED = "hostile-input"
WORKER_REQUESTS = 1_500        # fuzz requests sent to the worker


def solve_body(**change):
    """A /solve body with the keys named changed (... leaves one out); its
    token is not one, so that even unchanged no fuzz case reaches guess."""
    request_ = {"token": "a b c d e", "n": 3}
    request_.update(change)
    return json.dumps({k: v for k, v in request_.items() if v is not ...}).encode()


def mutable(rng):
    """A /solve body for the fuzz to mutate: a random n."""
    return solve_body(n=rng.randint(1, toy_worker.MAX_N))


BAD_SOLVES = [       # (body, words its error must hold): the toy's field, then the template's
    (b'{"token": "x", "n": NaN}', "NaN is not JSON"),
    (b'{"token": "x", "n": Infinity}', "Infinity is not JSON"),
    (b'{"token": "x", "n": 1e999}', "got inf"),
    (b'{"token": "x", "n": 1}\xff', "not JSON in UTF-8"),
    (solve_body(token=...), "with the keys token and n, and deadline or not"),
    (solve_body(n=...), "with the keys token and n"),
    (solve_body(n=..., extra=1), "with the keys token and n"),
    (solve_body(token="abc", n=True), "n must be an integer in 1..1000, got True"),
    (solve_body(token="abc", n=3.0), "got 3.0"), (solve_body(token="abc", n="3"), "got '3'"),
    (solve_body(token="abc", n=0), "got 0"), (solve_body(token="abc", n=-1), "got -1"),
    (solve_body(token="abc", n=1001), "got 1001"), (solve_body(token="abc", n=None), "got None"),
    (solve_body(token="abc", n=10 ** 30), "got 1"), (solve_body(token="abc", n=[3]), "got [3]"),
] + template_bad_solves(solve_body)


class WorkerFuzzTest(unittest.TestCase):
    def setUp(self):
        self.oracle = toy.start_oracle(self)
        _, self.url = toy.start_worker(self, self.oracle.url)
        self.port = int(self.url.rsplit(":", 1)[1])

    def solve(self, n, cap):
        """A real /solve of n numbers, the secret among them: (answer, tests counted)."""
        token = self.oracle.open(toy.SECRET, cap=cap, max_body=64)
        answer = WorkerClient(self.url).solve({"token": token, "n": n}, timeout=30)
        return answer, self.oracle.close(token).tests

    def test_each_bad_solve_is_a_400_naming_its_fault(self):
        for body, words in BAD_SOLVES:
            with self.subTest(body=body[:60]):
                (status, reply), = exchange(self.port, request(body, path=b"/solve"))
                self.assertEqual(status, 400)
                self.assertIn(words, json.loads(reply)["error"])
        self.assertEqual(self.solve(10, cap=10), (7, 8))     # 0..7 asked, 7 found

    def test_fuzz_answers_4xx_then_a_real_solve_works(self):
        fuzz = WorkerFuzz(random.Random(SEED + "/toy-worker"), solve_body=solve_body,
                          mutable=mutable, max_body=toy_worker.Worker.MAX_BODY,
                          bad_solves=BAD_SOLVES)
        started = time.monotonic()
        outcomes, mismatches = [], []
        for _ in range(WORKER_REQUESTS):
            case = fuzz.draw()
            replies = exchange(self.port, case.data, case.mode)
            got = tuple(r[0] for r in replies)
            outcomes.append(got)
            if got != case.expect:
                mismatches.append((case.kind, got, case.expect, case.data[:120]))
            elif case.kind.startswith("solve_invalid:"):
                words = case.kind.split(":", 1)[1]
                if words not in json.loads(replies[0][1])["error"]:
                    mismatches.append((case.kind, replies[0][1]))
        seconds = time.monotonic() - started
        support.show("\nhostile: toy worker: %d requests in %.1f s; statuses %s"
                     % (WORKER_REQUESTS, seconds, histogram(outcomes)))
        self.assertEqual(mismatches[:10], [])
        self.assertEqual(self.solve(10, cap=10), (7, 8))
        self.assertEqual(self.solve(5, cap=10), (None, 5))   # the secret is not among them

    def test_an_oracle_refusal_reaches_the_tester_as_its_error(self):
        token = self.oracle.open(toy.SECRET, cap=3, max_body=64)    # 3 guesses: 0..2
        with self.assertRaises(Failure) as caught:
            WorkerClient(self.url).solve({"token": token, "n": 10}, timeout=30)
        self.assertEqual(caught.exception.kind, "no_answer")
        self.assertTrue(caught.exception.message.startswith(
            "the worker answered 500: guess raised:\nTraceback"), caught.exception.message)
        self.assertTrue(caught.exception.message.endswith(
            "\nOracleError: oracle answered 429: {'error': 'over the cap of 3 tests'}\n"),
            caught.exception.message)
        self.assertEqual(self.oracle.close(token).tests, 4)  # the fourth is past the cap


if __name__ == "__main__":
    unittest.main()
