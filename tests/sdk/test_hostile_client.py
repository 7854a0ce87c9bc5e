"""Hostile replies to the grader's worker client: a fake worker on loopback
answers /health and /solve with random bytes and with structured mutations
of a good reply (status lines, duplicate and malformed headers,
Content-Length lies, chunked bodies, deep nesting, huge bodies, invalid
UTF-8, lone surrogates, trickles, resets, early closes). Every exchange ends
with an answer or a Failure of the submission's kind, never the platform's
and never another exception, within its deadline plus GRACE."""

import collections
import concurrent.futures
import functools
import json
import random
import socket
import socketserver
import struct
import sys
import threading
import time
import unittest

import support  # noqa: F401  (puts grader/ on the path)
from arh_grader import SUBMISSION_KINDS, Failure, WorkerClient

SEED = "hostile-replies"
CASES = 10_000              # replies in all
THREADS = 8                 # fake workers, each with a client of its own
DEADLINE = 0.5              # seconds each /solve exchange may take
HEALTH_DEADLINE = 0.1       # seconds each wait for /health may take (it polls till then)
HEALTH_SHARE = 0.05         # share of cases that are waits for /health
GRACE = 2.0                 # seconds past it that still count as in time
SLOW_SHARE = 0.004          # share of cases that trickle or hang

GOOD_BODY = b'{"answer":[1,5,9]}'


def reply(body=GOOD_BODY, *, status=b"HTTP/1.1 200 OK", headers=None, length=True):
    head = [status] + (headers or [])
    if length:
        head.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(head) + b"\r\n\r\n" + body


WIDE, NOISE = "wide", "noise"   # the bodies drawn with the generator: see mutations


@functools.cache
def choices():
    """(bodies, status lines, header lists) a mutation picks from, built once
    (a fresh list of large bytes a reply cost most of the test's time);
    WIDE and NOISE stand for the two bodies `mutations` draws."""
    bodies = (
        GOOD_BODY, b'{"answer":[]}', b'{"answer":null}', b'{"error":"boom"}', b"[1,2]",
        b'{"answer":[1,NaN]}', b'{"answer":[1e999]}', b'{"answer":"\\ud800"}',
        b'{"error":"\\udfff\\u0000"}', b'{"error":' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        WIDE, b'{"answer":' + b"[" * 30_000 + b"]" * 30_000 + b"}",
        b"\xff\xfe\x00{", b'{"answer":[1]}\xc3', NOISE,
        b"", b"null", b'{"answer":[1],"answer":[2]}', b" " * 1000 + GOOD_BODY,
        b'{"answer":[' + b"1," * 400_000 + b"1]}",
    )
    statuses = (
        b"HTTP/1.1 200 OK", b"HTTP/1.1 200 OK", b"HTTP/1.0 200 OK", b"HTTP/1.1 200",
        b"HTTP/1.1 422 Unprocessable", b"HTTP/1.1 500 Oops", b"HTTP/1.1 201 Created",
        b"HTTP/1.1 404 No", b"HTTP/1.1 999 What", b"HTTP/1.1 20 OK", b"HTTP/2 200",
        b"http/1.1 200 ok", b"HTTP/1.1 abc", b"", b"HTTP/1.1 200 " + b"x" * 70_000,
        b"ICY 200 OK", b"HTTP/1.1 200 OK\n", b"\x00\x01\x02",
    )
    headers = (
        [], [b"Content-Type: application/json"], [b"Content-Length: abc"],
        [b"Content-Length: +12"], [b"Content-Length: -1"], [b"Content-Length: 99999999999"],
        [b"Content-Length: 1", b"Content-Length: 2"], [b"Transfer-Encoding: chunked"],
        [b"no colon here"], [b" folded: line"], [b"X: \xff\xfe"], [b": empty name"],
        [b"X-%d: y" % i for i in range(2_000)], [b"Big: " + b"y" * 100_000],
        [b"Content-Length: \xd9\xa3"], [b"Connection: keep-alive"],
    )
    return bodies, statuses, headers


