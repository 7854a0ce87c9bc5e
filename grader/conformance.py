"""Check a worker of any language against the worker's side of CONTRACT.md.

    python3 grader/conformance.py --worker-command "python3 harness/worker.py"
    python3 grader/conformance.py --worker http://127.0.0.1:8080 --oracle-port 8081

It serves its own oracle with a small known instance and prints one line a
rule, `RULE: pass — what was seen` (or `fail`, or `skip` with the rule that
kept it from being checked), then `rules: N`, `passed: N`, `failed: N` and
`skipped: N`. Exit status: 0 when no rule failed, 1 when one did, 2 when
the check could not run (a bad option, a worker that never listens).

--worker-command starts the worker (split as a shell would, run without
one) on a free loopback port, with AR_ORACLE_URL, AR_WORKER_HOST and
AR_WORKER_PORT set, and kills it and all it started at the end, whatever
happens; its output goes to a log whose end is printed when a rule fails.
--worker checks a worker already running, which must send its tests to
this command's oracle (--oracle-host, --oracle-port: 127.0.0.1:8081 by
default, the worker's own default AR_ORACLE_URL); the rule `port_zero`,
which starts the command a second time, is skipped then.

The worker must run its shipped tester, binary splitting exactly as
PROGRAM.md defines it: `one_test_a_request` compares the oracle's record
with binary splitting's tests, pool for pool.
"""

import argparse
import json
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibration  # noqa: E402
import problem  # noqa: E402
import rules  # noqa: E402
import workers  # noqa: E402
from arh_grader import Oracle  # noqa: E402

START_TIMEOUT = 30.0    # seconds a worker has to listen (autoresearch.toml's start deadline)
REPLY_WAIT = 10.0       # seconds to wait for the reply to a bad request
SOLVE_WAIT = 30.0       # seconds to wait for the reply to a /solve
SLOW_ANSWER = 1.5       # seconds the oracle takes over one answer in `slow_test`
DRIP = 0.2              # seconds between the two halves of a body in `stalled_408`
STALL_WAIT = rules.BODY_TIMEOUT + 8.0   # seconds to wait for the 408 of a stalled body
WATCH = 1.0             # seconds the worker is watched after an abandoned /solve
LOG_LINES = 20          # lines of the worker's log shown after a failure
N = 64                  # the known instance: its items, defectives and priors
DEFECTIVES = (5, 17, 40)
PRIORS = [round(0.004 + 0.3 * ((i * 37) % N) / N, 6) for i in range(N)]
PRIORS[9] = 1.5e-05     # written with an exponent in JSON


class Hold:
    """Makes the first answer of a session wait: `delay` seconds, or until
    `release` is set. `entered` is set when that answer is reached."""

    def __init__(self, delay=None):
        self.delay, self.entered, self.release = delay, threading.Event(), threading.Event()

    def wait(self):
        if self.entered.is_set():
            return
        self.entered.set()
        if self.delay is not None:
            time.sleep(self.delay)
        else:
            self.release.wait(SOLVE_WAIT)


def _answer(secret, query):
    """problem.answer_query, after the session's Hold (the secret's third part)."""
    if secret[2] is not None:
        secret[2].wait()
    return problem.answer_query(secret, query)


def expected_pools():
    """The pools binary splitting tests on the known instance, in order."""
    pools, truth = [], set(DEFECTIVES)

    def test(pool):
        pools.append(list(pool))
        return not truth.isdisjoint(pool)

    calibration.split(range(N), test)
    return pools


def solve_body(token, *, n=N, priors=None, **extra):
    """A compact /solve body, as the grader writes it."""
    request = {"token": token, "n": n, "priors": PRIORS if priors is None else priors}
    request.update(extra)
    return json.dumps(request, separators=(",", ":")).encode()


