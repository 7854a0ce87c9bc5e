"""The oracle's counting rules, each against a live server on loopback, on
the toy problem's rules (toy.py: a query is {"guess": an integer}, its
answer {"correct": ...}), in sessions opened by hand and counted by the
SDK's defaults: every request counted, an invalid one too, past the cap a
429."""

import hashlib
import http.client
import json
import socket
import time
import unittest

import support
import toy
from arh_grader import QueryError, canonical
from fuzz import exchange, request

SECRET = toy.SECRET
MAX_BODY = toy.PROBLEM.max_body(toy.ITEM)    # 64 bytes
CUT = 408           # a request cut off by its session's end (CONTRACT.md's `cut` row)


class OracleTest(unittest.TestCase):
    def setUp(self):
        self.oracle = toy.start_oracle(self, record=True)
        self.token = self.oracle.open(SECRET, cap=100, max_body=MAX_BODY)
        self.conn = http.client.HTTPConnection("127.0.0.1", self.oracle.port, timeout=10)
        self.addCleanup(self.conn.close)

    def post(self, body, token=None, path="/", method="POST", headers=None):
        token = self.token if token is None else token
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        all_headers = {"Authorization": "Bearer " + token}
        all_headers.update(headers or {})
        self.conn.request(method, path, data, all_headers)
        response = self.conn.getresponse()
        reply = json.loads(response.read())
        if response.getheader("Connection") == "close":
            self.conn.close()
        return response.status, reply

    def test_valid_tests_are_counted_and_answered(self):
        self.assertEqual(self.post({"guess": 3, "why": [0, 1]}), (200, {"correct": False}))
        self.assertEqual(self.post({"guess": 7}), (200, {"correct": True}))
        session = self.oracle.close(self.token)
        self.assertEqual((session.tests, session.invalid), (2, 0))
        self.assertEqual(session.query_bytes, len(canonical({"guess": 3, "why": [0, 1]}))
                         + len(canonical({"guess": 7})))
        self.assertEqual(session.query_bytes, 23 + 11)
        self.assertEqual(session.answer_bytes, len(b'{"correct":false}')
                         + len(b'{"correct":true}'))
        self.assertEqual(session.transcript, [
            b'{"a":{"correct":false},"q":{"guess":3,"why":[0,1]},"s":200}\n',
            b'{"a":{"correct":true},"q":{"guess":7},"s":200}\n'])

    def test_invalid_queries_are_400_and_counted(self):
        bodies = [{}, {"guess": "7"}, {"guess": True}, {"guess": 7.0}, {"guess": [7]},
                  {"guess": None}, {"Guess": 7}, [7], 7,
                  b"not json", b'{"guess": NaN}', b"\xff\xfe"]
        for body in bodies:
            with self.subTest(body=body):
                status, reply = self.post(body)
                self.assertEqual(status, 400)
                self.assertIn("error", reply)
        session = self.oracle.close(self.token)
        self.assertEqual((session.tests, session.invalid), (len(bodies), len(bodies)))
        self.assertEqual(session.query_bytes, 0)

    def test_unknown_and_closed_tokens_are_refused_uncounted(self):
        self.assertEqual(self.post({"guess": 3})[0], 200)
        self.assertEqual(self.post({"guess": 3}, token="invented")[0], 403)
        self.assertEqual(self.post({"guess": 3}, token="")[0], 403)
        self.conn.request("POST", "/", b'{"guess":3}')          # no Authorization at all
        self.assertEqual(self.conn.getresponse().status, 403)
        self.conn.close()
        session = self.oracle.close(self.token)
        self.assertEqual(self.post({"guess": 3})[0], 403)       # closed
        self.assertEqual(session.tests, 1)

    def test_the_cap(self):
        token = self.oracle.open(SECRET, cap=3, max_body=64)
        statuses = [self.post({"guess": 0}, token=token)[0] for _ in range(5)]
        self.assertEqual(statuses, [200, 200, 200, 429, 429])
        session = self.oracle.close(token)
        self.assertEqual(session.tests, 5)
        self.assertTrue(session.over_cap)

    def test_body_bound_wrong_path_and_method(self):
        status, reply = self.post(b"[" + b"1," * 400 + b"1]")
        self.assertEqual((status, reply["error"]), (413, "body of 803 bytes; at most 64 here"))
        self.assertEqual(self.post({"guess": 3}, path="/other")[0], 404)
        self.assertEqual(self.post({"guess": 3}, method="PUT")[0], 405)
        self.assertEqual(self.post({"guess": 3}, method="GET")[0], 405)
        self.assertEqual(self.post({"guess": 3})[0], 200)      # still serving
        session = self.oracle.close(self.token)
        self.assertEqual((session.tests, session.invalid), (2, 0))  # 413 and the last

    def test_tokens_are_long_and_distinct(self):
        tokens = {self.oracle.open(SECRET, cap=1, max_body=1) for _ in range(100)}
        self.assertEqual(len(tokens), 100)
        self.assertTrue(all(len(t) >= 32 for t in tokens))      # 24 bytes, base64


