"""Hostile input to the oracle: thousands of malformed requests against a
live oracle, over raw sockets (the worker's: test_hostile_worker.py).

Every request must get the 4xx its fault calls for, never a 5xx (the oracle
speaks HTTP/1.1 and 1.0 only: an HTTP/0.9 request line gets 400); the
servers keep serving; and a session running beside the fuzz ends with exact
counts. A request is counted when it carries the live token and its request
line and headers parse, whatever its body holds, so the fuzz sends the live
token only in requests whose counting is known, and counts them.

The one silence allowed: a client that closes first gets no answer, and an
incomplete request line or header block that stalls past the idle timeout is
closed unanswered.
"""

import collections
import http.client
import json
import math
import random
import sys
import threading
import time
import unittest

import support
from support import problem
from arh_grader import canonical
from fuzz import (BAD_LENGTHS, BAD_VERSIONS, METHODS, PATHS, SOCKET_TIMEOUT, WORD_BYTES,
                  Case, KeepAlive, exchange, histogram, request)

SEED = "hostile-input"
ORACLE_REQUESTS = 10_500       # fuzz requests sent to the oracle
N = 100                        # items of the fuzzed session
TRUTH = frozenset({7, 42, 99})  # its defectives
SECRET = support.secret(N, TRUTH)
MAX_BODY = problem.max_body(N)  # bytes
SIDE_VALID, SIDE_INVALID = 300, 60   # tests of the session running beside the fuzz
SIDE_PAUSE = 0.015             # seconds between two of its tests
SLOW_IDLE = 0.5                # seconds: idle timeout of the oracle for slow clients
BUDGET = 30.0                  # seconds the oracle fuzz may take (about 10 here)

def _reject(name):
    raise ValueError(name)


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def oracle_status(body):
    """The status the oracle's rules give a counted request with `body`."""
    if len(body) > MAX_BODY:
        return 413
    try:
        query = json.loads(body.decode("utf-8"), parse_constant=_reject, parse_float=_finite)
        problem.check_query(SECRET, query)
    except (ValueError, RecursionError):        # QueryError is a ValueError
        return 400
    return 200


# ---- the oracle's fuzz cases -----------------------------------------------

INVALID_QUERIES = [
    [], [0], {}, None, 0, "pool", True, {"pool": []}, {"pool": [0, 0]}, {"pool": [N]},
    {"pool": [-1]}, {"pool": [True]}, {"pool": [False, 1]}, {"pool": [0.0]}, {"pool": [1.5]},
    {"pool": [[0]]}, {"pool": ["1"]}, {"pool": None}, {"pool": 3}, {"pool": "0,1"},
    {"pool": {"0": 1}}, {"Pool": [0]}, {"pool": [0], "extra": 1}, {"pool": [0], "n": N},
    {"pool": list(range(N + 1))}, {"pool": [10 ** 30]}, {"pool": [2 ** 63]},
]
BAD_JSON = [
    b"", b" ", b"{", b"}", b"[", b"nope", b'{"pool": [1,]}', b'{"pool": [1 2]}', b"{'pool': [1]}",
    b'{"pool": [NaN]}', b'{"pool": [Infinity]}', b'{"pool": [-Infinity]}', b"NaN",
    b'{"pool": [1e999]}', b'{"pool": [-1e400]}', b'{"pool": [1]}{"pool": [2]}',
    b'{"pool": [1]} x', b'\xef\xbb\xbf{"pool": [1]}', b'{"pool": [\xff]}', b"\xff\xfe\x00",
    '{"pool": [1]}'.encode("utf-16"), b'{"pool": [0x1]}', b'{"pool": [01]}', b'{"pool": [.5]}',
    b'{"pool": [1]', b'"\\ud800"', b'{"pool": ["\\x"]}', b"\x00", b'{"pool":[1]}\x00',
]
GARBAGE_HEADERS = [     # (header line, status): a malformed one is 400, before any token
    (b"no colon here", 400), (b"X: \x00\x01\x02", 400), (b"\xff\xfe: \xfd", 400),
    (b" folded continuation", 400), (b": empty name", 400), (b"X : space before", 400),
    (b"X:" + b"\x85" * 9, 403), (b"X:", 403), (b"X-Y_z.1~: \tpadded\t ", 403),
]


