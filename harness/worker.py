"""The worker: serves src/tester.py to the grader over HTTP (CONTRACT.md).

    AR_ORACLE_URL=http://grader:8081/ python3 harness/worker.py

GET /health answers 200 once the worker listens. POST /solve takes
{"token", "n", "priors"}, calls find(n, priors, test) and answers
{"answer": ...}; each call of test is one POST to AR_ORACLE_URL with the
token in an Authorization header, over one kept-alive connection. A tester
that raises (or failed to import) gets 500 {"error": <end of traceback>}; an
answer that is not JSON gets 422. This file is frozen: agents edit src/ only.

Settings come from the environment: AR_ORACLE_URL, AR_WORKER_HOST (default
0.0.0.0), AR_WORKER_PORT (default 8080; 0 picks a free port), AR_TESTER (the
tester's file, default src/tester.py beside harness/).
"""

import http.client
import http.server
import importlib.util
import json
import os
import sys
import threading
import traceback
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TESTER = os.path.join(HERE, os.pardir, "src", "tester.py")
TRACE_CHARS = 2000       # characters of a traceback's end sent to the grader
ORACLE_TIMEOUT = 120.0   # seconds to wait for one oracle reply


class OracleError(Exception):
    """The oracle refused a test: the message says why (an invalid pool,
    the cap, a closed session)."""


def load_tester(path):
    """Import the tester file as module `tester`; (module, None) or
    (None, traceback text) when the import fails."""
    try:
        spec = importlib.util.spec_from_file_location("tester", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["tester"] = module
        spec.loader.exec_module(module)
        if not callable(getattr(module, "find", None)):
            raise AttributeError("%s defines no function find(n, priors, test)" % path)
        return module, None
    except BaseException:
        return None, tail(traceback.format_exc())


def tail(text):
    return text if len(text) <= TRACE_CHARS else "..." + text[-TRACE_CHARS:]


class Oracle:
    """One instance's connection to the oracle; `test` is what find gets."""

    def __init__(self, url, token):
        parts = urllib.parse.urlsplit(url)
        self.path = parts.path or "/"
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port or 80,
                                               timeout=ORACLE_TIMEOUT)
        self.headers = {"Authorization": "Bearer " + token,
                        "Content-Type": "application/json"}
        self.lock = threading.Lock()      # find may test from several threads

    def test(self, pool):
        """True if any item of `pool` is defective. Raises OracleError when
        the oracle refuses the test, TypeError when pool is not JSON."""
        body = json.dumps({"pool": pool}, separators=(",", ":")).encode()
        with self.lock:
            self.conn.request("POST", self.path, body, self.headers)
            response = self.conn.getresponse()
            data = response.read()
        if response.status == 200:
            return json.loads(data)["positive"]
        try:
            message = json.loads(data)["error"]
        except (ValueError, KeyError, TypeError):
            message = data[:200]
        raise OracleError("oracle answered %d: %s" % (response.status, message))

    def close(self):
        self.conn.close()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def reply(self, code, obj):
        body = json.dumps(obj, separators=(",", ":")).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/health":
            self.reply(200, {"ok": True})
        else:
            self.reply(404, {"error": "no such path: %r" % self.path[:80]})

    def do_POST(self):
        if self.path != "/solve":
            return self.reply(404, {"error": "no such path: %r" % self.path[:80]})
        try:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            token, n, priors = request["token"], request["n"], request["priors"]
            if type(token) is not str or type(n) is not int or type(priors) is not list:
                raise TypeError("token must be a string, n an integer, priors a list")
        except Exception as e:
            return self.reply(400, {"error": "bad request: %s: %s" % (type(e).__name__, e)})
        if self.server.tester is None:
            return self.reply(500, {"error": "src/tester.py failed to import:\n"
                                    + self.server.import_error})
        self.reply(*self.server.solve(token, n, priors))


class Worker(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, *, oracle_url, tester_path):
        super().__init__(address, Handler)
        self.oracle_url = oracle_url
        self.tester, self.import_error = load_tester(tester_path)

    def solve(self, token, n, priors):
        """Run find on one instance: (status, reply object)."""
        oracle = Oracle(self.oracle_url, token)
        try:
            answer = self.tester.find(n, priors, oracle.test)
        except BaseException:
            text = tail(traceback.format_exc())
            sys.stderr.write(text)
            return 500, {"error": "find raised:\n" + text}
        finally:
            oracle.close()
        try:
            json.dumps(answer, allow_nan=False)
        except (TypeError, ValueError) as e:
            return 422, {"error": "find returned %s, which is not JSON: %s"
                         % (type(answer).__name__, e)}
        return 200, {"answer": answer}


def main(argv=None):
    url = os.environ.get("AR_ORACLE_URL", "http://127.0.0.1:8081/")
    host = os.environ.get("AR_WORKER_HOST", "0.0.0.0")
    port = int(os.environ.get("AR_WORKER_PORT", "8080"))
    tester = os.environ.get("AR_TESTER", DEFAULT_TESTER)
    server = Worker((host, port), oracle_url=url, tester_path=tester)
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
