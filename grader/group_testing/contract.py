"""Group testing's contract as data: what the worker and the oracle answer
to each cause, and the verdict the grader draws from a worker's reply.

CONTRACT.md shows these tables as `python3 grader/rules.py` prints them,
and the tests check that it does, so the text and the code cannot drift
apart. The conformance check (grader/conformance.py) and the tests of the
oracle read their expected statuses from here, by a row's `cause`:

    contract.worker("too_large").status   # 413
    contract.oracle("over_cap").counted   # True
    contract.check("port_zero").mark      # "MUST"

The rows' kinds, their versions and their Markdown are the SDK's
(arh_grader.conformance.tables), and so are the HTTP limits every worker
keeps (arh_grader.conformance.http, named here too: the contract states
them); group testing's own are the /solve body's size and an instance's
items. A cause that is not in a table raises KeyError naming it.
"""

from arh_grader.conformance import tables
from arh_grader.conformance.http import (BODY_TIMEOUT, HEAD_MAX, HEADER_LINE_MAX,  # noqa: F401
                                         LINE_MAX, LISTENING, ORACLE_HEADER_LINES,
                                         ORACLE_URL_DEFAULT, REPLY_MAX, TOKEN_MAX,
                                         WORKER_HEADER_LINES)
from arh_grader.conformance.tables import (FIRST, Check, Oracle, Verdict, Worker,  # noqa: F401
                                           version)

CONTRACT = "1.1"            # the contract's version (CONTRACT.md, its change log)

# ---- group testing's limits (harness/worker.py keeps its own copy; a test compares)
MAX_N = 512                 # items of an instance at most
SOLVE_BODY_MAX = 16_640     # bytes of a /solve body at most: 256 + 32 per item

WORKER = (
    Worker("healthy", "`GET /health` once the worker takes requests", 200, False, False,
           "the run starts", "MUST"),
    Worker("answered", "`POST /solve`: `find` returned an answer JSON can encode", 200, True,
           False, "the answer is checked", "MUST"),
    Worker("unencodable", "`find` returned what JSON cannot encode", 422, True, False,
           "`schema`", "MUST"),
    Worker("tester_raised", "`find` raised (an oracle refusal included), or the tester "
           "failed to load", 500, True, False, "`no_answer`", "MUST"),
    Worker("request_line", "a request line that is not `METHOD PATH HTTP/1.x`, or is empty",
           400, False, True, "`no_answer`"),
    Worker("line_too_long", "a request line over 65,536 bytes", 414, False, True,
           "`no_answer`"),
    Worker("head_too_large", "over 99 header lines, or one over 65,536 bytes", 431, False,
           True, "`no_answer`"),
    Worker("method", "a method other than `GET` and `POST`", 405, False, True, "`no_answer`"),
    Worker("no_path", "`GET` of a path but `/health`, `POST` of a path but `/solve`", 404,
           False, True, "`no_answer`"),
    Worker("length", "no `Content-Length`, more than one, one that is not ASCII digits "
           "(`abc`, `+12`, `-1`), or a `Transfer-Encoding`", 411, False, True, "`no_answer`"),
    Worker("too_large", "a `Content-Length` over 16,640", 413, False, True, "`no_answer`"),
    Worker("stalled", "a body not all there 2 s after the header lines", 408, False, True,
           "`no_answer`"),
    Worker("truncated", "the client closed before the whole body came", 400, False, True,
           "`no_answer`"),
    Worker("not_json", "a body that is not strict JSON in UTF-8 (no BOM, no UTF-16)", 400,
           False, True, "`no_answer`"),
    Worker("fields", "not an object with the keys `token`, `n` and `priors` (others are "
           "ignored); `n` not an integer in 1..512; `priors` not `n` numbers strictly "
           "between 0 and 1; a `deadline` not a number in (0, 86400] (since 1.1)", 400, False,
           True, "`no_answer`"),
    Worker("token", "a token that is not 1 to 256 visible ASCII characters", 400, False,
           True, "`no_answer`"),
)

