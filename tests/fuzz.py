"""Raw-socket tools for the hostile-input tests: request bytes, replies
parsed from the wire, one exchange on a connection of its own or a kept-alive
one, the tables of malformed request parts both fuzzes draw from, the
/solve faults every worker on the template answers alike
(template_bad_solves), and the worker's fuzz (WorkerFuzz), which any worker
on the template is sent, its /solve bodies given by the test."""

import collections
import socket
import time

SOCKET_TIMEOUT = 10.0          # seconds any one exchange may take
DRIP = 0.1                     # seconds between the pieces of a slow but steady body

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


METHODS = [b"GET", b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"TRACE", b"HEAD", b"CONNECT",
           b"post", b"Post", b"PRI", b"FOO", b"M" * 40]
PATHS = [b"/x", b"/index.html", b"/?", b"/?pool=1", b"/%2F", b"*", b"http://127.0.0.1/",
         b"/oracle", b"/..", b"/./", b"/\xff", b"/" + b"a" * 3000]
BAD_VERSIONS = [b"HTTP/x", b"HTTP/1", b"HTTP/1.1.1", b"HTTP/a.b", b"FOO/1.1", b"http/1.1",
                b"HTTP/2.0", b"HTTP/3.0", b"HTTP/9.9", b"HTTP/1.1x", b"HTTP/-1.1",
                b"HTTP/" + b"1" * 12 + b".1"]
BAD_LENGTHS = [b"abc", b"", b"1.5", b"0x10", b"1e3", b"5 5", b"\xb3", b"--1", b"five"]
# bytes that are not whitespace to str.split() once decoded as ISO-8859-1
WORD_BYTES = bytes(b for b in range(33, 256) if not chr(b).isspace())


# ---- a worker's fuzz cases -------------------------------------------------

def template_bad_solves(solve_body):
    """The /solve faults the worker template answers alike for every
    problem (JSON, the token, the deadline): (body, words its error must
    hold), with `solve_body(**change)` the problem's body with the keys
    named changed."""
    return [
        (b"nope", "not JSON"), (b"[]", "got []"), (b'"x"', "got 'x'"), (b"null", "got None"),
        (b"3", "got 3"),
        (solve_body(token=3), "token must be a string of 1 to 256 visible ASCII characters, "
                              "got 3"),
        (solve_body(token=None), "got None"), (solve_body(token=""), "got ''"),
        (solve_body(token="a b"), "got 'a b'"), (solve_body(token="x" * 257), "got 'xxx"),
        (solve_body(token="x" * 300), "got 'xxx"), (solve_body(token=["x"]), "got ['x']"),
        (solve_body(token="\u00e9t\u00e9"), "got '\u00e9t\u00e9'"),   # visible, not ASCII
        (solve_body(token="abc", deadline=0), "deadline must be a number of seconds in "
                                              "(0, 86400], got 0"),
        (solve_body(token="abc", deadline=-1.5), "got -1.5"),
        (solve_body(token="abc", deadline="10"), "got '10'"),
        (solve_body(token="abc", deadline=True), "got True"),
        (solve_body(token="abc", deadline=86401), "got 86401"),
        (b"[" * 5000 + b"]" * 5000, "bad request: "),     # deep: not JSON, or not an object
        (b'{"token": [' * 1200 + b"]}" * 1200, "bad request: "),
    ]


class WorkerFuzz:
    """Draws a worker's fuzz cases from a seeded generator: none of them may
    reach its tester. `solve_body(**change)` is the bytes of a /solve body,
    the keys named changed (a value of ... leaves the key out), which the
    worker refuses even unchanged (its token is not one); `mutable(rng)` a
    body for the fuzz to mutate; `max_body` the worker's bound on a body;
    `bad_solves` the (body, words its error must hold) drawn as they are."""

    def __init__(self, rng, *, solve_body, mutable, max_body, bad_solves):
        self.rng, self.solve_body, self.mutable = rng, solve_body, mutable
        self.MAX, self.bad_solves = max_body, bad_solves

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
            return Case("wrong_method", "once", request(self.solve_body(), method=method,
                                                        path=b"/solve"), (405,), 0, 0, [])
        if pick == 3:
            return Case("post_elsewhere", "once",
                        request(self.solve_body(), path=rng.choice(PATHS)), (404,), 0, 0, [])
        if pick == 4:
            return Case("bad_version", "once", request(self.solve_body(), path=b"/solve",
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
            return Case("header_flood", "once", request(self.solve_body(), path=b"/solve",
                                                        headers=flood), (431,), 0, 0, [])
        if pick == 8:
            body = self.solve_body()
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
            body = bytearray(self.mutable(rng))
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(body))
                if rng.random() < 0.5:
                    body[at] = rng.randrange(256)
                else:
                    del body[at]
            return Case("solve_mutated", "once", request(bytes(body), path=b"/solve"),
                        (400,), 0, 0, [])
        body, words = rng.choice(self.bad_solves)
        return Case("solve_invalid:" + words, "once", request(body, path=b"/solve"),
                    (400,), 0, 0, [])


# ---- reporting ---------------------------------------------------------------

def histogram(outcomes):
    return dict(sorted(collections.Counter(str(s) for statuses in outcomes
                                           for s in statuses).items()))
