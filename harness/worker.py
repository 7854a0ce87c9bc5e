"""The worker: serves src/tester.py to the grader over HTTP (CONTRACT.md).

    AR_ORACLE_URL=http://grader:8081/ python3 harness/worker.py

GET /health answers 200 {"ok": true, "contract": CONTRACT} once the worker
listens. POST /solve takes {"token", "n", "priors"}, ignoring keys it does
not know, and an optional "deadline" in seconds (shortly
before it, the worker prints every thread's stack on stderr, so a tester
that hangs shows where), calls find(n, priors, test) and answers
{"answer": ...}; each call of test is one POST to AR_ORACLE_URL with the
token in an Authorization header, over one kept-alive connection. A tester
that raises (or failed to import) gets 500 {"error": <end of traceback>}; an
answer that is not JSON gets 422. A malformed request gets a 4xx whose
{"error"} names the bad value, with "Connection: close" (a /solve body holds
at most what n <= 512 needs, and must arrive within BODY_TIMEOUT of its
header lines), and the worker keeps serving. CONTRACT.md's table of the
worker's replies lists every cause. This file is frozen: agents edit src/
only.

Settings come from the environment: AR_ORACLE_URL, AR_WORKER_HOST (default
0.0.0.0), AR_WORKER_PORT (default 8080; 0 picks a free port), AR_TESTER (the
tester's file, default src/tester.py beside harness/), AR_PARENT_PID (when
set, the worker kills its process group as soon as that process is no longer
its parent: it does not outlive grader/local.py).
"""

import faulthandler
import http.server
import importlib.util
import json
import os
import reprlib
import signal
import socket
import sys
import threading
import time
import traceback
import urllib.parse

CONTRACT = "1.1"         # the version of CONTRACT.md this worker speaks
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TESTER = os.path.join(HERE, os.pardir, "src", "tester.py")
TRACE_CHARS = 2000       # characters of a traceback's end sent to the grader
MAX_N = 512              # items an instance has at most
MAX_SOLVE_BODY = 256 + 32 * MAX_N   # bytes of a /solve body at most: a token, n priors
REQUEST_TIMEOUT = 60.0   # seconds a connection may wait for each part of a request's head
BODY_TIMEOUT = 2.0       # seconds a /solve body may take to arrive after its header lines
ORACLE_TIMEOUT = 120.0   # seconds to wait for one oracle reply
MAX_HEAD = 65536         # bytes of the head of the oracle's reply read at most
RECV_BYTES = 65536       # bytes asked of the socket at a time
PARENT_POLL = 0.2        # seconds between two looks at whether the parent lives
MAX_DEADLINE = 86400     # seconds a /solve's deadline may be at most
STACK_EARLY = 0.5        # seconds before a /solve's deadline that the stacks are printed


_COMPACT = json.JSONEncoder(separators=(",", ":")).encode   # made once, not per test
_ANSWERS = {b'{"positive":true}': True, b'{"positive":false}': False}   # the usual two


class OracleError(Exception):
    """The oracle refused a test: the message says why (an invalid pool,
    the cap, a closed session)."""