ORACLE = (
    Oracle("valid", "a valid test", 200, True, False, "none: `find` gets the answer"),
    Oracle("invalid_query", "JSON, but not `{\"pool\": [...]}` with a valid pool", 400, True,
           False, "none: `find` gets the error"),
    Oracle("not_json", "a body that is not strict JSON in UTF-8", 400, True, False,
           "none: `find` gets the error"),
    Oracle("truncated", "the client closed before the whole body came", 400, True, True,
           "none: the client has gone"),
    Oracle("stalled", "a body not all there 2 s after the header lines", 408, True, True,
           "none: `find` gets the error"),
    Oracle("length", "no `Content-Length`, one that is not ASCII digits (`abc`, `+12`), or "
           "a `Transfer-Encoding`", 411, True, True, "none: `find` gets the error"),
    Oracle("too_large", "a `Content-Length` over 16 + n (d + 2), d the digits of n", 413,
           True, True, "none: `find` gets the error"),
    Oracle("over_cap", "the instance's test number 2n + 65 or any later one", 429, True,
           True, "`oracle_cap`, whatever the answer"),
    Oracle("cut", "a request still open when its instance ends (the session closes): "
           "recorded, not answered", 408, True, True, "none: the instance is over"),
    Oracle("fault", "the oracle itself failed", 500, True, True, "`grader_error`"),
    Oracle("token", "no `Authorization: Bearer T` with T an open session's token", 403,
           False, True, "none: `find` gets the error"),
    Oracle("method", "a method other than `POST`", 405, False, True,
           "none: `find` gets the error"),
    Oracle("no_path", "a path other than the oracle's", 404, False, True,
           "none: `find` gets the error"),
    Oracle("request_line", "a request line that is not `METHOD PATH HTTP/1.1` (or 1.0); a "
           "line ended by a bare LF; a malformed header line; `Content-Length` or "
           "`Authorization` twice", 400, False, True, "none: `find` gets the error"),
    Oracle("line_too_long", "a request line over 65,536 bytes", 414, False, True,
           "none: `find` gets the error"),
    Oracle("head_too_large", "over 100 header lines, or over 65,536 bytes of them", 431,
           False, True, "none: `find` gets the error"),
)

VERDICTS = (
    Verdict("answer", "200", "a JSON object with the key `answer` (other keys ignored)",
            "`answer` is checked: `schema` unless a list of integers, `wrong` unless "
            "exactly the defectives in ascending order"),
    Verdict("no_answer_key", "200", "anything else: not JSON, not an object, no `answer`",
            "`schema`"),
    Verdict("unencodable", "422", "any", "`schema`"),
    Verdict("other_status", "any other (201, 3xx, 4xx, 500, ...)", "any", "`no_answer`"),
    Verdict("too_large", "any", "over 1 MiB", "`schema`"),
    Verdict("late", "none whole, to its last byte, within the instance's deadline",
            "\u2014", "`timeout`"),
    Verdict("dropped", "none: the connection is refused or dropped; the reply is not "
            "HTTP/1.x, has a malformed or repeated `Content-Length` or one it does not keep, "
            "or a `Transfer-Encoding`", "\u2014", "`no_answer`"),
    Verdict("unhealthy", "`GET /health` not 200 within `worker_start_timeout_s`", "\u2014",
            "`no_answer`"),
)

