"""The worker's link to the oracle, for harness/arh_worker.py: one instance's
queries as HTTP/1.1 POSTs, written and read by hand over one kept-alive
socket (http.client costs more per query than the loopback round trip
itself). A problem's worker reaches it through arh_worker (its
OracleConnection and OracleError) and subclasses OracleConnection to give
the tester its call: group testing's test(pool) encodes {"pool": pool},
posts it and decodes {"positive"}.

    oracle = OracleConnection("http://127.0.0.1:8081/", token)
    status, data = oracle.post(b'{"pool":[1,3]}')   # (200, b'{"positive":true}')
    status, reply = oracle.send({"ask": 7})         # any JSON query, its reply parsed
    oracle.reply({"ask": 7}, "yes")                 # the reply's "yes", or an error raised
    oracle.close()

A refusal raises OracleError, or the subclass the connection's `refused`
names; a query after the instance's round has ended (409, the oracle's
policy) raises RoundOver, which stops the tester quietly.

No reply within ORACLE_TIMEOUT raises TimeoutError, a dropped connection or
a reply that is not HTTP ConnectionError. Nothing runs at import.
"""

import json
import socket
import threading
import urllib.parse

ORACLE_TIMEOUT = 120.0   # seconds to wait for one oracle reply
MAX_HEAD = 65536         # bytes of the head of the oracle's reply read at most
RECV_BYTES = 65536       # bytes asked of the socket at a time

COMPACT = json.JSONEncoder(separators=(",", ":")).encode   # made once, not per query


class OracleError(Exception):
    """The oracle refused a query: the message says why (for group testing
    an invalid pool, the cap, a closed session)."""


class RoundOver(BaseException):
    """The oracle has ended the instance's round (409): the tester stops
    here, with no answer, and that is no failure (a BaseException, so that
    a tester's `except Exception` lets it through)."""


class StaleConnection(ConnectionError):
    """The oracle closed the connection before any byte of a reply."""


class OracleConnection:
    """One instance's connection to the oracle, its token in every request;
    a problem's subclass gives the tester its call on top of post(). A reply
    with "Connection: close" closes the socket; the next query opens another."""

    refused = OracleError     # the class of a refusal reply() raises

    def __init__(self, url, token):
        parts = urllib.parse.urlsplit(url)
        self.address = (parts.hostname, parts.port or 80)
        self.headers = {"Authorization": "Bearer " + token,
                        "Content-Type": "application/json"}
        self.head = ("POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: " % (
            parts.path or "/", parts.netloc,
            "".join("%s: %s\r\n" % item for item in self.headers.items()))).encode("latin-1")
        self.sock = None
        self.lock = threading.Lock()      # the tester may query from several threads

    def post(self, body):
        """POST the bytes `body`, one query, and read its reply: (status,
        body bytes). The queries of several threads go one at a time."""
        with self.lock:
            return self.exchange(b"%s%d\r\n\r\n%s" % (self.head, len(body), body))

    def send(self, query):
        """Send any JSON query: (status, the reply parsed). OracleError when
        the reply is not JSON."""
        status, data = self.post(COMPACT(query).encode())
        try:
            return status, json.loads(data)
        except ValueError:
            raise OracleError("oracle answered %d: %r" % (status, data[:200])) from None

    def reply(self, query, key, kind=bool):
        """Send `query`: the reply's `key` when the oracle answers 200 with a
        value of type `kind` there; RoundOver when the round has ended
        (409); else self.refused with the status and the oracle's error."""
        status, reply = self.send(query)
        if status == 200 and type(reply) is dict and type(reply.get(key)) is kind:
            return reply[key]
        if status == 409:
            raise RoundOver()
        raise self.refused("oracle answered %d: %s" % (
            status, reply.get("error") if type(reply) is dict else reply))

    def exchange(self, request):
        """Send one request and read its reply: (status, body). A kept-alive
        connection that the oracle closed before any byte of a reply (it
        ends a session's idle connections) is opened again once and the
        request sent again, as HTTP clients do: the oracle counted nothing
        on it, since a request it cuts off mid-session does not exist and
        one cut off at a session's end is answered 403 the second time."""
        for fresh in (self.sock is None, True):
            if self.sock is None:
                self.sock = connect(self.address)
            try:
                try:
                    self.sock.sendall(request)
                    status, data, close = read_reply(self.sock, b"")
                except (StaleConnection, BrokenPipeError):    # nothing of it was read
                    if fresh:
                        raise
                    self.close()
                    continue
            except socket.timeout:
                self.close()
                raise TimeoutError("the oracle did not answer a test within %g s"
                                   % ORACLE_TIMEOUT) from None
            except BaseException:
                self.close()
                raise
            if close:
                self.close()
            return status, data

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None


def connect(address):
    """A connection to the oracle: no Nagle delay, ORACLE_TIMEOUT on every
    send and receive (exchange raises TimeoutError when one runs out)."""
    sock = socket.create_connection(address, ORACLE_TIMEOUT)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_reply(sock, data):
    """Read one reply of the oracle, of which `data` has come: (status,
    body, whether it closes the connection). ConnectionError when the reply
    is cut short or not HTTP."""
    while True:
        end = data.find(b"\r\n\r\n")
        if end >= 0:
            break
        if len(data) > MAX_HEAD:
            raise ConnectionError("the oracle's reply head is over %d bytes" % MAX_HEAD)
        chunk = sock.recv(RECV_BYTES)
        if not chunk:
            if not data:
                raise StaleConnection("the oracle closed the connection without a reply")
            raise ConnectionError("the oracle closed the connection mid-reply")
        data += chunk
    lines = data[:end].split(b"\r\n")
    version, _, rest = lines[0].partition(b" ")
    if not version.startswith(b"HTTP/") or not rest[:3].isdigit():
        raise ConnectionError("the oracle sent no HTTP reply: %r" % lines[0][:80])
    status, length, close = int(rest[:3]), None, version == b"HTTP/1.0"
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"connection":
            close = value.strip().lower() == b"close"
    body = data[end + 4:]
    while length is None or len(body) < length:
        chunk = sock.recv(RECV_BYTES)
        if not chunk:
            if length is None:          # the body runs to the end of the connection
                return status, body, True
            raise ConnectionError("the oracle's reply was cut short")
        body += chunk
    if len(body) > length:
        raise ConnectionError("the oracle sent %d bytes more than its reply"
                              % (len(body) - length))
    return status, body, close