def post(body, *, path=b"/solve", length=None, headers=()):
    """The bytes of a POST; `length` None: the body's, False: none."""
    lines = [b"POST %s HTTP/1.1" % path, b"Host: conformance"]
    if length is not False:
        lines.append(b"Content-Length: " + (b"%d" % len(body) if length is None else length))
    return b"\r\n".join(lines + list(headers)) + b"\r\n\r\n" + body


def get(path, headers=()):
    return b"\r\n".join([b"GET %s HTTP/1.1" % path, b"Host: conformance", *headers]) + b"\r\n\r\n"


def described(reply):
    """A reply in a few words, for the report."""
    if reply.status is None:
        return reply.error
    body = reply.body[:120].decode("utf-8", "replace")
    return "%d %s" % (reply.status, body + ("..." if len(reply.body) > 120 else ""))


class Checker:
    """The rules, checked one after another against one worker."""

    def __init__(self, url, oracle, *, command=None):
        self.url, self.oracle, self.command = url, oracle, command
        self.errors = []            # 4xx replies seen, for error_json
        self._known = None

    # ---- helpers ----

    def send(self, data, **options):
        options.setdefault("timeout", REPLY_WAIT)
        reply = workers.exchange(self.url, data, **options)
        if reply.status is not None and 400 <= reply.status < 500:
            self.errors.append(reply)
        return reply

    def solve(self, body=None, hold=None):
        """Solve the known instance in a session of its own: (reply, session)."""
        token = self.oracle.open((N, frozenset(DEFECTIVES), hold), cap=problem.cap(N),
                                 max_body=problem.max_body(N))
        try:
            body = solve_body(token) if body is None else body.replace(b"@TOKEN@",
                                                                       token.encode())
            reply = workers.exchange(self.url, post(body), timeout=SOLVE_WAIT)
        finally:
            session = self.oracle.close(token)
        return reply, session

    def known(self):
        if self._known is None:
            self._known = self.solve()
        return self._known

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

    # ---- the rules, in the order they are checked ----

    def health(self):
        reply = self.send(get(b"/health"))
        ok = reply.status == 200 and _json(reply) == {"ok": True} and _is_json(reply)
        return ok, described(reply)

    def port_zero(self):
        if self.command is None:
            return None, "only with --worker-command"
        proc, _ = workers.start(self.command, oracle_url=self.oracle.url, port=0,
                                log=subprocess.DEVNULL, stderr=subprocess.PIPE)
        lines = queue.Queue()
        drain = threading.Thread(target=_lines, args=(proc.stderr, lines), daemon=True)
        drain.start()
        try:
            line = _first(lines, rules.LISTENING, START_TIMEOUT)
            if line is None:
                return False, "no line %r on stderr within %g s" % (rules.LISTENING, START_TIMEOUT)
            url = line[len(rules.LISTENING):].strip()
            try:
                reply = workers.exchange(url, get(b"/health"), timeout=REPLY_WAIT)
            except (OSError, ValueError) as e:
                return False, "%r, but %s: %s" % (line, type(e).__name__, e)
            return reply.status == 200, "%r; GET /health there: %s" % (line, described(reply))
        finally:
            workers.stop(proc)
            drain.join(workers.KILL_WAIT)
            proc.stderr.close()

    def oracle_token(self):
        reply, session = self.known()
        seen = "the oracle counted %d tests under the token; /solve: %s" % (
            session.tests, described(reply))
        return session.tests > 0, seen

    def solve_reply(self):
        reply, _ = self.known()
        ok = reply.status == 200 and _is_json(reply) and \
            type(_json(reply)) is dict and _json(reply).get("answer") == list(DEFECTIVES)
        return ok, "%s (defectives %s)" % (described(reply), list(DEFECTIVES))

    def one_test_a_request(self):
        _, session = self.known()
        sent = [json.loads(line)["q"] for line in session.transcript]
        want = [{"pool": pool} for pool in expected_pools()]
        if sent == want:
            return True, "%d requests, one test each, the pools of binary splitting" % len(sent)
        at = next((i for i, (a, b) in enumerate(zip(sent, want)) if a != b), min(len(sent),
                                                                                 len(want)))
        return False, "%d requests where binary splitting makes %d; request %d was %s, not %s" % (
            len(sent), len(want), at + 1, _short(sent[at] if at < len(sent) else None),
            _short(want[at] if at < len(want) else None))

    def solve_request_forms(self):
        forms = {
            "keys reversed, with spaces and newlines": (b'{\n "priors": %s,\n "n": %d,\n '
                                                        b'"token": "@TOKEN@"\n}'
                                                        % (json.dumps(PRIORS).encode(), N)),
            "priors with exponents": b'{"token":"@TOKEN@","n":%d,"priors":[%s]}' % (
                N, b",".join(b"%.4e" % p for p in PRIORS)),
        }
        for label, body in forms.items():
            reply, _ = self.solve(body)
            if reply.status != 200:
                return False, "%s: %s" % (label, described(reply))
        return True, "200 for: %s" % ", ".join(forms)

    def oracle_refusal(self):
        reply = workers.exchange(self.url, post(solve_body("no-such-session-0123456789")),
                                 timeout=SOLVE_WAIT)
        error = _json(reply).get("error") if type(_json(reply)) is dict else None
        ok = reply.status == 500 and _is_json(reply) and type(error) is str and "403" in error
        return ok, "a token the oracle refuses (403): %s" % described(reply)

    def slow_test(self):
        reply, _ = self.solve(hold=Hold(delay=SLOW_ANSWER))
        return reply.status == 200, "a first answer %g s late: %s" % (SLOW_ANSWER,
                                                                       described(reply))

    def request_line_400(self):
        return self.statuses({"garbage": b"GARBAGE\r\n\r\n", "two words": b"GET /health\r\n\r\n",
                              "HTTP/2.0": b"GET /health HTTP/2.0\r\n\r\n",
                              "an empty line": b"\r\n\r\n"}, 400)

    def path_404(self):
        return self.statuses({"GET /nowhere": get(b"/nowhere"), "GET /solve": get(b"/solve"),
                              "POST /health": post(b"{}", path=b"/health"),
                              "POST /nowhere": post(b"{}", path=b"/nowhere")}, 404)

    def method_405(self):
        return self.statuses({m.decode(): post(b"{}").replace(b"POST", m, 1)
                              for m in (b"PUT", b"DELETE", b"PATCH", b"OPTIONS")}, 405)

    def length_411(self):
        body = solve_body("x")
        cases = {"none": post(body, length=False)}
        cases.update(("%r" % v.decode(), post(body, length=v)) for v in (b"abc", b"+12", b"-1",
                                                                        b"1.5", b" "))
        cases["twice"] = post(body, headers=[b"Content-Length: %d" % len(body)])
        cases["Transfer-Encoding"] = post(b"5\r\nhello\r\n0\r\n\r\n", length=False,
                                          headers=[b"Transfer-Encoding: chunked"])
        return self.statuses(cases, 411)

    def size_413(self):
        ok, seen = self.statuses({"Content-Length %d" % (rules.SOLVE_BODY_MAX + 1):
                                  post(b"", length=b"%d" % (rules.SOLVE_BODY_MAX + 1))}, 413)
        if not ok:
            return ok, seen
        body = solve_body("x", n=0, priors=[])
        body += b" " * (rules.SOLVE_BODY_MAX - len(body))
        more_ok, more = self.not_status({"a body of %d bytes" % len(body): post(body)}, 413)
        return more_ok, "%s; %s" % (seen, more)

    def stalled_408(self):
        data = post(solve_body("x", n=0, priors=[]))
        started = time.monotonic()
        reply = self.send(data[:-10], timeout=STALL_WAIT)
        seen = "a body 10 bytes short: %s after %.1f s" % (described(reply),
                                                           time.monotonic() - started)
        if reply.status != 408:
            return False, seen
        reply = self.send(data[:-10], pieces=[data[-10:]], pause=DRIP)
        seen += "; a body in two parts %g s apart: %s" % (DRIP, described(reply))
        return reply.status not in (None, 408), seen

    def truncated_400(self):
        data = post(solve_body("x", n=0, priors=[]))
        reply = self.send(data[:-10], half_close=True)
        return reply.status == 400, "a body 10 bytes short, then the client's end closed: %s" % (
            described(reply))

    def json_400(self):
        good = solve_body("x")
        return self.statuses({
            "not JSON": post(b"nope"), "NaN": post(good.replace(b'"n":64', b'"n":NaN')),
            "Infinity": post(good.replace(b'"n":64', b'"n":Infinity')),
            "UTF-16 with a BOM": post(good.decode().encode("utf-16")),
            "UTF-8 with a BOM": post(b"\xef\xbb\xbf" + good),
            "not UTF-8": post(good.replace(b'"x"', b'"\xff"')),
            "two values": post(good + b"{}"), "cut short": post(good[:-1])}, 400)

    def fields_400(self):
        return self.statuses({label: post(body) for label, body in {
            "another key": solve_body("x", extra=1), "no token": b'{"n":1,"priors":[0.5]}',
            "an array": b"[]", "n 0": solve_body("x", n=0, priors=[]),
            "n 513": solve_body("x", n=513, priors=[0.5] * 513),
            "n true": solve_body("x", n=True, priors=[0.5]),
            "n 1.0": solve_body("x", n=1.0, priors=[0.5]),
            "n priors": solve_body("x", n=2, priors=[0.5]),
            "prior 0": solve_body("x", n=1, priors=[0.0]),
            "prior 1": solve_body("x", n=1, priors=[1]),
            "prior true": solve_body("x", n=1, priors=[True]),
            "prior text": solve_body("x", n=1, priors=["0.5"])}.items()}, 400)

    def token_400(self):
        ok, seen = self.statuses({label: post(solve_body(token)) for label, token in {
            "empty": "", "257 characters": "x" * (rules.TOKEN_MAX + 1), "a space": "a b",
            "non-ASCII": "caf\u00e9", "a number": 3, "null": None}.items()}, 400)
        if not ok:
            return ok, seen
        token = "".join(chr(33 + i % 94) for i in range(rules.TOKEN_MAX))
        more_ok, more = self.not_status({"256 visible characters": post(solve_body(token))}, 400)
        return more_ok, "%s; %s" % (seen, more)

    def line_414(self):
        long_path = b"/" + b"a" * rules.LINE_MAX
        ok, seen = self.statuses({"a request line over 65,536 bytes": get(long_path)}, 414)
        if not ok:
            return ok, seen
        more_ok, more = self.not_status({"one of 60,000 bytes": get(long_path[:60_000])}, 414)
        return more_ok, "%s; %s" % (seen, more)

    def headers_431(self):
        many = [b"X-%d: 1" % i for i in range(rules.WORKER_HEADER_LINES - 1)]  # and Host
        ok, seen = self.statuses({"%d header lines" % (rules.WORKER_HEADER_LINES + 1):
                                  get(b"/health", many + [b"Y: 1"]),
                                  "a header line over 65,536 bytes":
                                  get(b"/health", [b"X: " + b"a" * rules.HEADER_LINE_MAX])},
                                 431)
        if not ok:
            return ok, seen
        more_ok, more = self.not_status({"%d header lines" % rules.WORKER_HEADER_LINES:
                                         get(b"/health", many)}, 431)
        return more_ok, "%s; %s" % (seen, more)

    def errors_close(self):
        cases = {"not JSON": post(b"nope"), "GET /nowhere": get(b"/nowhere"),
                 "PUT": post(b"{}").replace(b"POST", b"PUT", 1),
                 "no Content-Length": post(b"{}", length=False),
                 "too large": post(b"", length=b"%d" % (rules.SOLVE_BODY_MAX + 1))}
        for label, data in cases.items():
            reply = self.send(data, see_close=True)
            said = reply.headers.get("connection", "").lower() == "close"
            if not (reply.status and 400 <= reply.status < 500 and said and reply.closed):
                return False, "%s: %s, Connection: %r, closed: %s" % (
                    label, described(reply), reply.headers.get("connection"), reply.closed)
        return True, "Connection: close, then closed, for: %s" % ", ".join(cases)

    def error_json(self):
        for label, data, value in (
                ("n 513", post(solve_body("x", n=513, priors=[0.5])), "513"),
                ("prior 1.5", post(solve_body("x", n=1, priors=[1.5])), "1.5"),
                ("Content-Length abc", post(b"{}", length=b"abc"), "abc")):
            reply = self.send(data)
            error = _json(reply).get("error") if type(_json(reply)) is dict else None
            if type(error) is not str or value not in error:
                return False, "%s: the error must name %r, got %s" % (label, value,
                                                                      described(reply))
        for reply in self.errors:
            error = _json(reply).get("error") if type(_json(reply)) is dict else None
            if not _is_json(reply) or type(error) is not str or not error:
                return False, "a 4xx without a JSON {\"error\": text}: %s" % described(reply)
        return True, "%d replies 4xx, each {\"error\": text}, naming the bad value" % len(
            self.errors)

    def keeps_serving(self):
        health = self.send(get(b"/health"))
        reply, _ = self.solve()
        seen = "after %d bad requests: GET /health %s; /solve %s" % (
            len(self.errors), described(health), described(reply))
        return health.status == 200 and reply.status == 200, seen

    def abandoned_solve(self):
        hold = Hold()
        token = self.oracle.open((N, frozenset(DEFECTIVES), hold), cap=problem.cap(N),
                                 max_body=problem.max_body(N))
        sock = socket.create_connection(workers.address(self.url), timeout=SOLVE_WAIT)
        try:
            sock.sendall(post(solve_body(token)))
            reached = hold.entered.wait(SOLVE_WAIT)
        finally:
            sock.close()                # the grader's deadline: it stops waiting
            closer = threading.Thread(target=self.oracle.close, args=(token,))
            closer.start()
            hold.release.set()
            closer.join()
        if not reached:
            return False, "no test reached the oracle within %g s" % SOLVE_WAIT
        until = time.monotonic() + WATCH
        while time.monotonic() < until:
            health = self.send(get(b"/health"))
            if health.status != 200:
                return False, "after a /solve left at its deadline: GET /health %s" % (
                    described(health))
            time.sleep(workers.POLL)
        reply, _ = self.solve()
        return reply.status == 200, "after a /solve left at its deadline: /solve %s" % (
            described(reply))

    RULES = (   # (name, method, the rules it needs)
        ("health", health, ()), ("port_zero", port_zero, ()),
        ("oracle_token", oracle_token, ()), ("solve", solve_reply, ("oracle_token",)),
        ("one_test_a_request", one_test_a_request, ("oracle_token",)),
        ("solve_request_forms", solve_request_forms, ("oracle_token",)),
        ("oracle_refusal", oracle_refusal, ()), ("slow_test", slow_test, ("oracle_token",)),
        ("request_line_400", request_line_400, ()), ("path_404", path_404, ()),
        ("method_405", method_405, ()), ("length_411", length_411, ()),
        ("size_413", size_413, ()), ("stalled_408", stalled_408, ()),
        ("truncated_400", truncated_400, ()), ("json_400", json_400, ()),
        ("fields_400", fields_400, ()), ("token_400", token_400, ()),
        ("line_414", line_414, ()), ("headers_431", headers_431, ()),
        ("errors_close", errors_close, ()), ("error_json", error_json, ()),
        ("keeps_serving", keeps_serving, ("oracle_token",)),
        ("abandoned_solve", abandoned_solve, ("oracle_token",)),
    )

    def run(self):
        """Check every rule: [(name, "pass" | "fail" | "skip", what was seen)]."""
        results, outcome = [], {}
        for name, method, needs in self.RULES:
            failed = [need for need in needs if outcome.get(need) != "pass"]
            if failed:
                result = ("skip", "needs %s, which did not pass" % ", ".join(failed))
            else:
                try:
                    ok, seen = method(self)
                except (OSError, ValueError) as e:
                    ok, seen = False, "%s: %s" % (type(e).__name__, e)
                result = ("skip" if ok is None else "pass" if ok else "fail", seen)
            outcome[name] = result[0]
            results.append((name,) + result)
        return results


