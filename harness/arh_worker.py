"""The worker template, which knows no problem (CONTRACT.md): a problem's
worker is a subclass of its Worker and a call of main().

A worker is an HTTP server that runs a tester. GET /health answers 200
{"ok": true, "contract": CONTRACT} once it listens. POST /solve takes
{"token", <the problem's FIELDS>} and an optional "deadline" in seconds
(shortly before it, every thread's stack is printed on stderr, so a tester
that hangs shows where), ignoring keys it does not know, runs the tester on
that instance and answers 200 {"answer": ...}; each of the tester's queries
is one POST to the oracle with the token, over one kept-alive connection
(OracleConnection, from arh_oracle_link.py beside this file). A tester that
raises (or failed to import) gets 500 {"error": <end of traceback>}, an
answer that is not JSON 422. A malformed request gets a 4xx whose {"error"}
names the bad value, with "Connection: close" (a body holds at most MAX_BODY
bytes and must arrive within BODY_TIMEOUT of its header lines), and the
worker keeps serving. CONTRACT.md's table of the worker's replies lists
every cause.

All of that is here. A problem's worker gives only its own parts, as class
attributes and methods of a Worker subclass: SIGNATURE, the tester's
function (checked when the worker starts, named in messages); FIELDS, the
keys of a /solve beside token and deadline; check_fields(request), their
values checked, in the form play takes them (BadRequest(400, message)
names a bad one; by default FIELDS' values go unchecked); play(oracle,
fields), the tester's call on one instance, whose answer is the reply's;
MAX_BODY, its limit; OracleError, the subclass of OracleError a refusal
raises; and OracleConnection, the class of `oracle`, which a subclass
gives the tester's call: a query encoded, post(body) -> (status, body
bytes), the answer decoded or OracleError raised (send(query) posts any
JSON and parses the reply; reply(query, key) gives the reply's key, or
raises the worker's OracleError, or RoundOver once the oracle has ended
the instance's round, which stops the tester with the answer None).
Handler, the request handler, is rarely a problem's own. A worker for a
tester guess(n, ask), in harness/ beside this:

    import os
    import sys

    HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, HERE)              # this folder first, for the import below
    import arh_worker

    class Oracle(arh_worker.OracleConnection):
        def ask(self, question):          # {"ask": question} sent; the reply's "yes"
            return self.reply({"ask": question}, "yes")

    class Worker(arh_worker.Worker):
        SIGNATURE = "guess(n, ask)"
        FIELDS = ("n",)
        MAX_BODY = 1024
        OracleConnection = Oracle

        def check_fields(self, request):
            n = request["n"]
            if type(n) is not int or n < 1:
                raise arh_worker.BadRequest(400, "n must be a positive integer, got %s"
                                            % arh_worker.shown(n))
            return (n,)

        def play(self, oracle, fields):
            return self.tester.guess(*fields, oracle.ask)

    if __name__ == "__main__":
        sys.exit(arh_worker.main(worker_class=Worker))    # the tester: ../src/tester.py

Group testing's (harness/worker.py) and twenty questions' workers are two
more. The worker file is the entry point, and the one place that puts this
folder first on sys.path before `import arh_worker`: run as `python3 -I`,
as grader/local.py runs it, Python puts none there, not even the script's.
A subclass of OracleError defined there is named plainly in a tester's
traceback. This folder is frozen: agents edit src/ only.

Settings come from the environment: AR_ORACLE_URL, AR_WORKER_HOST (default
0.0.0.0), AR_WORKER_PORT (default 8080; 0 picks a free port), AR_TESTER (the
tester's file, default main's default_tester: src/tester.py beside the
worker's folder), AR_PARENT_PID (when set, the worker kills its process
group as soon as that process is no longer its parent: it does not outlive
grader/local.py). Nothing runs at import.
"""

import faulthandler
import http.server
import importlib.util
import json
import os
import reprlib
import signal
import sys
import threading
import time
import traceback

# the link to the oracle, beside this file; a problem's worker takes both from here
from arh_oracle_link import OracleConnection, OracleError, RoundOver  # noqa: F401

CONTRACT = "1.1"         # the version of CONTRACT.md this worker speaks
TRACE_CHARS = 2000       # characters of a traceback's end sent to the grader
REQUEST_TIMEOUT = 60.0   # seconds a connection may wait for each part of a request's head
BODY_TIMEOUT = 2.0       # seconds a /solve body may take to arrive after its header lines
PARENT_POLL = 0.2        # seconds between two looks at whether the parent lives
MAX_DEADLINE = 86400     # seconds a /solve's deadline may be at most
STACK_EARLY = 0.5        # seconds before a /solve's deadline that the stacks are printed


def load_tester(path, entry):
    """Import the tester file as module `tester`, checking that it defines
    `entry`'s function ("find(n, priors, test)"); (module, None) or (None,
    traceback text) when the import fails. A module that is not part of the
    standard library is named as such: the worker has no other."""
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