def mutations(rng):
    """One reply: (plan, bytes); plan is "send", "reset", "trickle" or "hang".
    The wide body's width and the noise are drawn before the body is picked,
    whichever it is, so the generator gives the same replies seed for seed."""
    width = rng.randint(20_000, 100_000)
    noise = bytes(rng.randrange(256) for _ in range(64))
    bodies, statuses, header_lists = choices()
    body = rng.choice(bodies)
    body = b"[" * width if body is WIDE else noise if body is NOISE else body
    status = rng.choice(statuses)
    headers = list(rng.choice(header_lists))
    length = rng.random() < 0.7
    data = reply(body, status=status, headers=headers, length=length)
    pick = rng.random()
    if pick < 0.05:                                  # a lie: more bytes promised than sent
        data = reply(body, status=status, headers=headers + [
            b"Content-Length: %d" % (len(body) + rng.randint(1, 1000))], length=False)
    elif pick < 0.10:                                # a chunked body
        data = reply(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body), status=status,
                     headers=[b"Transfer-Encoding: chunked"], length=False)
    elif pick < 0.15:                                # cut anywhere
        data = data[:rng.randrange(len(data) + 1)]
    elif pick < 0.20:                                # random bytes only
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
    elif pick < 0.22:                                # huge: 2 MiB of body
        data = reply(b'{"answer":[' + b"1," * (1 << 20) + b"1]}")
    if rng.random() < SLOW_SHARE:
        return rng.choice(["trickle", "hang"]), data
    return rng.choice(["send"] * 9 + ["reset"]), data


