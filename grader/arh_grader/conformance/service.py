"""The worker's rules about how it serves, whatever its problem: its
/health and the version it names there, its port 0, its tests reaching
the oracle under its token, a token the oracle refuses, a test answered
late, and serving on after bad requests and after a /solve its client
left. A problem's check (group testing's: group_testing/conformance.py)
subclasses ServiceRules, adds the rules only it can judge (its answer, its
tests) and lists them all in order; run.py runs them.

    class Checker(ServiceRules): ...      # the problem's part
    checker = Checker(url, oracle, command=None)
    ok, seen = checker.health()           # (passed?, what was seen)

A subclass gives what requests.RequestRules asks of it, and:
- CONTRACT: the version of the contract it checks ("1.1");
- CHECKS: its contract's conformance rules (tables.Check rows);
- RULES: ((name, (the rules it needs)), ...), in the order they are checked;
- known_spec(): the session.Spec of the known instance the rules solve.

No rule here fails a worker for being slow on a busy machine: each
deadline is one only a hung worker reaches. And `abandoned_solve` reads a
/solve it left to its end before it asks the worker anything more, so a
worker that falls over on that /solve fails however late it falls; a
/solve left as the grader leaves one, closed, follows, the worker then
watched for WATCH seconds.
"""

import dataclasses
import queue
import socket
import subprocess
import threading
import time

from .. import workers
from . import tables
from .http import LISTENING
from .requests import REPLY_WAIT, RequestRules, described, get, is_json, json_of, post

START_TIMEOUT = 30.0    # seconds a worker has to listen (autoresearch.toml's start deadline)
SOLVE_WAIT = 30.0       # seconds to wait for the reply to a /solve
SLOW_ANSWER = 1.5       # seconds the oracle takes over one answer in `slow_test`
WATCH = 1.0             # seconds the worker is watched after the grader's close of a /solve


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


def held(spec, hold):
    """The session.Spec `spec` answered after `hold` (None: at once)."""
    if hold is None:
        return spec
    answer = spec.answer

    def late(secret, query):
        hold.wait()
        return answer(secret, query)

    return dataclasses.replace(spec, answer=late)


class ServiceRules(RequestRules):
    """The rules about how a worker serves; a subclass gives the problem's
    part (the module's docstring)."""

    def __init__(self, url, oracle, *, command=None):
        self.url, self.oracle, self.command = url, oracle, command
        self.errors = []                # 4xx replies seen, for error_json
        self._known = None
        self.spoken = tables.FIRST      # the worker's version, once `health` has read it

    # ---- helpers ----

    def solve_known(self, body=None, hold=None):
        """Solve the known instance in a session of its own: (reply, session).
        `body` replaces the /solve body, `@TOKEN@` in it the session's token;
        `hold` (a Hold) makes the session's first answer wait."""
        token = self.oracle.open(held(self.known_spec(), hold))
        try:
            body = self.solve_body(token) if body is None else body.replace(
                b"@TOKEN@", token.encode())
            reply = workers.exchange(self.url, post(body), timeout=SOLVE_WAIT)
        finally:
            session = self.oracle.close(token)
        return reply, session

    def known(self):
        """The known instance solved once, shared by the rules that look at it."""
        if self._known is None:
            self._known = self.solve_known()
        return self._known

    def checked(self):
        """The version the worker is checked against: its own, at most ours."""
        return min((self.spoken, self.CONTRACT), key=tables.version)

    def leave(self, *, close):
        """Send a /solve of the known instance and leave it once its first
        test reaches the oracle, as the grader leaves one at its deadline.
        `close`: close the connection, as the grader does. Otherwise shut
        only the sending side, which the worker reads just the same, as its
        client's end, and read on until the worker has done with the /solve
        (its reply, or the connection's end; SOLVE_WAIT at most, which only
        a hang reaches): what is asked next comes after that, however slow
        the machine. Whether a test reached the oracle."""
        hold = Hold()
        token = self.oracle.open(held(self.known_spec(), hold))
        sock = socket.create_connection(workers.address(self.url), timeout=SOLVE_WAIT)
        try:
            try:
                sock.sendall(post(self.solve_body(token)))
                reached = hold.entered.wait(SOLVE_WAIT)
            finally:
                if close:
                    sock.close()        # the grader's deadline: it stops waiting
                else:
                    _shut(sock)
                closer = threading.Thread(target=self.oracle.close, args=(token,))
                closer.start()
                hold.release.set()
                closer.join()
            if reached and not close:
                _read_end(sock)
        finally:
            sock.close()
        return reached

    # ---- the rules ----

    def health(self):
        reply = self.send(get(b"/health"))
        body = json_of(reply) if type(json_of(reply)) is dict else {}
        spoken = body.get("contract", tables.FIRST)
        ok = reply.status == self.status("healthy") and body.get("ok") is True and \
            is_json(reply) and tables.version(spoken) is not None
        if ok:
            self.spoken = spoken
        return ok, "%s (contract %s)" % (described(reply), spoken if ok else "unknown")

    def port_zero(self):
        if self.command is None:
            return None, "only with --worker-command"
        proc, _ = workers.start(self.command, oracle_url=self.oracle.url, port=0,
                                log=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                namespace=True)
        lines = queue.Queue()
        drain = threading.Thread(target=_lines, args=(proc.stderr, lines), daemon=True)
        drain.start()
        try:
            line = _first(lines, LISTENING, START_TIMEOUT)
            if line is None:
                return False, "no line %r on stderr within %g s" % (LISTENING, START_TIMEOUT)
            url = line[len(LISTENING):].strip()
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

    def oracle_refusal(self):
        reply = workers.exchange(self.url, post(self.solve_body("no-such-session-0123456789")),
                                 timeout=SOLVE_WAIT)
        error = json_of(reply).get("error") if type(json_of(reply)) is dict else None
        ok = reply.status == self.status("tester_raised") and is_json(reply) and \
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
        """Two /solves left: the first with its end read, then /health,
        which a worker that fell over on it cannot answer, whatever the
        load; the second closed, as the grader closes one, then /health
        for WATCH seconds and a /solve."""
        for close in (False, True):
            if not self.leave(close=close):
                return False, "no test reached the oracle within %g s" % SOLVE_WAIT
            until = time.monotonic() + (WATCH if close else 0.0)
            while True:
                health = self.send(get(b"/health"))
                if health.status != 200:
                    return False, "after a /solve left at its deadline: GET /health %s" % (
                        described(health))
                if time.monotonic() >= until:
                    break
                time.sleep(workers.POLL)
        reply, _ = self.solve_known()
        return reply.status == 200, "after a /solve left at its deadline: /solve %s" % (
            described(reply))


def _shut(sock):
    """Shut the sending side of `sock`; a worker that has closed already is
    left to what comes next."""
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def _read_end(sock):
    """Read `sock` until the worker has done with its request there: a
    whole reply, or the connection's end (or reset), within SOLVE_WAIT."""
    sock.settimeout(SOLVE_WAIT)
    try:
        workers.read_reply(sock)
    except (OSError, ValueError):
        pass


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
