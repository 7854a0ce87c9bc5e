"""Hostile input: thousands of malformed requests against a live oracle and
a live worker, over raw sockets.

Every request must get the 4xx its fault calls for (an HTTP/0.9 request
gets its HTTP/0.9 answer, a body without a status line), never a 5xx; the
servers keep serving; and a session running beside the fuzz ends with exact
counts. A request is counted when it carries the live token and its request
line and headers parse, whatever its body holds, so the fuzz sends the live
token only in requests whose counting is known, and counts them.

The one silence allowed: a client that closes first gets no answer, and an
incomplete request line or header block that stalls past the idle timeout is
closed unanswered (http.server's rule).
"""

import collections
import http.client
import json
import math
import random
import socket
import sys
import threading
import time
import unittest

import support
from support import problem
from arh_grader import WorkerClient, canonical

SEED = "hostile-input"
ORACLE_REQUESTS = 10_500       # fuzz requests sent to the oracle
WORKER_REQUESTS = 1_500        # fuzz requests sent to the worker
N = 100                        # items of the fuzzed session
TRUTH = frozenset({7, 42, 99})  # its defectives
SECRET = (N, TRUTH)
MAX_BODY = problem.max_body(N)  # bytes
SIDE_VALID, SIDE_INVALID = 300, 60   # tests of the session running beside the fuzz
SIDE_PAUSE = 0.015             # seconds between two of its tests
SOCKET_TIMEOUT = 10.0          # seconds any one exchange may take
SLOW_IDLE = 0.5                # seconds: idle timeout of the oracle for slow clients
DRIP = 0.1                     # seconds between the pieces of a slow but steady body
BUDGET = 30.0                  # seconds the oracle fuzz may take (about 10 here)

# One fuzz case: its kind; how it is sent ("keep": on the kept-alive connection,
# "once": a connection of its own, "abort": the client closes first); its bytes;
# the statuses it must get, in order (None: the client closed first); how many
# requests the session counts, of them how many are 400; the pools answered 200.
Case = collections.namedtuple("Case", "kind mode data expect counted invalid queries")


# ---- wire helpers ----------------------------------------------------------

def request(body=b"", *, token=None, method=b"POST", path=b"/", version=b"HTTP/1.1",
            length=None, headers=()):
    """The bytes of one request; `length` None: the body's true length,
    False: no Content-Length header."""
    lines = [b" ".join(x for x in (method, path, version) if x)]
    if token is not None:
        lines.append(b"Authorization: Bearer " + token)
    if length is not False:
        lines.append(b"Content-Length: " + (b"%d" % len(body) if length is None else length))
    lines.extend(headers)
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def parse_replies(data):
    """The statuses of the HTTP responses in `data`, in order, with their
    bodies; a reply without a status line (HTTP/0.9) is status 0."""
    replies = []
    while data:
        if not data.startswith(b"HTTP/"):
            replies.append((0, data))
            break
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            replies.append((-1, data))          # cut short: fails any expectation
            break
        lines = head.split(b"\r\n")
        length = 0
        for line in lines[1:]:
            key, _, value = line.partition(b":")
            if key.strip().lower() == b"content-length":
                length = int(value)
        replies.append((int(lines[0].split()[1]), rest[:length]))
        data = rest[length:]
    return replies