CHECKS = (  # the conformance check's rules (grader/conformance.py), in the order it checks them
    Check("health", "MUST", FIRST, "`GET /health` answers 200 with a JSON object whose `ok` "
          "is true (other keys ignored); `contract`, when there, a version such as `\"1.1\"`"),
    Check("port_zero", "MUST", FIRST, "started on port 0, the worker writes `worker: "
          "listening on http://HOST:PORT` on stderr with the port it got"),
    Check("oracle_token", "MUST", FIRST, "the tests of a `/solve` reach the oracle with its "
          "token in `Authorization: Bearer`"),
    Check("solve", "MUST", FIRST, "a `/solve` as the grader writes it gets 200 `{\"answer\": "
          "...}` with the tester's answer"),
    Check("one_test_a_request", "MUST", FIRST, "each test is one request, made when the "
          "tester makes it: no retry, batch or cache"),
    Check("solve_request_forms", "MUST", FIRST, "a `/solve` with its keys in another order, "
          "JSON whitespace, or priors with exponents gets 200"),
    Check("deadline_key", "MUST", "1.1", "a `/solve` with a `deadline` gets 200"),
    Check("unknown_keys", "MUST", "1.1", "a `/solve` with a key the worker does not know "
          "gets 200: the key is ignored"),
    Check("oracle_refusal", "MUST", FIRST, "a tester failed by an oracle refusal gets 500 "
          "whose `error` names the oracle's status"),
    Check("slow_test", "MUST", FIRST, "a test answered 1.5 s late still gets its answer: no "
          "deadline of the worker's own below the instance's"),
    Check("request_line_400", "SHOULD", FIRST, "a bad or empty request line gets 400"),
    Check("path_404", "SHOULD", FIRST, "another path (`GET /solve`, `POST /health`) gets 404"),
    Check("method_405", "SHOULD", FIRST, "a method but `GET` and `POST` gets 405"),
    Check("length_411", "SHOULD", FIRST, "a missing, repeated or malformed `Content-Length`, "
          "or a `Transfer-Encoding`, gets 411"),
    Check("size_413", "SHOULD", FIRST, "a `Content-Length` over 16,640 gets 413"),
    Check("stalled_408", "SHOULD", FIRST, "a body not all there 2 s after the header lines "
          "gets 408"),
    Check("truncated_400", "SHOULD", FIRST, "a body cut short by the client gets 400"),
    Check("json_400", "SHOULD", FIRST, "a body not strict JSON in UTF-8 gets 400"),
    Check("fields_400", "SHOULD", FIRST, "a bad value of a key the worker knows gets 400"),
    Check("token_400", "SHOULD", FIRST, "a token not 1 to 256 visible ASCII characters gets "
          "400"),
    Check("line_414", "SHOULD", FIRST, "a request line over 65,536 bytes gets 414"),
    Check("headers_431", "SHOULD", FIRST, "over 99 header lines, or one over 65,536 bytes, "
          "gets 431"),
    Check("errors_close", "SHOULD", FIRST, "a 4xx says `Connection: close` and closes"),
    Check("error_json", "SHOULD", FIRST, "a 4xx is JSON `{\"error\": text}` naming the bad "
          "value"),
    Check("keeps_serving", "MUST", FIRST, "after all of these, `/health` and `/solve` still "
          "answer"),
    Check("abandoned_solve", "MUST", FIRST, "after a `/solve` the grader left at its "
          "deadline, the worker keeps serving"),
)
def applies(row, spoken):
    """Whether `row` (a Worker or Check) binds a worker speaking `spoken`
    ("1.0"): it came in that version or an earlier one."""
    return tables.applies(row, spoken)


def worker(cause):
    """The worker's row for `cause`; KeyError names an unknown one."""
    return tables.find(WORKER, cause)


def oracle(cause):
    """The oracle's row for `cause`; KeyError names an unknown one."""
    return tables.find(ORACLE, cause)


def verdict(cause):
    """The grader's verdict row for `cause`; KeyError names an unknown one."""
    return tables.find(VERDICTS, cause)


def check(name):
    """The conformance rule `name`; KeyError names an unknown one."""
    return tables.find_check(CHECKS, name)


def markdown():
    """{table name: its Markdown text}, as CONTRACT.md shows them."""
    return tables.markdown(worker=WORKER, oracle=ORACLE, verdicts=VERDICTS, checks=CHECKS)
