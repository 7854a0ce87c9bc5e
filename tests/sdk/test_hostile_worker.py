"""Hostile input to the worker: malformed /solve bodies and requests of
every other shape, each answered with the 4xx its fault calls for and never
reaching find; afterwards a real /solve still works."""

import json
import random
import sys
import time
import unittest

import support
from support import problem
from arh_grader import WorkerClient
from fuzz import (BAD_VERSIONS, METHODS, PATHS, BAD_LENGTHS, WORD_BYTES, Case, exchange,
                  histogram, request)

SEED = "hostile-input"
WORKER_REQUESTS = 1_500        # fuzz requests sent to the worker

# ---- the worker's fuzz cases -----------------------------------------------

def solve_body(**change):
    request_ = {"token": "a b c d e", "n": 3, "priors": [0.1, 0.2, 0.3]}
    request_.update(change)
    return json.dumps({k: v for k, v in request_.items() if v is not ...}).encode()


BAD_SOLVES = [       # (body, words its error must hold)
    (b"nope", "not JSON"), (b'{"token": "x", "n": NaN, "priors": []}', "NaN is not JSON"),
    (b'{"token": "x", "n": 1, "priors": [Infinity]}', "Infinity is not JSON"),
    (b'{"token": "x", "n": 1, "priors": [1e999]}', "got inf"),
    (b"[]", "got []"), (b'"x"', "got 'x'"), (b"null", "got None"), (b"3", "got 3"),
    (solve_body(token=...), "with the keys token, n"), (solve_body(n=...), "with the keys token, n"),
    (solve_body(priors=...), "with the keys token, n"), (solve_body(n=..., extra=1), "with the keys token, n"),
    (solve_body(token="abc", n=True), "got True"), (solve_body(token="abc", n=3.0), "got 3.0"),
    (solve_body(token="abc", n="3"), "got '3'"), (solve_body(token="abc", n=0), "got 0"),
    (solve_body(token="abc", n=-1), "got -1"), (solve_body(token="abc", n=513), "got 513"),
    (solve_body(token="abc", n=None), "got None"), (solve_body(token="abc", n=10 ** 30), "got 1"),
    (solve_body(token=3), "got 3"), (solve_body(token=None), "got None"),
    (solve_body(token=""), "got ''"), (solve_body(token="a b"), "got 'a b'"),
    (solve_body(token="x" * 300), "got 'xxx"), (solve_body(token=["x"]), "got ['x']"),
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
    (solve_body(token="abc", deadline=0), "got 0"),
    (solve_body(token="abc", deadline=-1.5), "got -1.5"),
    (solve_body(token="abc", deadline="10"), "got '10'"),
    (solve_body(token="abc", deadline=True), "got True"),
    (solve_body(token="abc", deadline=86401), "got 86401"),
    (b"[" * 5000 + b"]" * 5000, "bad request: "),     # deep: not JSON, or not an object
    (b'{"token": [' * 1200 + b"]}" * 1200, "bad request: "),
]


class WorkerFuzz:
    """Draws the worker's fuzz cases: none of them may reach find."""

    MAX = 256 + 32 * 512        # the worker's bound on a /solve body, in bytes

    def __init__(self, rng):
        self.rng = rng

    def draw(self):
        rng = self.rng
        pick = rng.randrange(12)
        if pick == 0:
            return Case("health", "once", b"GET /health HTTP/1.1\r\n\r\n", (200,), 0, 0, [])
        if pick == 1:
            path = rng.choice([b"/", b"/solve", b"/healthz", b"/x?y", b"*"])
            return Case("get_elsewhere", "once", b"GET %s HTTP/1.1\r\n\r\n" % path,
                        (404,), 0, 0, [])
        if pick == 2:
            method = rng.choice([m for m in METHODS if m not in (b"GET",)])
            return Case("wrong_method", "once", request(solve_body(), method=method,
                                                        path=b"/solve"), (405,), 0, 0, [])
        if pick == 3:
            return Case("post_elsewhere", "once", request(solve_body(), path=rng.choice(PATHS)),
                        (404,), 0, 0, [])
        if pick == 4:
            return Case("bad_version", "once", request(solve_body(), path=b"/solve",
                                                       version=rng.choice(BAD_VERSIONS)),
                        (400,), 0, 0, [])
        if pick == 5:
            line = rng.choice([b"\r\n", b"GARBAGE\r\n\r\n", b"A B C D\r\n\r\n", b"POST /solve\r\n",
                               bytes(rng.choices(WORD_BYTES, k=20)) + b"\r\n\r\n"])
            return Case("garbage_line", "once", line, (400,), 0, 0, [])
        if pick == 6:
            return Case("http_0_9", "once", b"GET /health\r\n", (400,), 0, 0, [])
        if pick == 7:
            flood = [b"X-%d: %d" % (i, i) for i in range(rng.randint(101, 200))]
            return Case("header_flood", "once", request(solve_body(), path=b"/solve",
                                                        headers=flood), (431,), 0, 0, [])
        if pick == 8:
            body = solve_body()
            which = rng.randrange(5)
            if which == 0:
                data, status = request(body, path=b"/solve", length=False), 411
            elif which == 1:
                length = rng.choice(BAD_LENGTHS + [b"-1", b"+12", b"1_0"])
                data, status = request(b"", path=b"/solve", length=length), 411
            elif which == 2:
                length = rng.choice([b"%d" % (self.MAX + 1), b"1" * 5000])  # past int()'s limit
                data, status = request(b"", path=b"/solve", length=length), 413
            elif which == 3:
                data, status = request(b" " * (self.MAX + 1), path=b"/solve"), 413
            else:
                data, status = request(body, path=b"/solve", length=b"%d" % (len(body) + 9)), 400
            return Case("solve_length", "once", data, (status,), 0, 0, [])
        if pick == 9:
            body = bytearray(solve_body(priors=[rng.random() for _ in range(3)]))
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(body))
                if rng.random() < 0.5:
                    body[at] = rng.randrange(256)
                else:
                    del body[at]
            return Case("solve_mutated", "once", request(bytes(body), path=b"/solve"),
                        (400,), 0, 0, [])
        body, words = rng.choice(BAD_SOLVES)
        return Case("solve_invalid:" + words, "once", request(body, path=b"/solve"),
                    (400,), 0, 0, [])


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
        fuzz = WorkerFuzz(random.Random(SEED + "/worker"))
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
