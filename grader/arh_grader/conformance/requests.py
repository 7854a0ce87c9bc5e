"""The worker's rules for requests it must refuse, for a problem's
conformance check (group testing's: group_testing/conformance.py): each
cause of a 4xx in the contract's table of the worker's replies, its
limits, and what every refusal carries. It knows no problem: a subclass hands in the
problem's part.

    class Checker(RequestRules): ...      # with self.url, the worker's URL
    ok, seen = checker.length_411()       # (passed?, what was seen)

A subclass gives `url` and `errors` (a list, where every 4xx reply seen is
kept for `error_json`), and the problem's part:
- status(cause): the status its contract's worker table gives `cause`;
- solve_body(token, **extra): a compact /solve body, as its grader writes
  it, with `extra` keys;
- idle_body(): a /solve body whose fields are refused, so no tester runs;
- BODY_MAX: the bytes of a /solve body at most;
- NUMBER: a `"key":number` of solve_body's, where NaN and Infinity go;
- field_cases(): {label: body} of bodies with a bad value of a known key;
- error_cases(): [(label, body, value)], bodies whose error must name value;
- solve_known(body): (the reply, the session) of a /solve of the known
  instance, `@TOKEN@` in `body` its token (service.ServiceRules gives it).

A rule returns (True, what it saw) or (False, the first case that broke it);
it raises OSError when the worker cannot be reached at all.
"""

import json
import time

from .. import workers
from .http import BODY_TIMEOUT, HEADER_LINE_MAX, LINE_MAX, TOKEN_MAX, WORKER_HEADER_LINES

REPLY_WAIT = 10.0       # seconds to wait for the reply to a bad request
DRIP = 0.2              # seconds between the two halves of a body in `stalled_408`
STALL_WAIT = BODY_TIMEOUT + 8.0   # seconds to wait for the 408 of a stalled body
DEADLINE = 30.0         # seconds, the `deadline` of a /solve in `deadline_key`
UNKNOWN = {"hint": [1, {"x": None}], "z-later": "a key of a later contract"}   # `unknown_keys`


def post(body, *, path=b"/solve", length=None, headers=()):
    """The bytes of a POST; `length` None: the body's, False: none."""
    lines = [b"POST %s HTTP/1.1" % path, b"Host: conformance"]
    if length is not False:
        lines.append(b"Content-Length: " + (b"%d" % len(body) if length is None else length))
    return b"\r\n".join(lines + list(headers)) + b"\r\n\r\n" + body


def get(path, headers=()):
    """The bytes of a GET, with `headers` (lines, without CRLF)."""
    return b"\r\n".join([b"GET %s HTTP/1.1" % path, b"Host: conformance", *headers]) + b"\r\n\r\n"


def described(reply):
    """A reply in a few words, for the report."""
    if reply.status is None:
        return reply.error
    body = reply.body[:120].decode("utf-8", "replace")
    body = body.replace("\r", "\\r").replace("\n", "\\n")     # one line a rule
    return "%d %s" % (reply.status, body + ("..." if len(reply.body) > 120 else ""))


