"""The counting oracle: an HTTP server that answers a tester's queries and
counts every one itself.

    oracle = Oracle()                             # port 0: any free port
    oracle.start()
    token = oracle.open(Spec(secret, cap=320, max_body=4096, check=check, answer=answer))
    # the tester POSTs JSON queries to oracle.url with "Authorization: Bearer <token>"
    session = oracle.close(token)                 # its counts are final now
    oracle.stop()

The rules:
- a request that carries an open session's token is counted before it is
  answered, whatever its body holds: an invalid query is answered 400 and
  counted, and so is a body that is missing (411), too long (413), cut
  short (400) or late (408);
- a request over the session's cap is counted and answered 429, and the
  session is marked `over_cap`;
- an unknown or closed token is refused with 403 and not counted;
- a session's Policy may count otherwise (a second problem's rules): an
  invalid query refused without a call, a round that ends at its cap or on
  an answer, after which requests get 409, not counted;
- the server serves POST on its one path and nothing else; every fault of a
  request gets a 4xx with {"error": "..."} and the server keeps serving.

A session is opened with a Spec (session.py), all of it in one place: a
problem makes it for an instance (problem.Problem.session), rules and all.
Its `check(secret, query)` raises QueryError for an invalid query; its
`answer(secret, query)` returns the answer, any JSON value, or bytes: its
canonical JSON, made once rather than for every test. Both get the
query parsed from strict JSON (no NaN or Infinity, no number beyond a
float's range such as 1e999, no lone surrogate).

The HTTP is written and read here by hand, a small strict subset of
HTTP/1.1: a request line "POST <path> HTTP/1.1" (HTTP/1.0 is answered and
closed), "Name: value" header lines, every line ended by CRLF, a body of exactly
Content-Length bytes (no chunked bodies), "Expect: 100-continue" honoured,
pipelined requests answered in order. A request line or header line that
breaks these rules gets 400 (414 and 431 past the limits) and is not
counted: its token is never read. Measured side by side, http.server took
10 to 18 us more a request.

Each request's transcript line, and the canonical JSON of its query, are
made after its reply has left, off the round trip's path; close() waits
for them.
"""

import http
import re
import secrets
import socket
import socketserver
import threading
import time

from .result import canonical
from .session import (CLOSE_WAIT, FAILED as _FAILED, FORBIDDEN as _FORBIDDEN,  # noqa: F401
                      OVER as _OVER, ROUND_OVER, Policy, QueryError, Session, Spec,
                      recorded as _recorded)

TOKEN_BYTES = 24        # 192 bits from `secrets`
IDLE_TIMEOUT = 60.0     # seconds a connection may sit between requests, or between
                        # two pieces of one
BODY_TIMEOUT = 2.0      # seconds a body may take to arrive after its header lines
MAX_LINE = 65536        # bytes of a request line at most (http.client's limit)
MAX_HEAD = 65536        # bytes of a request's header lines at most, all together
MAX_HEADERS = 100       # header lines of a request at most (http.client's limit)
RECV_BYTES = 65536      # bytes asked of the socket at a time
# a header line: a token for its name, a colon, a value of visible bytes,
# spaces and tabs (RFC 9110, 5.1 and 5.5): no space before the colon, no
# control byte, so no bare CR or LF
_FIELD = rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*"
_FIELDS = re.compile(rb"%s(?:\r\n%s)*" % (_FIELD, _FIELD))     # every line at once
_BARE_LF = re.compile(rb"(?<!\r)\n")
_LONG_LINE = "a request line of more than %d bytes" % MAX_LINE
_LONG_HEAD = "header lines of more than %d bytes" % MAX_HEAD
_REASONS = {status.value: status.phrase.encode("ascii") for status in http.HTTPStatus}


