"""Hostile input to the oracle: thousands of malformed requests against a
live oracle of the toy problem's rules (toy.py), over raw sockets (the
cases, drawn from a seed: oracle_fuzz.py; the worker template's fuzz:
test_hostile_worker_template.py).

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
import random
import threading
import time
import unittest

import support
import toy
from arh_grader import canonical
from fuzz import SOCKET_TIMEOUT, KeepAlive, exchange, histogram, request
from oracle_fuzz import MAX_BODY, SECRET, N, OracleFuzz

SEED = "hostile-input"
ORACLE_REQUESTS = 10_500       # fuzz requests sent to the oracle
SIDE_VALID, SIDE_INVALID = 300, 60   # tests of the session running beside the fuzz
SIDE_PAUSE = 0.015             # seconds between two of its tests
SLOW_IDLE = 0.5                # seconds: idle timeout of the oracle for slow clients
BUDGET = 30.0                  # seconds the oracle fuzz may take (about 10 here)
DEEP_BODY = 4096               # bytes of a body at most in the edge cases: 2048 levels deep


class OracleFuzzTest(unittest.TestCase):
    def setUp(self):
        self.oracle = toy.start_oracle(self, record=True)
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
                    guess = rng.randrange(N)
                    body = {"guess": guess, "why": rng.sample(range(N), rng.randint(0, 60))}
                    want = (200, {"correct": guess == SECRET})
                    query_bytes += len(canonical(body))
                else:
                    body, want = {"guess": str(i % N)}, (400, None)
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
        body = json.dumps({"guess": 50, "why": [1, 7]}).encode()
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
        slow_oracle = toy.start_oracle(self, idle_timeout=SLOW_IDLE)
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
            for (status, body), query in zip([r for r in replies if r[0] == 200], case.queries):
                if body != toy.answer_bytes(SECRET, query):
                    mismatches.append((case.kind, "wrong answer %r to %r" % (body, query)))
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
        conn.request("POST", "/", b'{"guess":7}', {"Authorization": "Bearer " + self.token})
        response = conn.getresponse()
        self.assertEqual((response.status, response.read()), (200, b'{"correct":true}'))
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
        self.assertEqual(session.query_bytes, side_report["query_bytes"] + 11
                         + sum(len(canonical(q)) for q in queries))
        logged = collections.Counter(json.loads(line)["s"] for line in session.transcript)
        statuses[200] += SIDE_VALID + 1
        statuses[400] += SIDE_INVALID
        self.assertEqual(logged, statuses)
        self.assertGreaterEqual(ORACLE_REQUESTS, 10_000)
        self.assertLess(fuzz_seconds, BUDGET)


class OracleEdgeTest(unittest.TestCase):
    """Bodies that once made the oracle fail (a 500 and grader_error): each
    is a counted 400 now, up to the deepest DEEP_BODY allows."""

    def setUp(self):
        self.oracle = toy.start_oracle(self)
        self.token = self.oracle.open(SECRET, cap=10 ** 6, max_body=DEEP_BODY)
        self.keep = KeepAlive(self.oracle.port)
        self.addCleanup(self.keep.close)

    def post(self, body):
        return self.keep.send(request(body, token=self.token.encode()))[0]

    def test_every_nesting_depth_is_a_counted_400(self):
        bodies = [b"[" * d + b"]" * d for d in range(1, DEEP_BODY // 2 + 1)]
        bodies += [b'{"guess":' + b"[" * d + b"0" + b"]" * d + b"}"
                   for d in range(1, (DEEP_BODY - 11) // 2 + 1)]
        self.assertEqual((len(bodies), max(map(len, bodies))), (2048 + 2042, DEEP_BODY))
        statuses = collections.Counter(self.post(body)[0] for body in bodies)
        session = self.oracle.close(self.token)
        self.assertEqual(statuses, {400: len(bodies)})
        self.assertEqual((session.tests, session.invalid, session.fault),
                         (len(bodies), len(bodies), None))

    def test_numbers_out_of_range_and_lone_surrogates(self):
        cases = {
            b'{"guess": 1e999}': "1e999 is out of a float's range",
            b'{"guess": 0, "why": [0, -1e400]}': "-1e400 is out of a float's range",
            b"[1E400]": "1E400 is out of a float's range",
            b'"\\ud800"': "the query is not Unicode",
            b'{"guess": "\\udfff"}': "the query is not Unicode",
            b'{"guess": 1, "\\ud800": 1}': "the query is not Unicode",
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
