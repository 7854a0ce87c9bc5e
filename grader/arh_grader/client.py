"""The grader's client for the worker (CONTRACT.md): wait for it to be
healthy, then ask it to solve one instance at a time.

    worker = WorkerClient("http://worker:8080")
    worker.wait_healthy(timeout=30)
    answer = worker.solve({"token": t, "n": n, "priors": p}, timeout=10)

Each call has one deadline for the whole exchange: the connection, the
request and every byte of the reply. A worker that trickles its reply, or
never ends it, is cut off there, not at its next silent read.

Every way the worker can fail becomes a Failure with the submission's kind,
never the platform's, whatever bytes it sends: no whole reply in time is
`timeout`; a refused or dropped connection, a reply that is not HTTP, or any
status but 200 and 422 is `no_answer`; a 422, or a 200 whose body is not a
JSON object with an "answer", or one over MAX_RESPONSE bytes, is `schema`.

Versions (CONTRACT.md, its change log): every request says `Contract-Version:
CONTRACT`; the worker's /health reply says its own, `{"contract": "1.1"}`,
a worker that says none (or what is no version) speaking 1.0. solve sends
only the keys of the versions both speak: a 1.0 worker never gets a
`deadline`. Other keys of the worker's replies are ignored.
"""

import json
import re
import socket
import time
import urllib.parse

from .result import Failure, strict_json

MAX_RESPONSE = 1 << 20   # bytes of a worker's reply body read at most
MAX_HEAD = 65536         # bytes of a reply's status line and headers at most
POLL = 0.05              # seconds between health checks
RECV_BYTES = 65536       # bytes asked of the socket at a time
CONTRACT = (1, 1)        # the version of CONTRACT.md this client speaks
FIRST = (1, 0)           # the version of a worker whose /health names none
SINCE = {"deadline": (1, 1)}   # /solve keys added after 1.0: the version of each
_VERSION = re.compile(r"(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})")
_STATUS_LINE = re.compile(rb"HTTP/1\.[01] ([1-5][0-9][0-9])(?: [^\r\n]*)?")


class _Broken(Exception):
    """A reply that is not HTTP, or a connection that failed (not in time)."""


class _Oversize(_Broken):
    """A reply over MAX_RESPONSE bytes."""


class _Late(Exception):
    """The deadline passed before the reply was whole."""


class WorkerClient:
    def __init__(self, url, *, max_response=MAX_RESPONSE):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError("worker URL must be http://HOST:PORT, got %r" % (url,))
        self.url = url
        self.max_response = max_response    # bytes of a reply's body read at most
        self.host, self.port = parts.hostname, parts.port or 80
        self.contract = CONTRACT    # both sides' version: the worker's, once healthy

    def wait_healthy(self, *, timeout):
        """Return once GET /health answers 200; Failure `no_answer` if it
        has not within `timeout` seconds. A poll that connects may take all
        the time that is left: a slow worker still starts in time."""
        deadline = time.monotonic() + timeout
        last = "no reply"
        while True:
            try:
                status, data = self._request(b"GET", b"/health", None, deadline)
                if status == 200:
                    self.contract = min(CONTRACT, _contract_of(data))
                    return
                last = "status %d" % status
            except _Late:
                last = "a reply not whole in time"
            except _Broken as e:
                last = str(e)
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("no_answer", "the worker at %s was not healthy within %g s "
                              "(last: %s); does the tester import?" % (self.url, timeout, last))
            time.sleep(min(POLL, left))

    def solve(self, payload, *, timeout):
        """POST `payload` to /solve and return the reply's "answer" value."""
        payload = {key: value for key, value in payload.items()
                   if SINCE.get(key, FIRST) <= self.contract}
        body = json.dumps(payload, separators=(",", ":")).encode("utf-8")
        try:
            status, data = self._request(b"POST", b"/solve", body,
                                         time.monotonic() + timeout)
        except _Late:
            raise Failure("timeout", "no answer within %.1f s; the worker printed the tester's "
                          "stack on its stderr just before (locally: this console)"
                          % timeout) from None
        except _Oversize as e:
            raise Failure("schema", str(e)) from None
        except _Broken as e:
            raise Failure("no_answer", "the worker dropped the connection without "
                          "answering (did its process die?): %s" % e) from None
        try:
            reply, error = strict_json(data), None
        except ValueError as e:
            reply, error = None, e
        if status == 200:
            if type(reply) is dict and "answer" in reply:
                return reply["answer"]
            raise Failure("schema", "the worker's 200 reply must be a JSON object with an "
                          "\"answer\", got %s" % (error or _show(data)))
        message = reply.get("error") if type(reply) is dict else None
        message = message if type(message) is str else _show(data)
        if status == 422:
            raise Failure("schema", message)
        raise Failure("no_answer", "the worker answered %d: %s" % (status, message))

    # ---- the wire ----

    def _request(self, method, path, body, deadline):
        """One exchange on a new connection, all of it by `deadline` (a
        time.monotonic() value): (status, body bytes). _Late when the
        deadline passes, _Broken when the connection or the reply fails."""
        head = b"%s %s HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n" \
            b"Contract-Version: %d.%d\r\n" % (method, path, self.host.encode("idna"),
                                              self.port, *CONTRACT)
        if body is not None:
            head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
        try:
            sock = socket.create_connection((self.host, self.port), _left(deadline))
        except socket.timeout:
            raise _Late() from None
        except OSError as e:
            raise _Broken("cannot connect: %s" % (e.strerror or e)) from None
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            _send(sock, head + b"\r\n" + (body or b""), deadline)
            return _read_reply(sock, deadline, self.max_response)
        finally:
            sock.close()