class _Refused(Exception):
    """A request the server answers with a 4xx and a closed connection."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


class _Silent(Exception):
    """The client closed the connection (or reset it), or sent nothing for
    the idle timeout (`stalled`)."""

    def __init__(self, *, stalled):
        super().__init__()
        self.stalled = stalled


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 64

    def handle_error(self, request, client_address):
        pass    # a client that went away mid-request; faults are in session.fault


class _Connection(socketserver.BaseRequestHandler):
    """One client's connection: its requests read and answered in order."""

    def setup(self):
        self.sock = self.request
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no wait for ACKs
        self.sock.settimeout(self.server.oracle.idle_timeout)   # a read or a send
        self.buf, self.pos = b"", 0         # bytes received, and how many are read

    def handle(self):
        try:
            while self._one():
                pass
        except (_Silent, OSError):
            pass

    def _one(self):
        """Read and answer one request; False when the connection ends."""
        self.buf, self.pos = self.buf[self.pos:], 0     # the bytes after the last request
        try:
            method, path, version, headers = self._head()
        except _Refused as e:
            self._send(e.status, canonical({"error": e.message}), close=True)
            return False
        oracle = self.server.oracle
        if method != b"POST":
            self._send(405, canonical({"error": "the oracle takes POST only, got %s"
                                       % method[:20].decode("iso-8859-1")}),
                       close=True, extra=b"Allow: POST\r\n")
            return False
        if path != oracle._path:
            self._send(404, canonical({"error": "no such path: the oracle serves %s"
                                       % oracle.path}), close=True)
            return False
        auth = headers.get(b"authorization", b"")
        token = auth[7:].decode("iso-8859-1") if auth.startswith(b"Bearer ") else ""
        session, number = oracle._admit(token, self)
        if session is None:
            self._send(403, _FORBIDDEN, close=True)
            return False
        if number == ROUND_OVER:
            self._send(409, _OVER, close=False)
            return True
        status, query, reply = 500, b"null", b"null"
        try:
            try:
                status, query, obj, close = self._serve(session, number, headers)
                reply = obj if type(obj) is bytes else canonical(obj)
            except Exception as e:                      # the grader's own fault
                session.fault = "%s: %s" % (type(e).__name__, e)
                status, close, reply = 500, True, _FAILED
            close = close or version == b"HTTP/1.0" or \
                headers.get(b"connection", b"").lower() == b"close"
            if not session.answering(number):       # cut off by the session's end
                return False
            self._send(status, reply, close=close)
        finally:            # after the reply has left: the encoding is off its path
            session.log(number, status, _recorded(query), reply)
        return not close

    def cut(self):
        """Shut the connection down, waking a read or a send that waits."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _serve(self, session, number, headers):
        """Read, check and answer one counted request: (status, the query
        as parsed or as JSON bytes, the reply as an object or JSON bytes,
        close?). The session's rules, and HTTP's own: 411, 100, 400, 408."""
        text = headers.get(b"content-length", b"")
        if session.within_cap(number) and (not text.isdigit() or b"transfer-encoding" in headers):
            return 411, b"null", {"error": "a Content-Length of digits is required, "
                                  "and no Transfer-Encoding"}, True     # isdigit: ASCII only
        length = int(text) if text.isdigit() and len(text) <= 9 else None
        refusal = session.early(number, length, shown=text[:20].decode("ascii", "replace"))
        if refusal is not None:
            return refusal[0], b"null", {"error": refusal[1]}, True
        if headers.get(b"expect", b"").lower() == b"100-continue":
            try:
                self._write(b"HTTP/1.1 100 Continue\r\n\r\n")
            except OSError:                 # the client left: its fault, not ours
                return 400, b"null", {"error": "the connection closed before the body"}, True
        if len(self.buf) - self.pos < length:      # the body is not all here yet
            status, message = self._rest_of_body(length)
            if status is not None:
                return status, b"null", {"error": message}, True
        body, self.pos = self.buf[self.pos:self.pos + length], self.pos + length
        status, query, reply = session.respond(body)
        return status, query, reply, status == 500

    def _rest_of_body(self, length):
        """Receive until `length` body bytes are here, within BODY_TIMEOUT:
        (None, None), or the refusal (408 late, 400 cut short)."""
        deadline = time.monotonic() + BODY_TIMEOUT
        try:
            while len(self.buf) - self.pos < length:
                left = deadline - time.monotonic()
                if left <= 0:
                    return 408, "the body was not all there %g s after the header lines" \
                        % BODY_TIMEOUT
                self.sock.settimeout(left)
                self._fill()
        except _Silent as e:
            if e.stalled:
                return 408, "the body was not all there %g s after the header lines" \
                    % BODY_TIMEOUT
            return 400, "truncated body"
        finally:
            self.sock.settimeout(self.server.oracle.idle_timeout)
        return None, None

    # ---- the wire ----

    def _send(self, status, body, *, close, extra=b""):
        self._write(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n%s%s\r\n%s"
                    % (status, _REASONS[status], len(body), extra,
                       b"Connection: close\r\n" if close else b"", body))

    def _write(self, data):
        """Send `data`; OSError when the client leaves it unread for the idle
        timeout, or the session's end cuts the connection."""
        self.sock.sendall(data)

    def _fill(self):
        """Receive more bytes; _Silent when the client closed or stalled."""
        try:
            chunk = self.sock.recv(RECV_BYTES)
        except TimeoutError:                # the idle timeout ran out
            raise _Silent(stalled=True) from None
        except OSError:
            chunk = b""                     # reset by the client: closed
        if not chunk:
            raise _Silent(stalled=False)
        self.buf += chunk

    def _find(self, what, start, limit, status, message):
        """Where `what` is in the buffer from `start`, receiving more as it
        needs; _Refused(status, message) if it is not in the `limit` bytes there."""
        while True:
            at = self.buf.find(what, start)
            if at - start > limit or at < 0 and len(self.buf) - start > limit:
                raise _Refused(status, message)
            if at >= 0:
                return at
            self._fill()

    def _head(self):
        """The request line's three words and the headers as {lowercase
        name: value}; _Refused for a line that breaks the rules, a bare LF
        as soon as it arrives."""
        end = self._find(b"\n", 0, MAX_LINE, 414, _LONG_LINE)
        if end == 0 or self.buf[end - 1] != 13:           # 13: CR
            raise _Refused(400, "the request line ends in a bare LF, not CRLF")
        words = _request_line(self.buf[:end - 1])
        scanned = end + 1                   # bytes of the head checked for a bare LF
        while True:
            blank = self.buf.find(b"\r\n\r\n", end - 1)      # the head's end
            if _BARE_LF.search(self.buf, scanned, len(self.buf) if blank < 0 else blank + 4):
                raise _Refused(400, "a header line ends in a bare LF, not CRLF")
            if blank - end > MAX_HEAD or blank < 0 and len(self.buf) - end > MAX_HEAD:
                raise _Refused(431, _LONG_HEAD)
            if blank >= 0:
                break
            scanned = max(scanned, len(self.buf) - 1)
            self._fill()
        self.pos = blank + 4
        return words + (_headers(self.buf[end + 1:blank]),)