class OtherProblemTest(unittest.TestCase):
    """The oracle knows no problem: a yes/no guessing game (15 calls,
    questions from a fixed list) runs on it unchanged, on a path of its own,
    its answers objects rather than bytes."""

    QUESTIONS = {"does it fly?": "bird", "does it swim?": "fish"}

    def check(self, secret, query):
        if type(query) is not dict or query.get("question") not in self.QUESTIONS:
            raise QueryError("unknown question: %r" % (query,))

    def answer(self, secret, query):
        return {"answer": "yes" if self.QUESTIONS[query["question"]] == secret else "no"}

    def test_counts_and_answers(self):
        oracle = support.start_oracle(self, check=self.check, answer=self.answer, path="/ask")
        token = oracle.open("fish", cap=15, max_body=256)
        conn = http.client.HTTPConnection("127.0.0.1", oracle.port, timeout=10)
        self.addCleanup(conn.close)
        replies = []
        for question in ("does it fly?", "does it swim?", "is it red?"):
            conn.request("POST", "/ask", json.dumps({"question": question}),
                         {"Authorization": "Bearer " + token})
            response = conn.getresponse()
            replies.append((response.status, json.loads(response.read())))
        self.assertEqual([r[0] for r in replies], [200, 200, 400])
        self.assertEqual(replies[1][1], {"answer": "yes"})
        session = oracle.close(token)
        self.assertEqual((session.tests, session.invalid), (3, 1))


