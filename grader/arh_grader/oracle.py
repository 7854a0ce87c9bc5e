"""The counting oracle: an HTTP server that answers a tester's queries and
counts every one itself.

    oracle = Oracle(check=check, answer=answer)   # port 0: any free port
    oracle.start()
    token = oracle.open(secret, cap=320, max_body=4096)
    # the tester POSTs JSON queries to oracle.url with "Authorization: Bearer <token>"
    session = oracle.close(token)                 # its counts are final now
    oracle.stop()

The rules:
- a request that carries an open session's token is counted before it is
  answered, whatever it holds: an invalid query is answered 400 and counted;
- a request over the session's cap is counted and answered 429, and the
  session is marked `over_cap`;
- an unknown or closed token is refused with 403 and not counted;
- the server serves POST on its one path and nothing else; every fault of a
  request gets a 4xx with {"error": "..."} and the server keeps serving.

`check(secret, query)` raises QueryError for an invalid query;
`answer(secret, query)` returns the answer, any JSON value. Both get the
query parsed from strict JSON (no NaN or Infinity, no number beyond a
float's range such as 1e999, no lone surrogate).
"""

import email.parser
import hashlib
import http.server
import json
import math
import re
import secrets
import threading

from .result import canonical

TOKEN_BYTES = 24        # 192 bits from `secrets`
IDLE_TIMEOUT = 60.0     # seconds a connection may sit between requests
CLOSE_WAIT = 5.0        # seconds close() waits for requests still being answered
MAX_LINE = 65536        # bytes of a header line at most (http.client's limit)
MAX_HEADERS = 100       # header lines at most, the blank one included (http.client's)
# a header line as the email parser reads it, when nothing in it is odd:
# its name characters, a colon, the value after spaces and tabs
_PLAIN_HEADER = re.compile(rb"([!-9;-~]+):[ \t]*([^\r\n]*)\r?\n?\Z")


class QueryError(ValueError):
    """Raised by `check` for a query that is answered 400 (and counted)."""