def exchange(port, data, mode="once", pieces=()):
    """Send `data` on a new connection. "once": half-close, read to the end
    and return the replies; "abort": close at once (the client closes
    first) and return None; "slow": then send `pieces` (bytes, DRIP apart),
    read without half-closing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT)
    chunks, error = [], None
    try:
        try:
            sock.sendall(data)
            if mode == "abort":
                return None
            for piece in pieces:
                time.sleep(DRIP)
                sock.sendall(piece)
            if mode == "once":
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass            # a server that answered early and closed: read its answer
        while True:
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError as e:
        error = type(e).__name__       # a reset after the answer: the answer counts
    finally:
        sock.close()
    return parse_replies(b"".join(chunks)) or ([(error, b"")] if error else [])


class KeepAlive:
    """One kept-alive connection; reconnects when the server closes it."""

    def __init__(self, port):
        self.port, self.sock, self.file = port, None, None

    def send(self, data):
        """Send one request; [(status, body)] of its answer."""
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port),
                                                 timeout=SOCKET_TIMEOUT)
            self.file = self.sock.makefile("rb")
        self.sock.sendall(data)
        while True:
            line = self.file.readline()
            if not line:
                self.close()
                return [("closed", b"")]
            status = int(line.split()[1])
            length, close = 0, False
            while True:
                header = self.file.readline()
                if header in (b"\r\n", b""):
                    break
                key, _, value = header.partition(b":")
                key = key.strip().lower()
                if key == b"content-length":
                    length = int(value)
                elif key == b"connection":
                    close = value.strip().lower() == b"close"
            if status >= 200:
                break
        body = self.file.read(length)
        if close:
            self.close()
        return [(status, body)]

    def close(self):
        if self.sock is not None:
            self.file.close()
            self.sock.close()
        self.sock = self.file = None


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
METHODS = [b"GET", b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"TRACE", b"HEAD", b"CONNECT",
           b"post", b"Post", b"PRI", b"FOO", b"M" * 40]
PATHS = [b"/x", b"/index.html", b"/?", b"/?pool=1", b"/%2F", b"*", b"http://127.0.0.1/",
         b"/oracle", b"/..", b"/./", b"/\xff", b"/" + b"a" * 3000]
BAD_VERSIONS = [b"HTTP/x", b"HTTP/1", b"HTTP/1.1.1", b"HTTP/a.b", b"FOO/1.1", b"http/1.1",
                b"HTTP/2.0", b"HTTP/3.0", b"HTTP/9.9", b"HTTP/1.1x", b"HTTP/-1.1",
                b"HTTP/" + b"1" * 12 + b".1"]
BAD_LENGTHS = [b"abc", b"", b"1.5", b"0x10", b"1e3", b"5 5", b"\xb3", b"1" * 5000, b"--1",
               b"five"]
# bytes that are not whitespace to str.split() once decoded as ISO-8859-1
WORD_BYTES = bytes(b for b in range(33, 256) if not chr(b).isspace())


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
        if pick == 1:
            return Case("bad_length", "once", request(b"", token=token,
                                                      length=rng.choice(BAD_LENGTHS)),
                        (411,), 1, 0, [])
        if pick == 2:
            length = rng.choice([b"-1", b"-99", b"%d" % (MAX_BODY + 1), b"9" * 40])
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
        if pick == 5:
            line = rng.choice([b"GET /", b"GET /x", b"GET *"])
            return Case("http_0_9", "once", line + b"\r\n", (0,), 0, 0, [])
        if pick == 6:
            line = rng.choice([b"POST /", b"PUT /", b"X /"])
            return Case("http_0_9_not_get", "once", line + b"\r\n", (400,), 0, 0, [])
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
            junk = rng.choice([b"no colon here", b"X: \x00\x01\x02", b"\xff\xfe: \xfd",
                               b" folded continuation", b": empty name", b"X:" + b"\x85" * 9])
            headers = [junk]
            headers.insert(rng.randrange(2), b"Authorization: Bearer " + rng.randbytes(8).hex()
                           .encode())
            return Case("garbage_headers", "once", request(body, headers=headers),
                        (403,), 0, 0, [])
        data = request(body, token=rng.randbytes(8).hex().encode())   # closes mid-request
        return Case("abort_unknown", "abort", data[:rng.randrange(1, len(data))], None, 0, 0, [])


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
    (solve_body(token=...), "exactly the keys"), (solve_body(n=...), "exactly the keys"),
    (solve_body(priors=...), "exactly the keys"), (solve_body(extra=1), "exactly the keys"),
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
            return Case("http_0_9", "once", b"GET /health\r\n", (0,), 0, 0, [])
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
                data, status = request(b"", path=b"/solve", length=rng.choice(BAD_LENGTHS)), 411
            elif which == 2:
                data, status = request(b"", path=b"/solve",
                                       length=rng.choice([b"-1", b"%d" % (self.MAX + 1)])), 413
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

def histogram(outcomes):
    return dict(sorted(collections.Counter(str(s) for statuses in outcomes
                                           for s in statuses).items()))


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
        print("\nhostile: oracle: %d requests (+%d slow, +%d side tests) in %.1f s; "
              "statuses %s; counted %d (400: %d); client closed first: %d; "
              "stalled requests closed unanswered: %d"
              % (ORACLE_REQUESTS, len(slow_outcomes), SIDE_VALID + SIDE_INVALID, fuzz_seconds,
                 all_statuses, counted, invalid, aborted,
                 sum(1 for o in slow_outcomes if o[2] == ())), file=sys.stderr)

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
        self.token = self.oracle.open((self.n, TRUTH), cap=10 ** 6,
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
        print("\nhostile: worker: %d requests in %.1f s; statuses %s"
              % (WORKER_REQUESTS, seconds, histogram(outcomes)), file=sys.stderr)
        self.assertEqual(mismatches[:10], [])

        item = support.grade.load_set(support.SAMPLE)[0]
        token = oracle.open(problem.secret_of(item), cap=problem.cap(item["n"]),
                            max_body=problem.max_body(item["n"]))
        answer = WorkerClient(url).solve(
            {"token": token, "n": item["n"], "priors": item["priors"]}, timeout=30)
        self.assertEqual(answer, item["defectives"])
        self.assertEqual(oracle.close(token).tests, item["baseline"])


if __name__ == "__main__":
    unittest.main()