class OracleFuzz:
    """Draws the oracle's fuzz cases from a seeded generator."""

    def __init__(self, rng, token, closed_token):
        self.rng, self.token, self.closed = rng, token, closed_token

    def pool(self):
        return self.rng.sample(range(N), self.rng.randint(1, 30))

    def body(self):
        """A body for the live token, and its status, in the `keep` mode."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            spaced = rng.random() < 0.5
            body = json.dumps({"pool": self.pool()},
                              separators=(", ", ": ") if spaced else (",", ":")).encode()
        elif roll < 0.55:
            body = json.dumps(rng.choice(INVALID_QUERIES)).encode()
        elif roll < 0.70:
            body = rng.choice(BAD_JSON)
        elif roll < 0.75:
            depth = rng.randint(1, MAX_BODY // 2)
            opener, closer = rng.choice([(b"[", b"]"), (b'{"pool":', b"}")])
            body = (opener * depth + b"0" + closer * depth)[:MAX_BODY]
        elif roll < 0.95:
            body = bytearray(json.dumps({"pool": self.pool()}).encode())
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(body))
                what = rng.random()
                if what < 0.4:
                    body[at] = rng.randrange(256)
                elif what < 0.7:
                    del body[at]
                else:
                    body.insert(at, rng.choice(b'0123456789,[]{}":. -eE\\'))
            body = bytes(body)
        else:
            body = rng.randbytes(rng.randint(0, MAX_BODY))
        return body, oracle_status(body)

    def counted_case(self, body, status, kind):
        queries = [json.loads(body)["pool"]] if status == 200 else []
        mode = "keep" if status in (200, 400) else "once"
        return Case(kind, mode, request(body, token=self.token), (status,), 1,
                    int(status == 400), queries)

    def draw(self):
        rng, token = self.rng, self.token
        roll = rng.random()
        if roll < 0.55:                                   # a counted body, kept alive
            body, status = self.body()
            return self.counted_case(body, status, "body")
        if roll < 0.58:                                   # pipelined, one send
            parts = [self.body() for _ in range(rng.randint(2, 4))]
            parts = [(b, s) for b, s in parts if s in (200, 400)] or [(b"[]", 400)]
            queries = [json.loads(b)["pool"] for b, s in parts if s == 200]
            return Case("pipelined", "once", b"".join(request(b, token=token) for b, _ in parts),
                        tuple(s for _, s in parts), len(parts),
                        sum(s == 400 for _, s in parts), queries)
        if roll < 0.70:                                   # counted, Content-Length faults
            return self.length_case()
        if roll < 0.71:                                   # counted, the client closes first
            body = json.dumps({"pool": self.pool()}).encode()
            cut = rng.randrange(len(body))
            return Case("abort", "abort", request(body[:cut], token=token,
                                                  length=b"%d" % len(body)), None, 1, 1, [])
        return self.refused_case()

    def length_case(self):
        rng, token = self.rng, self.token
        body = json.dumps({"pool": self.pool()}).encode()
        pick = rng.randrange(9)
        if pick == 0:
            return Case("no_length", "once", request(body, token=token, length=False),
                        (411,), 1, 0, [])
        if pick == 1:                   # the oracle takes digits only: no sign
            length = rng.choice(BAD_LENGTHS + [b"-1", b"-99", b"+5"])
            return Case("bad_length", "once", request(b"", token=token, length=length),
                        (411,), 1, 0, [])
        if pick == 2:
            length = rng.choice([b"%d" % (MAX_BODY + 1), b"9" * 40, b"1" * 5000])
            return Case("out_of_bounds_length", "once",
                        request(b"", token=token, length=length), (413,), 1, 0, [])
        if pick == 3:
            big = rng.randbytes(rng.randint(MAX_BODY + 1, 4 * MAX_BODY))
            return Case("oversized", "once", request(big, token=token), (413,), 1, 0, [])
        if pick == 4:
            extra = rng.randint(1, MAX_BODY - len(body))
            return Case("truncated", "once", request(body, token=token,
                                                     length=b"%d" % (len(body) + extra)),
                        (400,), 1, 1, [])
        if pick == 5:
            chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
            return Case("chunked", "once", request(chunked, token=token, length=False,
                                                   headers=[b"Transfer-Encoding: chunked"]),
                        (411,), 1, 0, [])
        if pick == 6:
            return Case("expect_100", "once", request(body, token=token,
                                                      headers=[b"Expect: 100-continue"]),
                        (100, 200), 1, 0, [json.loads(body)["pool"]])
        if pick == 7:
            return Case("http_1_0", "once", request(body, token=token, version=b"HTTP/1.0"),
                        (200,), 1, 0, [json.loads(body)["pool"]])
        data = (b"POST / HTTP/1.1\r\nauthorization: Bearer %s\r\ncontent-length: %d\r\n\r\n%s"
                % (token, len(body), body))
        return Case("lowercase_headers", "once", data, (200,), 1, 0,
                    [json.loads(body)["pool"]])

    def refused_case(self):
        """A request that is not counted: refused before its token counts."""
        rng, token = self.rng, self.token
        body = json.dumps({"pool": self.pool()}).encode()
        pick = rng.randrange(12)
        if pick == 0:
            bad = rng.choice([b"", b"x", self.closed, token[:-1], token + b"x", token[1:],
                              rng.randbytes(24).hex().encode()])
            return Case("bad_token", "once", request(body, token=bad), (403,), 0, 0, [])
        if pick == 1:
            auth = rng.choice([b"bearer " + token, b"Basic " + token, b"Bearer", b"Bearer  ",
                               b"Token " + token, token])
            return Case("bad_authorization", "once",
                        request(body, headers=[b"Authorization: " + auth]), (403,), 0, 0, [])
        if pick == 2:
            return Case("wrong_method", "once",
                        request(body, token=token, method=rng.choice(METHODS)), (405,), 0, 0, [])
        if pick == 3:
            return Case("wrong_path", "once", request(body, token=token, path=rng.choice(PATHS)),
                        (404,), 0, 0, [])
        if pick == 4:
            return Case("bad_version", "once",
                        request(body, token=token, version=rng.choice(BAD_VERSIONS)),
                        (400,), 0, 0, [])
        if pick in (5, 6):
            line = rng.choice([b"GET /", b"GET /x", b"GET *", b"POST /", b"PUT /", b"X /"])
            return Case("http_0_9", "once", line + b"\r\n", (400,), 0, 0, [])
        if pick == 7:
            words = [bytes(rng.choices(WORD_BYTES, k=rng.randint(1, 12)))
                     for _ in range(rng.choice([1, 4, 5, 6]))]
            return Case("garbage_line", "once", b" ".join(words) + b"\r\n\r\n", (400,), 0, 0, [])
        if pick == 8:
            return Case("empty_line", "once", rng.choice([b"\r\n", b"\n", b" \t\r\n"]) + body,
                        (400,), 0, 0, [])
        if pick == 9:
            roll = rng.random()
            if roll < 0.2:
                return Case("long_line", "once", b"POST /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n",
                            (414,), 0, 0, [])
            if roll < 0.4:
                return Case("long_header", "once",
                            request(body, token=token, headers=[b"X: " + b"a" * 70000]),
                            (431,), 0, 0, [])
            flood = [b"X-%d: %d" % (i, i) for i in range(rng.randint(101, 300))]
            return Case("header_flood", "once", request(body, token=token, headers=flood),
                        (431,), 0, 0, [])
        if pick == 10:
            junk, status = rng.choice(GARBAGE_HEADERS)
            headers = [junk]
            headers.insert(rng.randrange(2), b"Authorization: Bearer " + rng.randbytes(8).hex()
                           .encode())
            return Case("garbage_headers", "once", request(body, headers=headers),
                        (status,), 0, 0, [])
        data = request(body, token=rng.randbytes(8).hex().encode())   # closes mid-request
        return Case("abort_unknown", "abort", data[:rng.randrange(1, len(data))], None, 0, 0, [])


# ---- the tests -------------------------------------------------------------

class OracleFuzzTest(unittest.TestCase):
    def setUp(self):
        self.oracle = support.start_oracle(self, record=True)
        self.token = self.oracle.open(SECRET, cap=10 ** 6, max_body=MAX_BODY)
        closed = self.oracle.open(SECRET, cap=10, max_body=MAX_BODY)
        self.oracle.close(closed)
        self.closed = closed.encode()

    def side_session(self, report):
        """The session's own tests, beside the fuzz: SIDE_VALID valid, then
        SIDE_INVALID invalid, each answered right. report["errors"] lists
        what went wrong, report["query_bytes"] the valid tests' bytes."""
        errors = report["errors"] = []
        rng = random.Random(SEED + "/side")
        conn = http.client.HTTPConnection("127.0.0.1", self.oracle.port, timeout=SOCKET_TIMEOUT)
        headers = {"Authorization": "Bearer " + self.token}
        query_bytes = 0
        try:
            for i in range(SIDE_VALID + SIDE_INVALID):
                if i < SIDE_VALID:
                    pool = rng.sample(range(N), rng.randint(1, N))
                    body, want = {"pool": pool}, (200, {"positive": not TRUTH.isdisjoint(pool)})
                    query_bytes += len(canonical(body))
                else:
                    body, want = {"pool": [i % N] * 2}, (400, None)
                conn.request("POST", "/", json.dumps(body), headers)
                response = conn.getresponse()
                got = (response.status, json.loads(response.read()))
                if got[0] != want[0] or (want[1] is not None and got[1] != want[1]):
                    errors.append("side test %d: %r, wanted %r" % (i, got, want))
                time.sleep(SIDE_PAUSE)
        except Exception as e:
            errors.append("side session: %s: %s" % (type(e).__name__, e))
        finally:
            conn.close()
        report["query_bytes"] = query_bytes

    def slow_clients(self, oracle, report):
        """Slow bodies and stalled requests against an oracle with a short
        idle timeout: report["outcomes"] (kind, expected, got) and
        report["session"], the closed session."""
        token = oracle.open(SECRET, cap=100, max_body=MAX_BODY).encode()
        body = json.dumps({"pool": [1, 7, 50]}).encode()
        cases = (
            [("stalled_body", request(body[:5], token=token, length=b"%d" % len(body)), (),
              (408,))] * 4
            + [("dripped_body", request(b"", token=token, length=b"%d" % len(body)),
                [body[i:i + 4] for i in range(0, len(body), 4)], (200,))] * 2
            + [("stalled_headers", b"POST / HTTP/1.1\r\nAuthorization: Bearer " + token, (), ())]
            * 2
            + [("stalled_line", b"POS", (), ())] * 2)
        results = [None] * len(cases)

        def run(i, data, pieces):
            results[i] = exchange(oracle.port, data, "slow", pieces)

        threads = [threading.Thread(target=run, args=(i, data, pieces))
                   for i, (_, data, pieces, _) in enumerate(cases)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        report["outcomes"] = [(kind, expect, tuple(r[0] for r in replies))
                              for (kind, _, _, expect), replies in zip(cases, results)]
        report["session"] = oracle.close(token.decode())

    def test_fuzz_keeps_counts_exact_and_answers_4xx(self):
        rng = random.Random(SEED)
        fuzz = OracleFuzz(rng, self.token.encode(), self.closed)
        side_report, slow_report = {}, {}
        slow_oracle = support.start_oracle(self, idle_timeout=SLOW_IDLE)
        side = threading.Thread(target=self.side_session, args=(side_report,))
        slow = threading.Thread(target=self.slow_clients, args=(slow_oracle, slow_report))
        started = time.monotonic()
        side.start()
        slow.start()

        keep = KeepAlive(self.oracle.port)
        self.addCleanup(keep.close)
        outcomes, mismatches = [], []
        counted = invalid = aborted = 0
        queries = []
        statuses = collections.Counter()      # of the counted requests, as logged
        for _ in range(ORACLE_REQUESTS):
            case = fuzz.draw()
            if case.mode == "keep":
                replies = keep.send(case.data)
            else:
                replies = exchange(self.oracle.port, case.data, case.mode)
            counted += case.counted
            invalid += case.invalid
            queries.extend(case.queries)
            if replies is None:
                aborted += 1
                statuses[400] += case.counted
                continue
            got = tuple(r[0] for r in replies)
            outcomes.append(got)
            for (status, body), pool in zip([r for r in replies if r[0] == 200], case.queries):
                if body != canonical({"positive": not TRUTH.isdisjoint(pool)}):
                    mismatches.append((case.kind, "wrong answer %r to %r" % (body, pool)))
            if got != case.expect:
                mismatches.append((case.kind, got, case.expect, case.data[:120]))
            for status in case.expect[-case.counted:] if case.counted else ():
                statuses[status] += 1
        fuzz_seconds = time.monotonic() - started
        side.join()
        slow.join()
        time.sleep(0.5)         # the aborted requests' threads are still being answered
        slow_outcomes = slow_report["outcomes"]

        # still serving: a valid test on a fresh connection
        conn = http.client.HTTPConnection("127.0.0.1", self.oracle.port, timeout=SOCKET_TIMEOUT)
        self.addCleanup(conn.close)
        conn.request("POST", "/", b'{"pool":[42]}', {"Authorization": "Bearer " + self.token})
        response = conn.getresponse()
        self.assertEqual((response.status, response.read()), (200, b'{"positive":true}'))
        session = self.oracle.close(self.token)

        all_statuses = histogram(outcomes + [o[2] for o in slow_outcomes])
        support.show("\nhostile: oracle: %d requests (+%d slow, +%d side tests) in %.1f s; "
                     "statuses %s; counted %d (400: %d); client closed first: %d; "
                     "stalled requests closed unanswered: %d"
                     % (ORACLE_REQUESTS, len(slow_outcomes), SIDE_VALID + SIDE_INVALID, fuzz_seconds,
                        all_statuses, counted, invalid, aborted,
                        sum(1 for o in slow_outcomes if o[2] == ())))

        self.assertEqual(mismatches[:10], [])
        self.assertEqual(side_report["errors"], [])
        for kind, expect, got in slow_outcomes:
            with self.subTest(slow=kind):
                self.assertEqual(got, expect)
        slow_session = slow_report["session"]
        self.assertEqual((slow_session.tests, slow_session.invalid, slow_session.fault),
                         (6, 0, None))
        self.assertFalse([s for s in all_statuses if s.isdigit() and int(s) >= 500])
        self.assertIsNone(session.fault)
        self.assertFalse(session.over_cap)
        self.assertEqual(session.tests, SIDE_VALID + SIDE_INVALID + counted + 1)
        self.assertEqual(session.invalid, SIDE_INVALID + invalid)
        self.assertEqual(session.query_bytes, side_report["query_bytes"] + 13
                         + sum(len(canonical({"pool": q})) for q in queries))
        logged = collections.Counter(json.loads(line)["s"] for line in session.transcript)
        statuses[200] += SIDE_VALID + 1
        statuses[400] += SIDE_INVALID
        self.assertEqual(logged, statuses)
        self.assertGreaterEqual(ORACLE_REQUESTS, 10_000)
        self.assertLess(fuzz_seconds, BUDGET)


class OracleEdgeTest(unittest.TestCase):
    """Bodies that once made the oracle fail (a 500 and grader_error): each
    is a counted 400 now. The largest session (n = 512) allows the deepest."""

    def setUp(self):
        self.n = problem.N_MAX
        self.oracle = support.start_oracle(self)
        self.token = self.oracle.open(support.secret(self.n, TRUTH),
                                      cap=10 ** 6,
                                      max_body=problem.max_body(self.n))
        self.keep = KeepAlive(self.oracle.port)
        self.addCleanup(self.keep.close)

    def post(self, body):
        return self.keep.send(request(body, token=self.token.encode()))[0]

    def test_every_nesting_depth_is_a_counted_400(self):
        bodies = [b"[" * d + b"]" * d for d in range(1, problem.max_body(self.n) // 2 + 1)]
        bodies += [b'{"pool":' + b"[" * d + b"0" + b"]" * d + b"}"
                   for d in range(2, (problem.max_body(self.n) - 9) // 2 + 1)]
        statuses = collections.Counter(self.post(body)[0] for body in bodies)
        session = self.oracle.close(self.token)
        self.assertEqual(statuses, {400: len(bodies)})
        self.assertEqual((session.tests, session.invalid, session.fault),
                         (len(bodies), len(bodies), None))

    def test_numbers_out_of_range_and_lone_surrogates(self):
        cases = {
            b'{"pool": [1e999]}': "1e999 is out of a float's range",
            b'{"pool": [0, -1e400]}': "-1e400 is out of a float's range",
            b"[1E400]": "1E400 is out of a float's range",
            b'"\\ud800"': "the query is not Unicode",
            b'{"pool": ["\\udfff"]}': "the query is not Unicode",
            b'{"pool": [1], "\\ud800": 1}': "the query is not Unicode",
        }
        for body, words in cases.items():
            with self.subTest(body=body):
                status, reply = self.post(body)
                self.assertEqual(status, 400)
                self.assertIn(words, json.loads(reply)["error"])
        session = self.oracle.close(self.token)
        self.assertEqual((session.tests, session.invalid, session.fault),
                         (len(cases), len(cases), None))


if __name__ == "__main__":
    unittest.main()
