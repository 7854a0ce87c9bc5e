"""Check a worker of any language against the worker's side of CONTRACT.md.

    python3 grader/conformance.py --worker-command "python3 harness/worker.py"
    python3 grader/conformance.py --worker http://127.0.0.1:8080 --oracle-port 8081

It serves its own oracle with a small known instance and prints one line a
rule, `RULE: pass [MUST 1.0] — what was seen` (or `fail`, or `skip` with the
rule that kept it from being checked, or the later version that brought
it), then `rules: N`, `passed: N`, `failed: N`, `skipped: N`, `contract:
V` (the version checked: the worker's, from its /health, at most this
check's), `conforms: yes|no` (yes when no MUST failed) and a `warning:`
line for each SHOULD that failed. Exit status: 0 when it conforms, 1 when
a MUST failed, 2 when the check could not run (a bad option, a worker that
never listens).

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
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time

from arh_grader import Oracle, Spec, workers
from arh_grader.conformance.requests import REPLY_WAIT, described, get, is_json, json_of, post
from group_testing import calibration, problem
from group_testing import contract as rules
from group_testing.conformance import N, PRIORS, Requests, solve_body, status

START_TIMEOUT = 30.0    # seconds a worker has to listen (autoresearch.toml's start deadline)
SOLVE_WAIT = 30.0       # seconds to wait for the reply to a /solve
SLOW_ANSWER = 1.5       # seconds the oracle takes over one answer in `slow_test`
WATCH = 1.0             # seconds the worker is watched after an abandoned /solve
LOG_LINES = 20          # lines of the worker's log shown after a failure
DEFECTIVES = (5, 17, 40)   # of the known instance (N items, PRIORS)


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
    """problem.answer_query, after the session's Hold (the secret's last part)."""
    if secret[-1] is not None:
        secret[-1].wait()
    return problem.answer_query(secret, query)


def known_session(hold):
    """The known instance's session.Spec: group testing's rules, its secret
    with the session's Hold at its end, answered after the Hold (_answer)."""
    return Spec((*problem.secret_of({"n": N, "defectives": DEFECTIVES}), hold),
                cap=problem.cap(N), max_body=problem.max_body(N),
                check=problem.check_query, answer=_answer)


def expected_pools():
    """The pools binary splitting tests on the known instance, in order."""
    pools, truth = [], set(DEFECTIVES)

    def test(pool):
        pools.append(list(pool))
        return not truth.isdisjoint(pool)

    calibration.split(range(N), test)
    return pools