def tail(text):
    return text if len(text) <= TRACE_CHARS else "..." + text[-TRACE_CHARS:]


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
        the bad value; the body is bounded by the server's MAX_BODY."""
        texts = self.headers.get_all("Content-Length") or []
        limit = self.server.MAX_BODY
        if "Transfer-Encoding" in self.headers:
            raise BadRequest(411, "a Content-Length is required, and no Transfer-Encoding; "
                             "got Transfer-Encoding %s" % shown(self.headers["Transfer-Encoding"]))
        if len(texts) != 1 or not (texts[0].isascii() and texts[0].isdigit()):
            raise BadRequest(411, "one Content-Length of digits is required, got %s"
                             % (shown(texts[0]) if len(texts) == 1 else
                                "%d Content-Length headers" % len(texts)))
        length = int(texts[0]) if len(texts[0]) <= 9 else limit + 1
        if length > limit:
            raise BadRequest(413, "body of %s bytes; at most %d" % (texts[0][:20], limit))
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
    """The server: the tester loaded once, one /solve a thread. A problem's
    worker subclasses it and gives the parts the module's docstring lists."""
    daemon_threads = True
    Handler = Handler                       # the class of each request's handler
    OracleConnection = OracleConnection     # the class of an instance's oracle link
    OracleError = OracleError               # the class of a refusal its reply() raises
    MAX_BODY = 65536                        # bytes of a /solve body at most
    FIELDS = ()                             # a /solve's keys beside token and deadline
    SIGNATURE = None                        # the tester's function: "find(n, priors, test)"

    def __init__(self, address, *, oracle_url, tester_path):
        super().__init__(address, self.Handler)
        self.oracle_url = oracle_url
        self.tester_path = os.path.normpath(tester_path)
        self.tester, self.import_error = self.load(self.tester_path)

    def load(self, path):
        """(what the worker runs, None), or (None, a traceback's end): the
        file at `path` imported (load_tester), unless a subclass says else."""
        return load_tester(path, self.SIGNATURE)

    def handle_error(self, request, client_address):
        """Print a request's traceback, unless the client went away: the
        grader leaves a /solve unread at its deadline."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def check_fields(self, request):
        """The instance's fields of a /solve request, checked, as play gets
        them: here FIELDS' values unchecked. BadRequest names a bad value."""
        return tuple(request[name] for name in self.FIELDS)

    def play(self, oracle, fields):
        """Call the tester on one instance (self.tester, with what `oracle`
        gives it); its answer."""
        raise NotImplementedError("a problem's worker gives play(oracle, fields)")

    def solve(self, token, fields, *, deadline=None):
        """Run the tester on one instance: (status, reply object). With a
        `deadline` (seconds), every thread's stack is printed on stderr
        shortly before it, should the tester still be running."""
        oracle = self.OracleConnection(self.oracle_url, token)
        oracle.refused = self.OracleError
        entry = self.SIGNATURE.partition("(")[0]
        if deadline is not None:
            faulthandler.dump_traceback_later(deadline - min(STACK_EARLY, deadline / 10))
        try:
            answer = self.play(oracle, fields)
        except RoundOver:               # the oracle ended the round: no answer, no failure
            answer = None
        except BaseException:
            text = tail(traceback.format_exc())
            sys.stderr.write(text)
            return 500, {"error": "%s raised:\n%s" % (entry, text)}
        finally:
            faulthandler.cancel_dump_traceback_later()
            oracle.close()
        try:
            json.dumps(answer, allow_nan=False)
        except (TypeError, ValueError) as e:
            return 422, {"error": "%s returned %s, which is not JSON: %s"
                         % (entry, type(answer).__name__, e)}
        return 200, {"answer": answer}


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


def tester_beside(worker_class):
    """The tester a worker runs unless told another: ../src/tester.py from
    the folder of the file that defines `worker_class` (a problem's
    harness/worker.py: its src/tester.py)."""
    module = sys.modules[worker_class.__module__]
    return os.path.join(os.path.dirname(os.path.abspath(module.__file__)), os.pardir, "src",
                        "tester.py")


def main(*, worker_class, default_tester=None):
    """Serve `worker_class` (a problem's Worker) until interrupted, running
    AR_TESTER's file, else `default_tester` (None: tester_beside's); the
    settings come from the environment (the module's docstring)."""
    if default_tester is None:
        default_tester = tester_beside(worker_class)
    if os.environ.get("AR_PARENT_PID"):
        watch_parent(int(os.environ["AR_PARENT_PID"]))
    url = os.environ.get("AR_ORACLE_URL", "http://127.0.0.1:8081/")
    host = os.environ.get("AR_WORKER_HOST", "0.0.0.0")
    port = int(os.environ.get("AR_WORKER_PORT", "8080"))
    tester = os.environ.get("AR_TESTER", default_tester)
    server = worker_class((host, port), oracle_url=url, tester_path=tester)
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