def _contract_of(data):
    """The version a /health reply's body names, FIRST when it names none."""
    try:
        reply = strict_json(data)
    except ValueError:
        return FIRST
    text = reply.get("contract") if type(reply) is dict else None
    match = _VERSION.fullmatch(text) if type(text) is str else None
    return (int(match[1]), int(match[2])) if match else FIRST


def _left(deadline):
    """Seconds to `deadline`; _Late once it has passed."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Late()
    return left


def _send(sock, data, deadline):
    view = memoryview(data)
    while view:
        sock.settimeout(_left(deadline))
        try:
            view = view[sock.send(view):]
        except socket.timeout:
            raise _Late() from None
        except OSError as e:
            raise _Broken("the connection failed while sending: %s" % (e.strerror or e)) from None


def _recv(sock, deadline):
    """Some bytes of the reply, b"" at its end; _Late, _Broken."""
    sock.settimeout(_left(deadline))
    try:
        return sock.recv(RECV_BYTES)
    except socket.timeout:
        raise _Late() from None
    except OSError as e:
        raise _Broken("the connection failed mid-reply: %s" % (e.strerror or e)) from None


def _read_reply(sock, deadline, limit=MAX_RESPONSE):
    """(status, body) of the one reply on `sock`, read by `deadline`. The
    body is Content-Length bytes, or runs to the connection's end; a
    chunked body is refused (the request asked to close, which needs none)."""
    data = b""
    while True:
        end = data.find(b"\r\n\r\n")
        if end >= 0:
            break
        if len(data) > MAX_HEAD:
            raise _Broken("the reply's head is over %d bytes" % MAX_HEAD)
        chunk = _recv(sock, deadline)
        if not chunk:
            raise _Broken("the connection closed %s" % ("mid-reply" if data else
                                                          "without a reply"))
        data += chunk
    if end > MAX_HEAD:
        raise _Broken("the reply's head is over %d bytes" % MAX_HEAD)
    lines = data[:end].split(b"\r\n")
    status = _STATUS_LINE.fullmatch(lines[0])
    if status is None:
        raise _Broken("the reply is not HTTP/1.x: its first line is %s" % _show(lines[0]))
    length = _content_length(lines[1:], limit)
    body = data[end + 4:]
    while length is None or len(body) < length:
        if len(body) > limit:
            break
        chunk = _recv(sock, deadline)
        if not chunk:
            if length is None:
                break
            raise _Broken("the reply was cut short: %d of %d body bytes" % (len(body), length))
        body += chunk
    if len(body) > limit:
        raise _Oversize("the worker's reply is over %d bytes" % limit)
    return int(status.group(1)), body[:length]


def _content_length(lines, limit=MAX_RESPONSE):
    """The Content-Length of a reply's header lines, or None; _Broken for
    one that is malformed, repeated or over `limit`, or a chunked body."""
    found = []
    for line in lines:
        name, colon, value = line.partition(b":")
        name = name.strip().lower()
        if not colon or not name:
            raise _Broken("a malformed header line in the reply: %s" % _show(line))
        if name == b"transfer-encoding":
            raise _Broken("the reply has a Transfer-Encoding (%s); send a Content-Length"
                          % _show(value.strip()))
        if name == b"content-length":
            found.append(value.strip())
    if not found:
        return None
    if len(found) > 1:
        raise _Broken("the reply has %d Content-Length headers" % len(found))
    text = found[0]
    if not text.isdigit() or not text.isascii():
        raise _Broken("the reply's Content-Length is not a number: %s" % _show(text))
    if len(text) > 9 or int(text) > limit:
        raise _Oversize("the worker's reply is %s bytes; at most %d"
                        % (text[:20].decode("ascii"), limit))
    return int(text)


def _show(data, limit=80):
    """A short, printable repr of bytes from the wire, for messages."""
    return repr(data[:limit]) + ("..." if len(data) > limit else "")
