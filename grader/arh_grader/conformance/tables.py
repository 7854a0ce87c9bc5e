"""The rows of a contract's four tables, as a problem's contract fills them
(group testing's: group_testing/contract.py), and what is read from them:
a row by its cause, whether it binds a worker of a version, and the
tables in Markdown, as the contract's text shows them.

    WORKER = (tables.Worker("healthy", "`GET /health` ...", 200, False, False,
                            "the run starts", "MUST"), ...)
    tables.find(WORKER, "healthy").status      # 200
    tables.markdown(worker=WORKER, oracle=ORACLE, verdicts=VERDICTS, checks=CHECKS)

Each row of the worker's side carries its mark, MUST (grading depends on
it) or SHOULD (HTTP hygiene for requests the grader never sends), and the
contract version that introduced it; a worker is checked against the rules
of the version it speaks. A cause that is not in a table raises KeyError
naming it.
"""

import collections
import re

FIRST = "1.0"               # the version of a worker that says none

Worker = collections.namedtuple("Worker", "cause text status runs_find closes verdict mark since",
                                defaults=("SHOULD", FIRST))
Oracle = collections.namedtuple("Oracle", "cause text status counted closes verdict")
Verdict = collections.namedtuple("Verdict", "cause status body verdict")
Check = collections.namedtuple("Check", "name mark since text")

_VERSION = re.compile(r"(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})")


def version(text):
    """(major, minor) of a version written `MAJOR.MINOR`, as "1.1"; None for
    anything else."""
    match = _VERSION.fullmatch(text) if type(text) is str else None
    return None if match is None else (int(match[1]), int(match[2]))


def applies(row, spoken):
    """Whether `row` (a Worker or Check) binds a worker speaking `spoken`
    ("1.0"): it came in that version or an earlier one."""
    return version(row.since) <= version(spoken)


def find(table, cause):
    """The row of `table` for `cause`; KeyError names an unknown one."""
    for row in table:
        if row.cause == cause:
            return row
    raise KeyError("no row for the cause %r; the causes are %s"
                   % (cause, ", ".join(row.cause for row in table)))


def find_check(checks, name):
    """The conformance rule `name` of `checks`; KeyError names an unknown one."""
    for row in checks:
        if row.name == name:
            return row
    raise KeyError("no conformance rule %r; the rules are %s"
                   % (name, ", ".join(row.name for row in checks)))


def _yes(flag):
    return "yes" if flag else "no"


def _table(header, rows):
    lines = ["| %s |" % " | ".join(header), "|" + "---|" * len(header)]
    lines += ["| %s |" % " | ".join(str(cell) for cell in row) for row in rows]
    return "\n".join(lines) + "\n"


def markdown(*, worker, oracle, verdicts, checks):
    """{table name: its Markdown text} of the four tables."""
    return {
        "worker": _table(("cause", "status", "`find` runs", "connection closes",
                          "the grader's verdict", "mark", "since"),
                         [(r.text, r.status, _yes(r.runs_find), _yes(r.closes), r.verdict,
                           r.mark, r.since) for r in worker]),
        "oracle": _table(("cause", "status", "counted", "connection closes",
                          "the grader's verdict"),
                         [(r.text, r.status, _yes(r.counted), _yes(r.closes), r.verdict)
                          for r in oracle]),
        "verdicts": _table(("reply status", "reply body", "the grader's verdict"),
                           [(r.status, r.body, r.verdict) for r in verdicts]),
        "checks": _table(("rule", "mark", "since", "what it checks"),
                         [("`%s`" % r.name, r.mark, r.since, r.text) for r in checks]),
    }