def load_tester(path, entry="find(n, priors, test)"):
    """Import the tester file as module `tester`; (module, None) or
    (None, traceback text) when the import fails. A module that is not
    part of the standard library is named as such: the worker has no other."""
    try:
        spec = importlib.util.spec_from_file_location("tester", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["tester"] = module
        spec.loader.exec_module(module)
        if not callable(getattr(module, entry.partition("(")[0], None)):
            raise AttributeError("%s defines no function %s" % (path, entry))
        return module, None
    except ModuleNotFoundError as e:
        text = traceback.format_exc()
        top = (e.name or "").partition(".")[0]
        if top and top not in sys.stdlib_module_names:
            text += ("the worker has Python's standard library only, as in its container: "
                     "%r is not part of it\n" % top)
        return None, tail(text)
    except BaseException:
        return None, tail(traceback.format_exc())


def encode_pool(pool):
    """The JSON body of a test, {"pool": pool}, compact; TypeError for what
    JSON cannot encode (a set), ValueError for NaN."""
    return _COMPACT({"pool": pool}).encode()


def tail(text):
    return text if len(text) <= TRACE_CHARS else "..." + text[-TRACE_CHARS:]


class OracleConnection:
    """One instance's connection to the oracle; `test` is what find gets.

    HTTP/1.1 written and read by hand over one kept-alive socket: http.client
    costs more per test than the loopback round trip itself. A reply with
    "Connection: close" closes the socket; the next test opens another."""

    def __init__(self, url, token):
        parts = urllib.parse.urlsplit(url)
        self.address = (parts.hostname, parts.port or 80)
        self.headers = {"Authorization": "Bearer " + token,
                        "Content-Type": "application/json"}
        self.head = ("POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: " % (
            parts.path or "/", parts.netloc,
            "".join("%s: %s\r\n" % item for item in self.headers.items()))).encode("latin-1")
        self.sock = None
        self.lock = threading.Lock()      # find may test from several threads

    def test(self, pool):
        """True if any item of `pool` is defective. Raises OracleError when
        the oracle refuses the test, TypeError when pool is not JSON."""
        body = encode_pool(pool)
        with self.lock:
            status, data = self.exchange(b"%s%d\r\n\r\n%s" % (self.head, len(body), body))
        if status == 200:
            known = _ANSWERS.get(data)
            return parse_answer(data) if known is None else known
        try:
            message = json.loads(data)["error"]
        except (ValueError, KeyError, TypeError):
            message = data[:200]
        raise OracleError("oracle answered %d: %s" % (status, message))

    def send(self, query):
        """Send any JSON query, as another problem's tester does: (status,
        the reply parsed). OracleError when the reply is not JSON."""
        body = _COMPACT(query).encode()
        with self.lock:
            status, data = self.exchange(b"%s%d\r\n\r\n%s" % (self.head, len(body), body))
        try:
            return status, json.loads(data)
        except ValueError:
            raise OracleError("oracle answered %d: %r" % (status, data[:200])) from None

    def exchange(self, request):
        """Send one request and read its reply: (status, body)."""
        if self.sock is None:
            self.sock = connect(self.address)
        try:
            self.sock.sendall(request)
            status, data, close = read_reply(self.sock, b"")
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


def parse_answer(data):
    """The `positive` of a 200 reply that is not one of the two usual ones;
    OracleError when it is not {"positive": true|false}."""
    try:
        reply = json.loads(data)
        if type(reply) is dict and type(reply.get("positive")) is bool:
            return reply["positive"]
    except (ValueError, RecursionError):
        pass
    raise OracleError("oracle answered 200 without {\"positive\": true|false}: %r"
                      % data[:200])


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
            raise ConnectionError("the oracle closed the connection %s"
                                  % ("mid-reply" if data else "without a reply"))
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


class BadRequest(Exception):
    """A request the worker refuses: its 4xx status and what is wrong."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def _and(words):
    """"a, b and c"."""
    return words[0] if len(words) == 1 else "%s and %s" % (", ".join(words[:-1]), words[-1])


def shown(value):
    """A short repr of a request's value, safe for any nesting, for messages."""
    return reprlib.repr(value)


def _reject(name):
    raise ValueError("%s is not JSON" % name)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    timeout = REQUEST_TIMEOUT

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        """A request http.server could not parse: a 4xx with a JSON error."""
        if self.command is None:        # the request line did not parse: answer in 1.1
            self.request_version = self.protocol_version
        body = json.dumps({"error": message or "bad request"},
                          separators=(",", ":")).encode()
        self.send_response(code if code < 500 else 405 if code == 501 else 400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def parse_request(self):
        """Refuse a request line of other than three words with 400, the
        empty one included (http.server closes on the one and answers the
        two-word line in HTTP/0.9)."""
        words = str(self.raw_requestline, "iso-8859-1").split()
        if len(words) != 3:
            self.command, self.requestline = None, ""
            self.send_error(400, "a request line is METHOD PATH HTTP/1.1, got %s" % (
                shown(" ".join(words)) if words else "an empty line"))
            return False
        return super().parse_request()

    def __getattr__(self, name):
        if name.startswith("do_"):      # any method but GET and POST
            return self.not_allowed
        raise AttributeError(name)

    def not_allowed(self):
        self.reply(405, {"error": "the worker takes GET /health and POST /solve, got %s"
                         % shown(self.command)})

    def reply(self, code, obj):
        """Send `obj` as JSON; a 4xx also closes the connection, saying so."""
        body = json.dumps(obj, separators=(",", ":")).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if 400 <= code < 500:
            self.send_header("Connection", "close")     # and close_connection is set
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/health":
            self.reply(200, {"ok": True, "contract": CONTRACT})
        else:
            self.reply(404, {"error": "no such path for GET: %r" % self.path[:80]})

    def do_POST(self):
        if self.path != "/solve":                # its body, if any, is not read
            return self.reply(404, {"error": "no such path for POST: %r" % self.path[:80]})
        try:
            token, fields, deadline = self.read_solve()
        except BadRequest as e:
            return self.reply(e.status, {"error": "bad request: %s" % e})
        if self.server.tester is None:
            return self.reply(500, {"error": "%s failed to import:\n%s" % (
                self.server.tester_path, self.server.import_error)})
        self.reply(*self.server.solve(token, fields, deadline=deadline))

    def read_solve(self):
        """Read and check a /solve body: (token, the instance's fields as
        Worker.check_fields gives them, deadline or None). BadRequest names
        the bad value; the body is bounded by MAX_SOLVE_BODY."""
        texts = self.headers.get_all("Content-Length") or []
        if "Transfer-Encoding" in self.headers:
            raise BadRequest(411, "a Content-Length is required, and no Transfer-Encoding; "
                             "got Transfer-Encoding %s" % shown(self.headers["Transfer-Encoding"]))
        if len(texts) != 1 or not (texts[0].isascii() and texts[0].isdigit()):
            raise BadRequest(411, "one Content-Length of digits is required, got %s"
                             % (shown(texts[0]) if len(texts) == 1 else
                                "%d Content-Length headers" % len(texts)))
        length = int(texts[0]) if len(texts[0]) <= 9 else MAX_SOLVE_BODY + 1
        if length > MAX_SOLVE_BODY:
            raise BadRequest(413, "body of %s bytes; at most %d" % (texts[0][:20], MAX_SOLVE_BODY))
        body = self.read_body(length)
        try:
            request = json.loads(body.decode("utf-8"), parse_constant=_reject)
        except UnicodeDecodeError as e:
            raise BadRequest(400, "not JSON in UTF-8: %s" % e) from None
        except (ValueError, RecursionError) as e:
            raise BadRequest(400, "not JSON: %s" % e) from None
        fields = ("token",) + self.server.FIELDS
        if type(request) is not dict or not set(fields) <= set(request):  # others ignored
            raise BadRequest(400, "the body must be an object with the keys %s, and deadline "
                             "or not, got %s" % (_and(fields), shown(request)))
        deadline = request.get("deadline")
        if deadline is not None and (type(deadline) not in (int, float)
                                     or not 0 < deadline <= MAX_DEADLINE):
            raise BadRequest(400, "deadline must be a number of seconds in (0, %d], got %s"
                             % (MAX_DEADLINE, shown(deadline)))
        token = request["token"]
        if type(token) is not str or not 1 <= len(token) <= 256 or not all(
                "!" <= c <= "~" for c in token):
            raise BadRequest(400, "token must be a string of 1 to 256 visible ASCII "
                             "characters, got %s" % shown(token))
        return token, self.server.check_fields(request), deadline

    def read_body(self, length):
        """The `length` bytes of a body, all there within BODY_TIMEOUT of the
        header lines; BadRequest 408 if not, 400 if the client closed first."""
        deadline = time.monotonic() + BODY_TIMEOUT
        chunks, have = [], 0
        try:
            while have < length:
                self.connection.settimeout(max(deadline - time.monotonic(), 0.001))
                chunk = self.rfile.read1(length - have)
                if not chunk:
                    break
                chunks.append(chunk)
                have += len(chunk)
        except TimeoutError:
            raise BadRequest(408, "body not received within %g s: %d of %d bytes"
                             % (BODY_TIMEOUT, have, length)) from None
        except OSError:
            pass                            # reset by the client: truncated
        finally:
            self.connection.settimeout(REQUEST_TIMEOUT)
        if have < length:
            raise BadRequest(400, "truncated body: %d of %d bytes" % (have, length))
        return b"".join(chunks)


class Worker(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """Print a request's traceback, unless the client went away: the
        grader leaves a /solve unread at its deadline."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def __init__(self, address, *, oracle_url, tester_path):
        super().__init__(address, Handler)
        self.oracle_url = oracle_url
        self.tester_path = os.path.normpath(tester_path)
        self.tester, self.import_error = load_tester(self.tester_path, self.SIGNATURE)

    FIELDS = ("n", "priors")     # a /solve's keys beside token and deadline

    def check_fields(self, request):
        """The instance's fields of a /solve request, checked: (n, priors).
        BadRequest names the bad value."""
        n, priors = request["n"], request["priors"]
        if type(n) is not int or not 1 <= n <= MAX_N:
            raise BadRequest(400, "n must be an integer in 1..%d, got %s" % (MAX_N, shown(n)))
        if type(priors) is not list or len(priors) != n:
            raise BadRequest(400, "priors must be a list of n = %d numbers, got %s"
                             % (n, shown(priors)))
        for p in priors:
            if type(p) is not float or not 0.0 < p < 1.0:
                raise BadRequest(400, "priors must be numbers strictly between 0 and 1, "
                                 "got %s" % shown(p))
        return n, priors

    def solve(self, token, fields, *, deadline=None):
        """Run the tester on one instance: (status, reply object). With a
        `deadline` (seconds), every thread's stack is printed on stderr
        shortly before it, should the tester still be running."""
        oracle = OracleConnection(self.oracle_url, token)
        if deadline is not None:
            faulthandler.dump_traceback_later(deadline - min(STACK_EARLY, deadline / 10))
        try:
            answer = self.play(oracle, fields)
        except BaseException:
            text = tail(traceback.format_exc())
            sys.stderr.write(text)
            return 500, {"error": "%s raised:\n%s" % (self.ENTRY, text)}
        finally:
            faulthandler.cancel_dump_traceback_later()
            oracle.close()
        try:
            json.dumps(answer, allow_nan=False)
        except (TypeError, ValueError) as e:
            return 422, {"error": "%s returned %s, which is not JSON: %s"
                         % (self.ENTRY, type(answer).__name__, e)}
        return 200, {"answer": answer}

    ENTRY = "find"               # the tester's function, as messages name it
    SIGNATURE = "find(n, priors, test)"

    def play(self, oracle, fields):
        """Call the tester on one instance; its answer. Group testing:
        find(n, priors, test)."""
        n, priors = fields
        return self.tester.find(n, priors, oracle.test)


def watch_parent(pid):
    """End this process and its group once `pid` is no longer its parent
    (it died, SIGKILL included, and the process was handed to another)."""
    def watch():
        while os.getppid() == pid:
            time.sleep(PARENT_POLL)
        if os.getpgrp() == os.getpid():      # the group's leader: the tester's children too
            os.killpg(os.getpgrp(), signal.SIGKILL)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


def main(argv=None, *, worker_class=None, default_tester=DEFAULT_TESTER):
    """Serve until interrupted. Another problem's worker passes its own
    Worker subclass and tester file."""
    if os.environ.get("AR_PARENT_PID"):
        watch_parent(int(os.environ["AR_PARENT_PID"]))
    url = os.environ.get("AR_ORACLE_URL", "http://127.0.0.1:8081/")
    host = os.environ.get("AR_WORKER_HOST", "0.0.0.0")
    port = int(os.environ.get("AR_WORKER_PORT", "8080"))
    tester = os.environ.get("AR_TESTER", default_tester)
    server = (worker_class or Worker)((host, port), oracle_url=url, tester_path=tester)
    if server.tester is None:
        sys.stderr.write("worker: %s failed to import:\n%s" % (tester, server.import_error))
    sys.stderr.write("worker: listening on http://%s:%d\n" % server.server_address[:2])
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
