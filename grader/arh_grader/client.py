"""The grader's client for the worker (CONTRACT.md): wait for it to be
healthy, then ask it to solve one instance at a time.

    worker = WorkerClient("http://worker:8080")
    worker.wait_healthy(timeout=30)
    answer = worker.solve({"token": t, "n": n, "priors": p}, timeout=10)

Every way the worker can fail becomes a Failure with the submission's kind:
no answer in time is `timeout`; a dead or broken worker, or a tester that
raised, is `no_answer`; an answer that is not JSON is `schema`.
"""

import http.client
import json
import socket
import time
import urllib.parse

from .result import Failure

MAX_RESPONSE = 1 << 20   # bytes of a worker's answer read at most
POLL = 0.05              # seconds between health checks


class WorkerClient:
    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError("worker URL must be http://HOST:PORT, got %r" % (url,))
        self.url = url
        self.host, self.port = parts.hostname, parts.port or 80

    def _request(self, method, path, body, timeout):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            length = response.getheader("Content-Length")
            if length is not None and int(length) > MAX_RESPONSE:
                raise Failure("schema", "the worker's answer is %s bytes; at most %d"
                              % (length, MAX_RESPONSE))
            data = response.read(MAX_RESPONSE + 1)
            if len(data) > MAX_RESPONSE:
                raise Failure("schema", "the worker's answer is over %d bytes" % MAX_RESPONSE)
            return response.status, data
        finally:
            conn.close()

    def wait_healthy(self, *, timeout):
        """Return once GET /health answers 200; Failure `no_answer` if it
        has not within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        last = "no reply"
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("no_answer", "the worker at %s was not healthy within %.0f s "
                              "(last: %s); does src/tester.py import?"
                              % (self.url, timeout, last))
            try:
                status, _ = self._request("GET", "/health", None, min(left, 2.0))
                if status == 200:
                    return
                last = "status %d" % status
            except (OSError, http.client.HTTPException) as e:
                last = "%s: %s" % (type(e).__name__, e)
            time.sleep(min(POLL, max(left, 0)))

    def solve(self, payload, *, timeout):
        """POST `payload` to /solve and return the answer's "answer" value."""
        body = json.dumps(payload, separators=(",", ":")).encode("utf-8")
        try:
            status, data = self._request("POST", "/solve", body, timeout)
        except socket.timeout:
            raise Failure("timeout", "no answer within %.1f s" % timeout) from None
        except (OSError, http.client.HTTPException) as e:
            raise Failure("no_answer", "the worker dropped the connection without "
                          "answering (did its process die?): %s: %s"
                          % (type(e).__name__, e)) from None
        try:
            reply = json.loads(data.decode("utf-8"), parse_constant=_reject)
        except (UnicodeDecodeError, ValueError):
            raise Failure("schema" if status == 200 else "no_answer",
                          "the worker's reply (status %d) is not JSON: %r"
                          % (status, data[:80])) from None
        if type(reply) is not dict:
            raise Failure("schema", "the worker's reply must be an object, got %r"
                          % (data[:80],))
        if status == 200 and "answer" in reply:
            return reply["answer"]
        error = str(reply.get("error", "no message"))
        if status == 422:
            raise Failure("schema", error)
        raise Failure("no_answer", "the worker answered %d: %s" % (status, error))


def _reject(name):
    raise ValueError("%s is not JSON" % name)