def _request_line(line):
    """(method, path, version) of a request line; _Refused if it is not one."""
    words = line.split()
    if len(words) != 3:
        raise _Refused(400, "a request line is METHOD PATH HTTP/1.1, got %r"
                       % line[:80].decode("iso-8859-1"))
    if words[2] not in (b"HTTP/1.1", b"HTTP/1.0"):
        raise _Refused(400, "the oracle speaks HTTP/1.1, got %r"
                       % words[2][:20].decode("iso-8859-1"))
    return tuple(words)


def _headers(block):
    """{lowercase name: value} of the header lines in `block`; _Refused if
    one is malformed, past MAX_HEADERS, or Content-Length or Authorization
    comes twice."""
    if not block:
        return {}
    lines = block.split(b"\r\n")
    if len(lines) > MAX_HEADERS:
        raise _Refused(431, "more than %d header lines" % MAX_HEADERS)
    if _FIELDS.fullmatch(block) is None:
        bad = next(line for line in lines if re.fullmatch(_FIELD, line) is None)
        raise _Refused(400, "a malformed header line: %r" % bad[:80].decode("iso-8859-1"))
    headers = {}
    for line in lines:
        name, _, value = line.partition(b":")
        name = name.lower()
        if name in headers and name in (b"content-length", b"authorization"):
            raise _Refused(400, "more than one %s header" % name.decode("ascii"))
        headers[name] = value.strip(b" \t")
    return headers


class Oracle:
    """The server and its open sessions. See the module's docstring."""

    def __init__(self, *, host="127.0.0.1", port=0, path="/", record=False,
                 idle_timeout=IDLE_TIMEOUT):
        self.path, self.record = path, record
        self._sessions = {}
        self._lock = threading.Lock()
        self.idle_timeout, self._path = idle_timeout, path.encode("iso-8859-1")
        self._server = _Server((host, port), _Connection)
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

    def open(self, spec):
        """Open a session of the Spec `spec` and return its token."""
        if not isinstance(spec, Spec):
            raise TypeError("Oracle.open takes a session.Spec, got %s" % type(spec).__name__)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            self._sessions[token] = Session.of(spec, record=self.record)
        return token

    def close(self, token):
        """Close a session and return it, its counts and transcript final:
        later requests with its token are refused, and those still open are
        cut off and recorded (Session.end), within CLOSE_WAIT seconds."""
        with self._lock:
            session = self._sessions.pop(token)
        session.end()
        return session

    def _admit(self, token, connection):
        """Count a request for `token`: (session, its number) or (None, 0)."""
        with self._lock:
            session = self._sessions.get(token)
            number = None if session is None else session.admit(connection)
            return (None, None) if number is None else (session, number)