class HttpRulesTest(unittest.TestCase):
    """The HTTP the oracle reads, request by request over raw sockets: the
    statuses, whether each was counted, and the exact bytes of a reply."""

    def setUp(self):
        self.oracle = toy.start_oracle(self)
        self.token = self.oracle.open(SECRET, cap=100, max_body=MAX_BODY)

    def test_the_exact_bytes_of_a_reply(self):
        data = request(b'{"guess":7}', token=self.token.encode())
        sock = socket.create_connection(("127.0.0.1", self.oracle.port), timeout=10)
        self.addCleanup(sock.close)
        sock.sendall(data)
        want = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                b"Content-Length: 16\r\n\r\n{\"correct\":true}")
        got = b""
        while len(got) < len(want):
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
        self.assertEqual(got, want)

    def test_each_rule(self):
        token = self.token.encode()
        body = b'{"guess":3}'
        auth = b"Authorization: Bearer " + token
        cases = [   # (what, request bytes, statuses, counted)
            ("bare LF line ends", request(body, token=token).replace(b"\r\n", b"\n"),
             (400,), 0),
            ("a bare LF in the header lines",
             request(body, token=token).replace(b"\r\nContent", b"\nContent"), (400,), 0),
            ("HTTP/1.0", request(body, token=token, version=b"HTTP/1.0"), (200,), 1),
            ("pipelined", request(body, token=token) * 3, (200, 200, 200), 3),
            ("Expect: 100-continue", request(body, token=token,
                                             headers=[b"Expect: 100-continue"]), (100, 200), 1),
            ("Content-Length twice", request(body, token=token,
                                             headers=[b"Content-Length: %d" % len(body)]),
             (400,), 0),
            ("Authorization twice", request(body, token=token, headers=[auth]), (400,), 0),
            ("Transfer-Encoding too", request(body, token=token,
                                              headers=[b"Transfer-Encoding: chunked"]),
             (411,), 1),
            ("a sign in Content-Length", request(body, token=token, length=b"+11"), (411,), 1),
            ("space before the colon", request(body, headers=[auth.replace(b":", b" :")]),
             (400,), 0),
            ("a folded header", request(body, token=token, headers=[b"X: a", b" b"]), (400,), 0),
            ("a control byte in a value", request(body, token=token, headers=[b"X: \x01"]),
             (400,), 0),
            ("HTTP/0.9", b"GET /\r\n", (400,), 0),
            ("HTTP/2.0", request(body, token=token, version=b"HTTP/2.0"), (400,), 0),
            ("a lowercase method", request(body, token=token, method=b"post"), (405,), 0),
            ("101 header lines", request(body, token=token,
                                         headers=[b"X-%d: 1" % i for i in range(99)]),
             (431,), 0),
            ("100 header lines", request(body, token=token,
                                         headers=[b"X-%d: 1" % i for i in range(98)]), (200,), 1),
        ]
        counted = 0
        for what, data, statuses, count in cases:
            with self.subTest(what):
                replies = exchange(self.oracle.port, data)
                self.assertEqual(tuple(status for status, _ in replies), statuses)
                counted += count
        session = self.oracle.close(self.token)
        self.assertEqual(session.tests, counted)


class OpenRequestsTest(unittest.TestCase):
    """Requests still open when a session closes are cut off and recorded,
    so its count and its transcript always agree."""

    def setUp(self):
        self.oracle = toy.start_oracle(self, record=True)
        self.token = self.oracle.open(SECRET, cap=1000, max_body=4096)

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.oracle.port))
        self.addCleanup(sock.close)
        return sock

    def test_a_request_cut_short_is_counted_and_recorded(self):
        head = (b"POST / HTTP/1.1\r\nAuthorization: Bearer %s\r\n"
                b"Content-Length: 40\r\n\r\n{\"guess\":" % self.token.encode())
        sock = self.connect()
        sock.sendall(request(b'{"guess":3}', token=self.token.encode()) + head)
        self.assertEqual(sock.recv(4096).split(b"\r\n")[0], b"HTTP/1.1 200 OK")
        deadline = time.monotonic() + 30
        while self.oracle._sessions[self.token].tests < 2 and time.monotonic() < deadline:
            time.sleep(0.01)            # until the second request's head is read
        session = self.oracle.close(self.token)
        self.assertEqual(session.tests, 2)
        self.assertEqual([json.loads(line)["s"] for line in session.transcript],
                         [200, CUT])
        self.assertEqual(sock.recv(4096), b"")      # cut off: no reply, closed

    def test_a_client_that_never_reads_cannot_hold_close(self):
        sock = socket.socket()
        self.addCleanup(sock.close)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # full soon
        sock.connect(("127.0.0.1", self.oracle.port))
        one = request(b'{"guess": 3, "why": [%s]}' % b",".join(b"%d" % i for i in range(60)),
                      token=self.token.encode())      # a body of 192 bytes
        sock.setblocking(False)
        try:
            for _ in range(900):           # under the cap; the replies fill the buffers
                sock.send(one)
        except BlockingIOError:
            pass
        deadline = time.monotonic() + 30
        while self.oracle._sessions[self.token].tests < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
        session = self.oracle.close(self.token)
        self.assertGreaterEqual(session.tests, 20)
        self.assertEqual(len(session.transcript), session.tests)
        self.assertEqual(session.digest, hashlib.sha256(b"".join(session.transcript)).hexdigest())


if __name__ == "__main__":
    unittest.main()