RULE_NAMES = tuple(name for name, _, _ in Checker.RULES)


def _json(reply):
    try:
        return json.loads(reply.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def _is_json(reply):
    return reply.headers.get("content-type", "").split(";")[0].strip() == "application/json"


def _short(value):
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _lines(stream, into):
    """Put each line of `stream` into the queue `into`, then None at its end."""
    for raw in iter(stream.readline, b""):
        into.put(raw.decode("utf-8", "replace").rstrip("\n"))
    into.put(None)


def _first(lines, prefix, timeout):
    """The first line from the queue `lines` that starts with `prefix`, or
    None when none comes within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = lines.get(timeout=max(deadline - time.monotonic(), 0))
        except queue.Empty:
            return None
        if line is None or line.startswith(prefix):
            return line


def check(*, url=None, command=None, oracle_host="127.0.0.1", oracle_port=0, out=sys.stdout,
          log=None):
    """Check the worker at `url`, or the one `command` starts; print the
    report to `out` and return the results (Checker.run). WorkerError
    when a started worker never listens; OSError when the oracle's port is
    taken."""
    oracle = Oracle(check=problem.check_query, answer=_answer, host=oracle_host,
                    port=oracle_port, record=True).start()
    proc = None
    try:
        if command is not None:
            proc, url = workers.start(command, oracle_url=oracle.url, log=log)
        workers.wait_listening(proc, url, timeout=START_TIMEOUT)
        results = Checker(url, oracle, command=command).run()
    finally:
        if proc is not None:
            workers.stop(proc)
        oracle.stop()
    for name, outcome, seen in results:
        out.write("%s: %s \u2014 %s\n" % (name, outcome, seen))
    counts = [sum(r[1] == k for r in results) for k in ("pass", "fail", "skip")]
    out.write("rules: %d\npassed: %d\nfailed: %d\nskipped: %d\n" % (len(results), *counts))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--worker", metavar="URL", help="a running worker, http://HOST:PORT")
    which.add_argument("--worker-command", metavar="CMD", help="a command that starts one")
    parser.add_argument("--oracle-host", default="127.0.0.1",
                        help="where the oracle listens (default 127.0.0.1)")
    parser.add_argument("--oracle-port", type=int, metavar="PORT",
                        help="the oracle's port (default: 8081 with --worker, a free one "
                             "with --worker-command)")
    args = parser.parse_args(argv)
    port = args.oracle_port if args.oracle_port is not None else (
        8081 if args.worker else 0)
    if not 0 <= port <= 65535:
        parser.error("--oracle-port must be in 0..65535, got %r" % args.oracle_port)
    try:
        if args.worker:
            workers.address(args.worker)
        else:
            workers.split_command(args.worker_command)
    except ValueError as e:
        parser.error(str(e))
    with tempfile.TemporaryFile() as log:
        try:
            results = check(url=args.worker, command=args.worker_command,
                            oracle_host=args.oracle_host, oracle_port=port, log=log)
        except (workers.WorkerError, OSError) as e:
            sys.stderr.write("conformance: cannot check: %s\n" % e)
            _show_log(log)
            return 2
        if any(outcome == "fail" for _, outcome, _ in results):
            _show_log(log)
            return 1
    return 0


def _show_log(log):
    log.seek(0)
    lines = log.read().decode("utf-8", "replace").splitlines()
    if lines:
        sys.stderr.write("conformance: the worker's output ends:\n%s\n"
                         % "\n".join("    " + line for line in lines[-LOG_LINES:]))


if __name__ == "__main__":
    sys.exit(main())