class Checker(Requests):
    """The rules, checked one after another against one worker."""

    def __init__(self, url, oracle, *, command=None):
        self.url, self.oracle, self.command = url, oracle, command
        self.errors = []            # 4xx replies seen, for error_json
        self._known = None
        self.spoken = rules.FIRST   # the worker's version, once `health` has read it

    # ---- helpers ----

    def solve_known(self, body=None, hold=None):
        """Solve the known instance in a session of its own: (reply, session)."""
        token = self.oracle.open(known_session(hold))
        try:
            body = solve_body(token) if body is None else body.replace(b"@TOKEN@",
                                                                       token.encode())
            reply = workers.exchange(self.url, post(body), timeout=SOLVE_WAIT)
        finally:
            session = self.oracle.close(token)
        return reply, session

    def known(self):
        """The known instance solved once, shared by the rules that look at it."""
        if self._known is None:
            self._known = self.solve_known()
        return self._known

    # ---- the rules, in the order they are checked ----

    def checked(self):
        """The version the worker is checked against: its own, at most ours."""
        return min((self.spoken, rules.CONTRACT), key=rules.version)

    def health(self):
        reply = self.send(get(b"/health"))
        body = json_of(reply) if type(json_of(reply)) is dict else {}
        spoken = body.get("contract", rules.FIRST)
        ok = reply.status == status("healthy") and body.get("ok") is True and \
            is_json(reply) and rules.version(spoken) is not None
        if ok:
            self.spoken = spoken
        return ok, "%s (contract %s)" % (described(reply), spoken if ok else "unknown")

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

    def solve(self):
        reply, _ = self.known()
        ok = reply.status == status("answered") and is_json(reply) and \
            type(json_of(reply)) is dict and json_of(reply).get("answer") == list(DEFECTIVES)
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
            reply, _ = self.solve_known(body)
            if reply.status != 200:
                return False, "%s: %s" % (label, described(reply))
        return True, "200 for: %s" % ", ".join(forms)

    def oracle_refusal(self):
        reply = workers.exchange(self.url, post(solve_body("no-such-session-0123456789")),
                                 timeout=SOLVE_WAIT)
        error = json_of(reply).get("error") if type(json_of(reply)) is dict else None
        ok = reply.status == status("tester_raised") and is_json(reply) and \
            type(error) is str and "403" in error
        return ok, "a token the oracle refuses (403): %s" % described(reply)

    def slow_test(self):
        reply, _ = self.solve_known(hold=Hold(delay=SLOW_ANSWER))
        return reply.status == 200, "a first answer %g s late: %s" % (SLOW_ANSWER,
                                                                       described(reply))

    def keeps_serving(self):
        health = self.send(get(b"/health"))
        reply, _ = self.solve_known()
        seen = "after %d bad requests: GET /health %s; /solve %s" % (
            len(self.errors), described(health), described(reply))
        return health.status == 200 and reply.status == 200, seen

    def abandoned_solve(self):
        hold = Hold()
        token = self.oracle.open(known_session(hold))
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
        reply, _ = self.solve_known()
        return reply.status == 200, "after a /solve left at its deadline: /solve %s" % (
            described(reply))

    RULES = (   # (name: the method that checks it, the rules it needs)
        ("health", ()), ("port_zero", ("health",)), ("oracle_token", ()),
        ("solve", ("oracle_token",)), ("one_test_a_request", ("oracle_token",)),
        ("solve_request_forms", ("oracle_token",)),
        ("deadline_key", ("health", "oracle_token")),     # health: the worker's version
        ("unknown_keys", ("health", "oracle_token")), ("oracle_refusal", ()),
        ("slow_test", ("oracle_token",)), ("request_line_400", ()), ("path_404", ()),
        ("method_405", ()), ("length_411", ()), ("size_413", ()), ("stalled_408", ()),
        ("truncated_400", ()), ("json_400", ()), ("fields_400", ()), ("token_400", ()),
        ("line_414", ()), ("headers_431", ()), ("errors_close", ()), ("error_json", ()),
        ("keeps_serving", ("health", "oracle_token")),
        ("abandoned_solve", ("keeps_serving",)),
    )

    def run(self):
        """Check every rule: [(name, "pass" | "fail" | "skip", what was seen)]."""
        results, outcome = [], {}
        for name, needs in self.RULES:
            failed = [need for need in needs if outcome.get(need) != "pass"]
            if failed:
                result = ("skip", "needs %s, which did not pass" % ", ".join(failed))
            elif not rules.applies(rules.check(name), self.checked()):
                result = ("skip", "since %s; the worker speaks contract %s" % (
                    rules.check(name).since, self.spoken))
            else:
                try:
                    ok, seen = getattr(self, name)()
                except (OSError, ValueError) as e:
                    ok, seen = False, "%s: %s" % (type(e).__name__, e)
                result = ("skip" if ok is None else "pass" if ok else "fail", seen)
            outcome[name] = result[0]
            results.append((name,) + result)
        return results


RULE_NAMES = tuple(name for name, _ in Checker.RULES)


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
    oracle = Oracle(host=oracle_host, port=oracle_port, record=True).start()
    proc = None
    try:
        if command is not None:
            proc, url = workers.start(command, oracle_url=oracle.url, log=log)
        workers.wait_listening(proc, url, timeout=START_TIMEOUT)
        checker = Checker(url, oracle, command=command)
        results = checker.run()
    finally:
        if proc is not None:
            workers.stop(proc)
        oracle.stop()
    warnings = []
    for name, outcome, seen in results:
        row = rules.check(name)
        line = "%s: %s [%s %s] \u2014 %s\n" % (name, outcome, row.mark, row.since, seen)
        out.write(line)
        if outcome == "fail" and row.mark == "SHOULD":
            warnings.append("warning: " + line)
    counts = [sum(r[1] == k for r in results) for k in ("pass", "fail", "skip")]
    out.write("rules: %d\npassed: %d\nfailed: %d\nskipped: %d\n" % (len(results), *counts))
    out.write("contract: %s\nconforms: %s\n%s" % (
        checker.checked(), "yes" if conforms(results) else "no", "".join(warnings)))
    return results


def conforms(results):
    """Whether no MUST failed among `results` (Checker.run's)."""
    return not any(outcome == "fail" and rules.check(name).mark == "MUST"
                   for name, outcome, _ in results)


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
        if not conforms(results):
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
