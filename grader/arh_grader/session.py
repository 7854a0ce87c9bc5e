"""One instance's oracle session: how its requests are counted, checked,
answered and recorded, whatever carries them (the HTTP server in oracle.py,
or a test made in-process with Session.submit). Nothing here touches a
socket.

    spec = Spec(secret, cap=320, max_body=4096, check=check, answer=answer)
    session = Session.of(spec)        # or Oracle.open(spec), its token
    status, reply, counted = session.submit(b'{"pool":[3,7]}')
    session.end()                     # its counts and transcript are final

A Spec is all a session is opened with, in one place: the secret, the
cap, the body limit, the rules (check, answer) and the Policy; a
problem makes it (problem.Problem.session). A request is admitted
(counted) before its body is read; the Policy says what else counts.
Every counted request gets one transcript line.
"""

import dataclasses
import hashlib
import json
import threading

from .result import STRICT_DECODER as _DECODER, canonical

CLOSE_WAIT = 1.0        # seconds end() waits for a request being answered, whose
                        # connection it has shut down: one send, then it is recorded
CUT = canonical({"error": "the session ended before this request was answered"})
FORBIDDEN = canonical({"error": "unknown or closed token: not counted"})
FAILED = canonical({"error": "the oracle failed; not your fault"})
OVER = canonical({"error": "the round is over: not counted"})


class QueryError(ValueError):
    """Raised by `check` for a query that is answered 400 (and counted)."""


@dataclasses.dataclass(frozen=True)
class Policy:
    """How a session counts; the defaults are group testing's rules.

    `count_invalid`: an invalid query (400) is counted; when False it is
    refused without counting and leaves no transcript line. `over_cap`:
    "fail", a request past the cap is counted, answered 429 and marks the
    session `over_cap` (a failure); "end", the round ends at the cap and later
    requests are refused with 409, not counted. `ends`: None, or a function
    (secret, query) -> bool that ends the round after a valid query (a
    correct guess); later requests are refused with 409, not counted."""

    count_invalid: bool = True
    over_cap: str = "fail"
    ends: object = None

    def __post_init__(self):
        if self.over_cap not in ("fail", "end"):
            raise ValueError("over_cap must be 'fail' or 'end', got %r" % (self.over_cap,))


@dataclasses.dataclass(frozen=True)
class Spec:
    """What a session is opened with: `secret`, what the rules see of the
    instance; `cap`, the requests it counts before over_cap (or the round's
    end); `max_body`, the bytes of a body at most; `check(secret, query)`,
    raising QueryError for an invalid query; `answer(secret, query)`, the
    answer (any JSON value, or bytes of canonical JSON); `policy`, how it
    counts."""

    secret: object
    _: dataclasses.KW_ONLY
    cap: int
    max_body: int
    check: object
    answer: object
    policy: Policy = Policy()


ROUND_OVER = 0          # what Session.admit returns once the round has ended


