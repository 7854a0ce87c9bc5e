"""Hostile input to group testing's worker (harness/worker.py, running the
frozen binary splitting): malformed /solve bodies, its own fields' faults
among them (n, priors), and requests of every other shape (fuzz.WorkerFuzz),
each answered with the 4xx its fault calls for and never reaching find;
afterwards a real /solve of the sample's first instance still works. The
template's share, on the toy worker: tests/sdk/test_hostile_worker_template.py."""

import json
import random
import sys
import time
import unittest

import support
from support import problem
from arh_grader import WorkerClient
from fuzz import WorkerFuzz, exchange, histogram, request, template_bad_solves

SEED = "hostile-input"
WORKER_REQUESTS = 1_500        # fuzz requests sent to the worker
MAX_BODY = 256 + 32 * 512      # the worker's bound on a /solve body, in bytes

# ---- the worker's fuzz cases -----------------------------------------------

def solve_body(**change):
    request_ = {"token": "a b c d e", "n": 3, "priors": [0.1, 0.2, 0.3]}
    request_.update(change)
    return json.dumps({k: v for k, v in request_.items() if v is not ...}).encode()


def mutable(rng):
    """A /solve body for the fuzz to mutate: random priors."""
    return solve_body(priors=[rng.random() for _ in range(3)])


BAD_SOLVES = [       # (body, words its error must hold): its own fields', then the template's
    (b'{"token": "x", "n": NaN, "priors": []}', "NaN is not JSON"),
    (b'{"token": "x", "n": 1, "priors": [Infinity]}', "Infinity is not JSON"),
    (b'{"token": "x", "n": 1, "priors": [1e999]}', "got inf"),
    (solve_body(token=...), "with the keys token, n"), (solve_body(n=...), "with the keys token, n"),
    (solve_body(priors=...), "with the keys token, n"), (solve_body(n=..., extra=1), "with the keys token, n"),
    (solve_body(token="abc", n=True), "got True"), (solve_body(token="abc", n=3.0), "got 3.0"),
    (solve_body(token="abc", n="3"), "got '3'"), (solve_body(token="abc", n=0), "got 0"),
    (solve_body(token="abc", n=-1), "got -1"), (solve_body(token="abc", n=513), "got 513"),
    (solve_body(token="abc", n=None), "got None"), (solve_body(token="abc", n=10 ** 30), "got 1"),
    (solve_body(token="abc", priors={"0": 0.1}), "got {'0': 0.1}"),
    (solve_body(token="abc", priors="0.1"), "got '0.1'"),
    (solve_body(token="abc", priors=[0.1, 0.2]), "got [0.1, 0.2]"),
    (solve_body(token="abc", priors=[0.1, True, 0.3]), "got True"),
    (solve_body(token="abc", priors=[0.1, "0.2", 0.3]), "got '0.2'"),
    (solve_body(token="abc", priors=[0.1, None, 0.3]), "got None"),
    (solve_body(token="abc", priors=[0.1, -0.1, 0.3]), "got -0.1"),
    (solve_body(token="abc", priors=[0.1, 1.5, 0.3]), "got 1.5"),
    (solve_body(token="abc", priors=[0.1, [0.2], 0.3]), "got [0.2]"),
    (solve_body(token="abc", priors=[0.1, 0.0, 0.3]), "got 0.0"),
    (solve_body(token="abc", priors=[0.1, 1, 0.3]), "strictly between 0 and 1, got 1"),
] + template_bad_solves(solve_body)


# ---- the tests -------------------------------------------------------------

class WorkerFuzzTest(unittest.TestCase):
    def test_each_bad_solve_is_a_400_naming_its_fault(self):
        oracle = support.start_oracle(self)
        _, url = support.start_worker(self, oracle.url)
        port = int(url.rsplit(":", 1)[1])
        for body, words in BAD_SOLVES:
            with self.subTest(body=body[:60]):
                (status, reply), = exchange(port, request(body, path=b"/solve"))
                self.assertEqual(status, 400)
                self.assertIn(words, json.loads(reply)["error"])

    def test_fuzz_answers_4xx_then_a_real_solve_works(self):
        oracle = support.start_oracle(self)
        _, url = support.start_worker(self, oracle.url)
        port = int(url.rsplit(":", 1)[1])
        fuzz = WorkerFuzz(random.Random(SEED + "/worker"), solve_body=solve_body,
                          mutable=mutable, max_body=MAX_BODY, bad_solves=BAD_SOLVES)
        started = time.monotonic()
        outcomes, mismatches = [], []
        for _ in range(WORKER_REQUESTS):
            case = fuzz.draw()
            replies = exchange(port, case.data, case.mode)
            got = tuple(r[0] for r in replies)
            outcomes.append(got)
            if got != case.expect:
                mismatches.append((case.kind, got, case.expect, case.data[:120]))
            elif case.kind.startswith("solve_invalid:"):
                words = case.kind.split(":", 1)[1]
                if words not in json.loads(replies[0][1])["error"]:
                    mismatches.append((case.kind, replies[0][1]))
        seconds = time.monotonic() - started
        support.show("\nhostile: worker: %d requests in %.1f s; statuses %s"
                     % (WORKER_REQUESTS, seconds, histogram(outcomes)))
        self.assertEqual(mismatches[:10], [])

        item = support.PROBLEM.load_set(support.SAMPLE)[0]
        token = oracle.open(problem.secret_of(item), cap=problem.cap(item["n"]),
                            max_body=problem.max_body(item["n"]))
        answer = WorkerClient(url).solve(
            {"token": token, "n": item["n"], "priors": item["priors"]}, timeout=30)
        self.assertEqual(answer, item["defectives"])
        self.assertEqual(oracle.close(token).tests, item["baseline"])


if __name__ == "__main__":
    unittest.main()