class Session:
    """One instance's counts. `tests` counts every admitted request;
    `invalid` those answered 400; `query_bytes` and `answer_bytes` the
    canonical JSON of the valid queries and their answers; `digest` the
    SHA-256 of the transcript (one JSON line a request, in answer order)."""

    def __init__(self, secret, cap, max_body, record):
        self.secret, self.cap, self.max_body = secret, cap, max_body
        self.tests = self.invalid = self.query_bytes = self.answer_bytes = 0
        self.over_cap = False
        self.fault = None         # set when the oracle itself failed on a request
        self.transcript = [] if record else None
        self._sha = hashlib.sha256()
        self._busy = 0
        self._idle = threading.Condition()

    @property
    def digest(self):
        return self._sha.hexdigest()

    def log(self, status, query, reply):
        """Record one request: `query` and `reply` as JSON bytes."""
        line = b'{"a":%s,"q":%s,"s":%d}\n' % (reply, query, status)
        with self._idle:
            if status == 200:
                self.query_bytes += len(query)
                self.answer_bytes += len(reply)
            elif status == 400:
                self.invalid += 1
            self._sha.update(line)
            if self.transcript is not None:
                self.transcript.append(line)
            self._busy -= 1
            self._idle.notify_all()


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 64

    def handle_error(self, request, client_address):
        pass    # a client that went away mid-request; faults are in session.fault


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True     # else a small reply waits ~40 ms for an ACK
    wbufsize = 1 << 16                 # headers and body leave in one send
    timeout = IDLE_TIMEOUT

    def log_message(self, *args):
        pass

    def send_response(self, code, message=None):
        self.send_response_only(code, message)   # no Date or Server header

    def send_error(self, code, message=None, explain=None):
        if self.command is None:        # the request line did not parse: answer in 1.1,
            self.request_version = self.protocol_version    # not as HTTP/0.9 (no status)
        self._reply(code if code < 500 else 400, {"error": message or "bad request"},
                    close=True)

    def parse_request(self):
        line = str(self.raw_requestline, "iso-8859-1")
        words = line.split()
        if not words:                   # else http.server closes it unanswered
            self.command, self.requestline = None, ""
            self.send_error(400, "the request line is empty")
            return False
        if len(words) != 3 or words[2] != "HTTP/1.1" or words[1].startswith("//"):
            return super().parse_request()
        return self._parse_usual(line, words)

    def _parse_usual(self, line, words):
        """http.server's parse_request for "COMMAND PATH HTTP/1.1", with its
        limits and answers, but plain "Name: value" headers are read without
        the email parser: it costs about 50 us a request, more than the
        loopback round trip (see grader/bench.py)."""
        self.command, self.path, self.request_version = words
        self.requestline = line.rstrip("\r\n")
        self.close_connection = False
        lines = []
        while True:
            line = self.rfile.readline(MAX_LINE + 1)
            if len(line) > MAX_LINE:
                self.send_error(431, "Line too long",
                                "got more than %d bytes when reading header line" % MAX_LINE)
                return False
            lines.append(line)
            if len(lines) > MAX_HEADERS:
                self.send_error(431, "Too many headers", "got more than %d headers" % MAX_HEADERS)
                return False
            if line in (b"\r\n", b"\n", b""):
                break
        plain = [_PLAIN_HEADER.match(line) for line in lines[:-1]]
        if all(plain):
            self.headers = self.MessageClass()
            for match in plain:
                self.headers.set_raw(match[1].decode("iso-8859-1"),
                                     match[2].decode("iso-8859-1"))
        else:                               # folded or odd lines: the email parser's rules
            self.headers = email.parser.Parser(_class=self.MessageClass).parsestr(
                b"".join(lines).decode("iso-8859-1"))
        if self.headers.get("Connection", "").lower() == "close":
            self.close_connection = True
        if self.headers.get("Expect", "").lower() == "100-continue":
            return self.handle_expect_100()
        return True

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self._not_allowed
        raise AttributeError(name)

    def _not_allowed(self):
        self._reply(405, {"error": "the oracle takes POST only, got %s" % self.command[:20]},
                    close=True, extra=(("Allow", "POST"),))

    def _reply(self, code, obj, *, close=False, extra=()):
        body = canonical(obj)
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for key, value in extra:
            self.send_header(key, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)
        return body

    def do_POST(self):
        oracle = self.server.oracle
        if self.path != oracle.path:
            return self._reply(404, {"error": "no such path: the oracle serves %s"
                                     % oracle.path}, close=True)
        auth = self.headers.get("Authorization", "")
        token = auth[7:] if auth.startswith("Bearer ") else ""
        session, number = oracle._admit(token)
        if session is None:
            return self._reply(403, {"error": "unknown or closed token: not counted"},
                               close=True)
        status, query, reply = 0, b"null", b"null"     # status 0: nothing sent
        try:
            status, query, obj, close = self._serve(oracle, session, number)
        except Exception as e:                          # the grader's own fault
            session.fault = "%s: %s" % (type(e).__name__, e)
            status, obj, close = 500, {"error": "the oracle failed; not your fault"}, True
        try:
            reply = self._reply(status, obj, close=close)
        finally:
            session.log(status, query, reply)

    def _serve(self, oracle, session, number):
        """Read, check and answer one counted request:
        (status, query bytes, reply object, close?)."""
        if number > session.cap:
            session.over_cap = True
            return 429, b"null", {"error": "over the cap of %d tests" % session.cap}, True
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return 411, b"null", {"error": "a Content-Length is required"}, True
        if not 0 <= length <= session.max_body:
            return 413, b"null", {"error": "body of %d bytes; at most %d here"
                                  % (length, session.max_body)}, True
        try:
            body = self.rfile.read(length)
        except OSError:
            return 408, b"null", {"error": "body not received in time"}, True
        if len(body) < length:
            return 400, b"null", {"error": "truncated body"}, True
        try:
            query = _DECODER.decode(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            text = json.dumps(body.decode("utf-8", "replace"))
            return 400, text.encode("utf-8"), {"error": "not JSON: %s" % e}, False
        try:
            query_bytes = canonical(query)
            oracle.check(session.secret, query)
        except QueryError as e:
            return 400, query_bytes, {"error": str(e)}, False
        except (RecursionError, UnicodeEncodeError) as e:   # parsed, but too deep or
            text = json.dumps(body.decode("utf-8", "replace"))  # a lone surrogate
            what = "nested too deeply" if isinstance(e, RecursionError) else "not Unicode"
            return 400, text.encode("utf-8"), {"error": "the query is %s" % what}, False
        return 200, query_bytes, oracle.answer(session.secret, query), False


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("%s is out of a float's range" % text[:20])
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)   # made once


class Oracle:
    """The server and its open sessions. See the module's docstring."""

    def __init__(self, *, check, answer, host="127.0.0.1", port=0, path="/",
                 record=False, idle_timeout=IDLE_TIMEOUT):
        self.check, self.answer, self.path, self.record = check, answer, path, record
        self._sessions = {}
        self._lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"timeout": idle_timeout})
        self._server = _Server((host, port), handler)
        self._server.oracle = self
        self._thread = None

    @property
    def port(self):
        return self._server.server_address[1]

    @property
    def url(self):
        host = self._server.server_address[0]
        host = "127.0.0.1" if host in ("0.0.0.0", "") else host
        return "http://%s:%d%s" % (host, self.port, self.path)

    def start(self):
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
        self._server.server_close()

    def open(self, secret, *, cap, max_body):
        """Open a session for `secret` and return its token."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            self._sessions[token] = Session(secret, cap, max_body, self.record)
        return token

    def close(self, token):
        """Close a session and return it: later requests with its token are
        refused. Waits up to CLOSE_WAIT seconds for requests already counted
        to be answered, so the counts and the digest are complete."""
        with self._lock:
            session = self._sessions.pop(token)
        with session._idle:
            session._idle.wait_for(lambda: session._busy == 0, timeout=CLOSE_WAIT)
        return session

    def _admit(self, token):
        """Count a request for `token`: (session, its number) or (None, 0)."""
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                return None, 0
            session.tests += 1
            with session._idle:
                session._busy += 1
            return session, session.tests