class Session:
    """One instance's counts. `tests` counts every admitted request;
    `invalid` those answered 400; `query_bytes` and `answer_bytes` the
    canonical JSON of the valid queries and their answers; `digest` the
    SHA-256 of the transcript (one JSON line a request, in answer order).
    Every admitted request gets its line: one still open when the session
    ends is cut off and recorded as a 408, so the count and the transcript
    always agree."""

    def __init__(self, secret, *, cap, max_body, check, answer, record=False,
                 policy=Policy()):
        self.secret, self.cap, self.max_body = secret, cap, max_body
        self.check, self.answer, self.policy = check, answer, policy
        self.tests = self.invalid = self.query_bytes = self.answer_bytes = 0
        self.over_cap = self.closed = self.ended = self.ended_by_answer = False
        self.fault = None         # set when the oracle itself failed on a request
        self.transcript = [] if record else None
        self._sha = hashlib.sha256()
        self._numbers = 0         # requests admitted so far, counted or not: numbers only grow
        self._open = {}           # request number -> its connection, until recorded
        self._place = {}          # request number -> the count when it was admitted
        self._answering = set()   # numbers of open requests read whole, being answered
        self._idle = threading.Condition()

    @classmethod
    def of(cls, spec, *, record=False):
        """The session a Spec opens, recording its transcript when `record`."""
        return cls(spec.secret, cap=spec.cap, max_body=spec.max_body, check=spec.check,
                   answer=spec.answer, record=record, policy=spec.policy)

    @property
    def digest(self):
        return self._sha.hexdigest()

    # ---- one counted request: admit, early, respond, answering, log ----

    def admit(self, connection=None):
        """Count a request and return its number; None, uncounted, once the
        session has ended; ROUND_OVER, uncounted, once the policy has ended
        the round. `connection` is what end() cuts (see cut()). Numbers
        only grow, one a request admitted, even where the policy later
        takes a request's count back (an invalid query not counted): no two
        requests of a session ever share one."""
        with self._idle:
            if self.closed:
                return None
            if self.policy.over_cap == "end" and self.tests >= self.cap:
                self.ended = True
            if self.ended:
                return ROUND_OVER
            self.tests += 1
            self._numbers += 1
            self._open[self._numbers] = connection
            self._place[self._numbers] = self.tests
            return self._numbers

    def within_cap(self, number):
        """Whether request `number` was admitted within the cap."""
        return self._place.get(number, 0) <= self.cap

    def early(self, number, length, *, shown=None):
        """The refusal of request `number` before its body is read, as
        (status, message): 429 past the cap (the session is then over_cap),
        413 for a body of `length` bytes over max_body (`length` None: too
        many digits to read; `shown`: the length as the request gave it).
        None when the body is to be read."""
        if not self.within_cap(number):     # with over_cap "fail": "end" never admits it
            self.over_cap = True
            return 429, "over the cap of %d tests" % self.cap
        if length is None or length > self.max_body:
            return 413, "body of %s bytes; at most %d here" % (
                length if shown is None else shown, self.max_body)
        return None

    def respond(self, body):
        """Decode, check and answer a body: (status, the query as parsed or
        as JSON bytes, the reply as an object or as JSON bytes). A fault of
        `check` or `answer` themselves sets `fault` and is a 500."""
        try:
            query = _DECODER.decode(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            return 400, as_text(body), {"error": "not JSON: %s" % e}
        try:
            if b"\\u" in body:     # an escape may stand for a lone surrogate, which no
                canonical(query)    # UTF-8 can hold: refused here, before any answer
            self.check(self.secret, query)
            reply = self.answer(self.secret, query)
            if self.policy.ends is not None and self.policy.ends(self.secret, query):
                self.ended = self.ended_by_answer = True
            return 200, query, reply
        except QueryError as e:
            return 400, query, {"error": str(e)}
        except (RecursionError, UnicodeEncodeError) as e:
            what = "nested too deeply" if isinstance(e, RecursionError) else "not Unicode"
            return 400, as_text(body), {"error": "the query is %s" % what}
        except Exception as e:                      # the grader's own fault
            self.fault = "%s: %s" % (type(e).__name__, e)
            return 500, b"null", FAILED

    def submit(self, body):
        """One test made in this process, counted and answered as over HTTP
        (only the HTTP rules apart: header lines, 411, 408): (status, the
        reply as JSON bytes, whether it was counted). Once the session has
        ended: 403, not counted."""
        number = self.admit()
        if number is None:
            return 403, FORBIDDEN, False
        if number == ROUND_OVER:
            return 409, OVER, False
        refusal = self.early(number, len(body))
        if refusal is not None:
            status, query, reply = refusal[0], b"null", canonical({"error": refusal[1]})
        else:
            status, query, reply = self.respond(body)
            reply = reply if type(reply) is bytes else canonical(reply)
        self.answering(number)
        self.log(number, status, recorded(query), reply)
        return status, reply, True

    def answering(self, number):
        """Claim request `number`'s reply: False when the session has
        ended and cut the request off (it is recorded already)."""
        with self._idle:
            if number not in self._open:
                return False
            self._answering.add(number)
            return True

    def log(self, number, status, query, reply):
        """Record request `number`: `query` and `reply` as JSON bytes. A
        request the session's end has recorded already is left as it is."""
        with self._idle:
            if number not in self._open:
                return
            del self._open[number]
            self._place.pop(number, None)
            self._answering.discard(number)
            if status == 400 and not self.policy.count_invalid:
                self.tests -= 1             # refused without using a call: no line
            else:
                self._record(status, query, reply)
            self._idle.notify_all()

    def _record(self, status, query, reply):
        line = b'{"a":%s,"q":%s,"s":%d}\n' % (reply, query, status)
        if status == 200:
            self.query_bytes += len(query)
            self.answer_bytes += len(reply)
        elif status == 400:
            self.invalid += 1
        self._sha.update(line)
        if self.transcript is not None:
            self.transcript.append(line)

    def end(self):
        """Cut off the requests still open: each connection is shut down; a
        request not yet read whole is recorded at once as a 408, one being
        answered gets up to CLOSE_WAIT seconds to record itself, then 408."""
        with self._idle:
            self.closed = True
            for number, connection in sorted(self._open.items()):
                if connection is not None:
                    connection.cut()
                if number not in self._answering:
                    del self._open[number]
                    self._record(408, b"null", CUT)
            self._idle.wait_for(lambda: not self._open, timeout=CLOSE_WAIT)
            for number in sorted(self._open):
                self._record(408, b"null", CUT)
            self._open.clear()
            self._place.clear()
            self._answering.clear()


def as_text(body):
    """A body that is not a query, recorded as a JSON string."""
    return json.dumps(body.decode("utf-8", "replace")).encode("utf-8")


def recorded(query):
    """The canonical JSON of a parsed query, as the transcript records it."""
    if type(query) is bytes:            # recorded already
        return query
    try:
        return canonical(query)
    except RecursionError:              # parsed, yet too deep for the encoder
        return b'"nested too deeply to record"'



