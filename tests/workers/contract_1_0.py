"""A worker frozen at contract 1.0, written from CONTRACT.md's text of that
version alone, as a worker of another language would be: it shares no code
with harness/worker.py. It is not one of the broken workers: it conforms.

    python3 grader/conformance.py --worker-command "python3 tests/workers/contract_1_0.py"
    python3 grader/local.py --worker-command "python3 tests/workers/contract_1_0.py"

As 1.0 said, a /solve with a key other than token, n and priors is refused
with 400 (`unknown key "deadline"`), and /health names no version, so the
grader must speak 1.0 to it. It keeps to every MUST and skips HTTP hygiene
the grader never needs: its 4xx are http.server's HTML, keep the connection
open and quote no value; a two-word request line is answered in HTTP/0.9;
GET /solve gets 405; 100 header lines are taken; a stalled body is dropped
unanswered after REQUEST_TIMEOUT. The tester is AR_TESTER's file (default
src/tester.py), called as find(n, priors, test).
"""

import http.client
import http.server
import importlib.util
import json
import os
import sys
import traceback
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE_TIMEOUT = 120.0   # seconds to wait for one oracle reply
REQUEST_TIMEOUT = 5.0    # seconds a request may stall before its connection is dropped
TRACE_CHARS = 2000       # characters of a traceback's end in a 500
KEYS = {"token", "n", "priors"}   # a /solve's keys, all of them, in contract 1.0


def load(path):
    spec = importlib.util.spec_from_file_location("tester", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Oracle:
    """The tests of one instance, over one kept-alive connection."""

    def __init__(self, url, token):
        parts = urllib.parse.urlsplit(url)
        self.path = parts.path or "/"
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port or 80,
                                               timeout=ORACLE_TIMEOUT)
        self.headers = {"Authorization": "Bearer " + token,
                        "Content-Type": "application/json"}

    def test(self, pool):
        body = json.dumps({"pool": pool}, separators=(",", ":")).encode()
        try:
            self.conn.request("POST", self.path, body, self.headers)
            reply = self.conn.getresponse()
            data = reply.read()
        except BaseException:
            self.conn.close()
            raise
        if reply.getheader("Connection", "").lower() == "close":
            self.conn.close()
        if reply.status == 200:
            return json.loads(data)["positive"]
        raise RuntimeError("oracle answered %d: %s" % (reply.status, data[:200]))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = REQUEST_TIMEOUT

    def log_message(self, *args):
        pass

    def answer(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/health":
            self.answer(200, {"ok": True})
        elif self.path == "/solve":
            self.answer(405, {"error": "POST it"})
        else:
            self.answer(404, {"error": "no such path"})

    def do_POST(self):
        if self.path != "/solve":
            return self.answer(404, {"error": "no such path"})
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            return self.answer(411, {"error": "a Content-Length is required"})
        if int(length) > 16640:
            return self.answer(413, {"error": "too large"})
        try:
            request = json.loads(self.rfile.read(int(length)),
                                 parse_constant=lambda name: {}[name])
        except (ValueError, KeyError):
            return self.answer(400, {"error": "not JSON"})
        if type(request) is not dict:
            return self.answer(400, {"error": "not an object"})
        for key in sorted(set(request) - KEYS):
            return self.answer(400, {"error": "unknown key \"%s\"" % key})
        token, n, priors = request.get("token"), request.get("n"), request.get("priors")
        if type(token) is not str or not 1 <= len(token) <= 256 or \
                not all("!" <= c <= "~" for c in token):
            return self.answer(400, {"error": "bad token"})
        if type(n) is not int or not 1 <= n <= 512 or type(priors) is not list or \
                len(priors) != n or not all(type(p) is float and 0 < p < 1 for p in priors):
            return self.answer(400, {"error": "bad n or priors"})
        oracle = Oracle(self.server.oracle_url, token)
        try:
            answer = self.server.tester.find(n, priors, oracle.test)
        except BaseException:
            text = traceback.format_exc()[-TRACE_CHARS:]
            return self.answer(500, {"error": "find raised:\n" + text})
        finally:
            oracle.conn.close()
        try:
            json.dumps(answer, allow_nan=False)
        except (TypeError, ValueError) as e:
            return self.answer(422, {"error": "not JSON: %s" % e})
        self.answer(200, {"answer": answer})


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass        # a client that left (the grader at its deadline)


def main():
    server = Server((os.environ.get("AR_WORKER_HOST", "0.0.0.0"),
                     int(os.environ.get("AR_WORKER_PORT", "8080"))), Handler)
    server.oracle_url = os.environ.get("AR_ORACLE_URL", "http://127.0.0.1:8081/")
    server.tester = load(os.environ.get("AR_TESTER", os.path.join(ROOT, "src", "tester.py")))
    sys.stderr.write("worker: listening on http://%s:%d\n" % server.server_address[:2])
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