def json_of(reply):
    """The reply's body as JSON, or None when it is not JSON."""
    try:
        return json.loads(reply.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def is_json(reply):
    """Whether the reply says its body is JSON."""
    return reply.headers.get("content-type", "").split(";")[0].strip() == "application/json"


class RequestRules:
    """The rules about refused requests; a subclass sets `url` and `errors`
    and gives the problem's part (the module's docstring)."""

    def send(self, data, **options):
        options.setdefault("timeout", REPLY_WAIT)
        reply = workers.exchange(self.url, data, **options)
        if reply.status is not None and 400 <= reply.status < 500:
            self.errors.append(reply)
        return reply

    def statuses(self, cases, status):
        """(ok, seen): each request of `cases` ({label: bytes}) gets `status`."""
        for label, data in cases.items():
            reply = self.send(data)
            if reply.status != status:
                return False, "%s: want %d, got %s" % (label, status, described(reply))
        return True, "%d for each of: %s" % (status, ", ".join(cases))

    def not_status(self, cases, status):
        """(ok, seen): no request of `cases` gets `status` (nor fails)."""
        for label, data in cases.items():
            reply = self.send(data)
            if reply.status is None or reply.status == status:
                return False, "%s: want anything but %d, got %s" % (label, status,
                                                                    described(reply))
        return True, "not %d for: %s" % (status, ", ".join(cases))

    def deadline_key(self):
        reply, _ = self.solve_known(self.solve_body("@TOKEN@", deadline=DEADLINE))
        return reply.status == 200, "with \"deadline\": %g: %s" % (DEADLINE, described(reply))

    def unknown_keys(self):
        reply, _ = self.solve_known(self.solve_body("@TOKEN@", **UNKNOWN))
        return reply.status == 200, "with %s: %s" % (json.dumps(UNKNOWN)[1:-1],
                                                     described(reply))

    def request_line_400(self):
        return self.statuses({"garbage": b"GARBAGE\r\n\r\n", "two words": b"GET /health\r\n\r\n",
                              "HTTP/2.0": b"GET /health HTTP/2.0\r\n\r\n",
                              "an empty line": b"\r\n\r\n"}, self.status("request_line"))

    def path_404(self):
        return self.statuses({"GET /nowhere": get(b"/nowhere"), "GET /solve": get(b"/solve"),
                              "POST /health": post(b"{}", path=b"/health"),
                              "POST /nowhere": post(b"{}", path=b"/nowhere")}, self.status("no_path"))

    def method_405(self):
        return self.statuses({m.decode(): post(b"{}").replace(b"POST", m, 1)
                              for m in (b"PUT", b"DELETE", b"PATCH", b"OPTIONS")}, self.status("method"))

    def length_411(self):
        body = self.solve_body("x")
        cases = {"none": post(body, length=False)}
        cases.update(("%r" % v.decode(), post(body, length=v)) for v in (b"abc", b"+12", b"-1",
                                                                        b"1.5", b" "))
        cases["twice"] = post(body, headers=[b"Content-Length: %d" % len(body)])
        cases["Transfer-Encoding"] = post(b"5\r\nhello\r\n0\r\n\r\n", length=False,
                                          headers=[b"Transfer-Encoding: chunked"])
        return self.statuses(cases, self.status("length"))

    def size_413(self):
        ok, seen = self.statuses({"Content-Length %d" % (self.BODY_MAX + 1):
                                  post(b"", length=b"%d" % (self.BODY_MAX + 1))},
                                 self.status("too_large"))
        if not ok:
            return ok, seen
        body = self.idle_body()
        body += b" " * (self.BODY_MAX - len(body))
        more_ok, more = self.not_status({"a body of %d bytes" % len(body): post(body)},
                                        self.status("too_large"))
        return more_ok, "%s; %s" % (seen, more)

    def stalled_408(self):
        data = post(self.idle_body())
        started = time.monotonic()
        reply = self.send(data[:-10], timeout=STALL_WAIT)
        seen = "a body 10 bytes short: %s after %.1f s" % (described(reply),
                                                           time.monotonic() - started)
        if reply.status != self.status("stalled"):
            return False, seen
        reply = self.send(data[:-10], pieces=[data[-10:]], pause=DRIP)
        seen += "; a body in two parts %g s apart: %s" % (DRIP, described(reply))
        return reply.status not in (None, self.status("stalled")), seen

    def truncated_400(self):
        data = post(self.idle_body())
        reply = self.send(data[:-10], half_close=True)
        return reply.status == self.status("truncated"), "a body 10 bytes short, then the client's end closed: %s" % (
            described(reply))

    def json_400(self):
        good = self.solve_body("x")
        key = self.NUMBER.split(b":")[0] + b":"
        return self.statuses({
            "not JSON": post(b"nope"), "NaN": post(good.replace(self.NUMBER, key + b"NaN")),
            "Infinity": post(good.replace(self.NUMBER, key + b"Infinity")),
            "UTF-16 with a BOM": post(good.decode().encode("utf-16")),
            "UTF-8 with a BOM": post(b"\xef\xbb\xbf" + good),
            "not UTF-8": post(good.replace(b'"x"', b'"\xff"')),
            "two values": post(good + b"{}"), "cut short": post(good[:-1])}, self.status("not_json"))

    def fields_400(self):
        return self.statuses({label: post(body) for label, body in self.field_cases().items()},
                             self.status("fields"))

    def token_400(self):
        ok, seen = self.statuses({label: post(self.solve_body(token)) for label, token in {
            "empty": "", "257 characters": "x" * (TOKEN_MAX + 1), "a space": "a b",
            "non-ASCII": "caf\u00e9", "a number": 3, "null": None}.items()}, self.status("token"))
        if not ok:
            return ok, seen
        token = "".join(chr(33 + i % 94) for i in range(TOKEN_MAX))
        more_ok, more = self.not_status({"256 visible characters":
                                         post(self.solve_body(token))},
                                        self.status("token"))
        return more_ok, "%s; %s" % (seen, more)

    def line_414(self):
        long_path = b"/" + b"a" * LINE_MAX
        ok, seen = self.statuses({"a request line over 65,536 bytes": get(long_path)},
                                 self.status("line_too_long"))
        if not ok:
            return ok, seen
        more_ok, more = self.not_status({"one of 60,000 bytes": get(long_path[:60_000])},
                                        self.status("line_too_long"))
        return more_ok, "%s; %s" % (seen, more)

    def headers_431(self):
        many = [b"X-%d: 1" % i for i in range(WORKER_HEADER_LINES - 1)]  # and Host
        ok, seen = self.statuses({"%d header lines" % (WORKER_HEADER_LINES + 1):
                                  get(b"/health", many + [b"Y: 1"]),
                                  "a header line over 65,536 bytes":
                                  get(b"/health", [b"X: " + b"a" * HEADER_LINE_MAX])},
                                 self.status("head_too_large"))
        if not ok:
            return ok, seen
        more_ok, more = self.not_status({"%d header lines" % WORKER_HEADER_LINES:
                                         get(b"/health", many)},
                                        self.status("head_too_large"))
        return more_ok, "%s; %s" % (seen, more)

    def errors_close(self):
        cases = {"not JSON": post(b"nope"), "GET /nowhere": get(b"/nowhere"),
                 "PUT": post(b"{}").replace(b"POST", b"PUT", 1),
                 "no Content-Length": post(b"{}", length=False),
                 "too large": post(b"", length=b"%d" % (self.BODY_MAX + 1))}
        for label, data in cases.items():
            reply = self.send(data, see_close=True)
            said = reply.headers.get("connection", "").lower() == "close"
            if not (reply.status and 400 <= reply.status < 500 and said and reply.closed):
                return False, "%s: %s, Connection: %r, closed: %s" % (
                    label, described(reply), reply.headers.get("connection"), reply.closed)
        return True, "Connection: close, then closed, for: %s" % ", ".join(cases)

    def error_json(self):
        for label, data, value in (
                [(label, post(body), value) for label, body, value in self.error_cases()]
                + [("Content-Length abc", post(b"{}", length=b"abc"), "abc")]):
            reply = self.send(data)
            error = json_of(reply).get("error") if type(json_of(reply)) is dict else None
            if type(error) is not str or value not in error:
                return False, "%s: the error must name %r, got %s" % (label, value,
                                                                      described(reply))
        for reply in self.errors:
            error = json_of(reply).get("error") if type(json_of(reply)) is dict else None
            if not is_json(reply) or type(error) is not str or not error:
                return False, "a 4xx without a JSON {\"error\": text}: %s" % described(reply)
        return True, "%d replies 4xx, each {\"error\": text}, naming the bad value" % len(
            self.errors)