class FakeWorker(socketserver.ThreadingTCPServer):
    """Answers each connection with the plan set by `arm`, whatever was asked."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), FakeConnection)
        self.plan, self.stop = ("send", b""), threading.Event()


class FakeConnection(socketserver.BaseRequestHandler):
    def handle(self):
        sock, (plan, data) = self.request, self.server.plan
        sock.settimeout(5)
        try:
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 100_000:
                chunk = sock.recv(65536)
                if not chunk:
                    return
                head += chunk
            if plan == "trickle":
                for i in range(len(data)):
                    if self.server.stop.wait(0.05):
                        return
                    sock.sendall(data[i:i + 1])
            elif plan == "hang":
                sock.sendall(data[:len(data) // 2])
                self.server.stop.wait(DEADLINE + GRACE + 5)
            else:
                sock.sendall(data)
                if plan == "reset":
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass


def run_cases(cases):
    """Each (what, plan, data) through a fake worker: a Counter of outcomes
    and a list of faults (an exception that is not the submission's Failure,
    or a call past DEADLINE + GRACE)."""
    server = FakeWorker()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    client = WorkerClient("http://127.0.0.1:%d" % server.server_address[1])
    outcomes, faults = collections.Counter(), []
    try:
        for what, plan, data in cases:
            server.plan = (plan, data)
            started = time.monotonic()
            try:
                if what == "health":
                    client.wait_healthy(timeout=HEALTH_DEADLINE)
                    outcome = "healthy"
                else:
                    client.solve({"token": "t", "n": 64, "priors": [0.1] * 64},
                                 timeout=DEADLINE)
                    outcome = "answer"
            except Failure as e:
                outcome = e.kind
                if e.kind not in SUBMISSION_KINDS:
                    faults.append("%s %s %r: %s" % (what, plan, data[:60], e))
            except BaseException as e:                      # noqa: B902 - any is a fault
                outcome = "exception"
                faults.append("%s %s %r: %s: %s" % (what, plan, data[:60],
                                                     type(e).__name__, e))
            elapsed = time.monotonic() - started
            if elapsed > DEADLINE + GRACE:
                faults.append("%s %s %r took %.2f s" % (what, plan, data[:60], elapsed))
            outcomes[(what, plan, outcome)] += 1
    finally:
        server.stop.set()
        server.shutdown()
        server.server_close()
    return outcomes, faults


class HostileRepliesTest(unittest.TestCase):
    def test_every_reply_ends_with_a_submission_kind_in_time(self):
        rng = random.Random(SEED)
        cases = []
        for _ in range(CASES):
            plan, data = mutations(rng)
            cases.append(("health" if rng.random() < HEALTH_SHARE else "solve", plan, data))
        shares = [cases[k::THREADS] for k in range(THREADS)]
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(run_cases, shares))
        outcomes = sum((r[0] for r in results), collections.Counter())
        faults = [f for r in results for f in r[1]]
        by_kind = collections.Counter()
        for (what, _, outcome), count in outcomes.items():
            by_kind["%s:%s" % (what, outcome)] += count
        support.show("\nhostile: worker client: %d replies in %.1f s; %s"
                     % (sum(outcomes.values()), time.monotonic() - started,
                        dict(sorted(by_kind.items()))))
        self.assertEqual(faults[:5], [])
        self.assertEqual(sum(outcomes.values()), CASES)
        self.assertEqual(by_kind["solve:exception"] + by_kind["health:exception"], 0)
        for outcome in ("solve:answer", "solve:schema", "solve:no_answer", "solve:timeout",
                        "health:healthy", "health:no_answer"):
            with self.subTest(outcome=outcome):
                self.assertGreater(by_kind[outcome], 0)     # each path was taken

    def test_each_reply_class_gets_its_kind(self):
        chunked = reply(b"%x\r\n%s\r\n0\r\n\r\n" % (len(GOOD_BODY), GOOD_BODY),
                        headers=[b"Transfer-Encoding: chunked"], length=False)
        deep = b'{"answer":' + b"[" * 50_000 + b"]" * 50_000 + b"}"
        cases = [
            ("a good reply", "send", reply(), "answer"),
            ("a good reply, no Content-Length", "send", reply(length=False), "answer"),
            ("Content-Length not a number", "send",
             reply(headers=[b"Content-Length: abc"], length=False), "no_answer"),
            ("Content-Length twice", "send", reply(headers=[b"Content-Length: 18"]),
             "no_answer"),
            ("Content-Length over the limit", "send",
             reply(headers=[b"Content-Length: 99999999999"], length=False), "schema"),
            ("a Content-Length lie", "send",
             reply(headers=[b"Content-Length: 50"], length=False), "no_answer"),
            ("a chunked body", "send", chunked, "no_answer"),
            ("nesting 50,000 deep", "send", reply(deep), "schema"),
            ("a list 100,000 deep, status 500", "send",
             reply(b"[" * 100_000, status=b"HTTP/1.1 500 Oops"), "no_answer"),
            ("a 200 that is not JSON", "send", reply(b"\xff\xfe"), "schema"),
            ("a 200 without an answer", "send", reply(b'{"error":"x"}'), "schema"),
            ("a 201 with an answer", "send", reply(status=b"HTTP/1.1 201 Created"),
             "no_answer"),
            ("a 422 that is not JSON", "send",
             reply(b"oops", status=b"HTTP/1.1 422 Bad"), "schema"),
            ("a 500 with a JSON list", "send",
             reply(b"[1]", status=b"HTTP/1.1 500 Oops"), "no_answer"),
            ("not HTTP", "send", b"SSH-2.0-OpenSSH\r\n\r\n", "no_answer"),
            ("a reset", "reset", b"", "no_answer"),
            ("a trickle", "trickle", reply(b'{"answer":[1,2,3],"pad":"%s"}' % (b"x" * 100)),
             "timeout"),
            ("a reply never ended", "hang", reply(), "timeout"),
        ]
        with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
            results = pool.map(run_cases, [[("solve", plan, data)] for _, plan, data, _ in cases])
        for (what, plan, _, kind), (outcomes, faults) in zip(cases, results):
            with self.subTest(what):
                self.assertEqual(faults, [])
                self.assertEqual(list(outcomes), [("solve", plan, kind)])


class ReplyLimitTest(unittest.TestCase):
    def test_a_client_reads_up_to_its_own_limit(self):
        """A reply of 1.5 MB is `schema` for a client of the default limit
        (1 MiB), and an answer for one given a larger max_response (a
        problem whose worker hands over files)."""
        server = FakeWorker()
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.addCleanup(server.stop.set)
        body = b'{"answer":"%s"}' % (b"x" * 1_500_000)
        server.plan = ("send", reply(body))
        url = "http://127.0.0.1:%d" % server.server_address[1]
        with self.assertRaises(Failure) as caught:
            WorkerClient(url).solve({"token": "t"}, timeout=5)
        self.assertEqual(caught.exception.kind, "schema")
        self.assertIn("at most 1048576", caught.exception.message)
        got = WorkerClient(url, max_response=2 << 20).solve({"token": "t"}, timeout=5)
        self.assertEqual(got, "x" * 1_500_000)


if __name__ == "__main__":
    unittest.main()
