"""A problem's conformance rules run against one worker, and the report:
one line a rule, then the counts, the version checked and the verdict.
The rules are a problem's checker class (group testing's:
group_testing/conformance.py, on service.ServiceRules); this module knows
no problem.

    results = run.check(Checker, command="python3 harness/worker.py")
    run.conforms(results, checks=Checker.CHECKS)     # no MUST failed

A rule is checked only when the rules it needs passed and the worker's
version has it (tables.applies); otherwise it is skipped, saying why.
"""

import sys

from .. import workers
from ..oracle import Oracle
from . import tables
from .service import START_TIMEOUT


def run(checker):
    """Check every rule of `checker` (a ServiceRules), in the order of its
    RULES: [(name, "pass" | "fail" | "skip", what was seen)]. A rule that
    raises OSError or ValueError fails, its exception named."""
    results, outcome = [], {}
    for name, needs in checker.RULES:
        row = tables.find_check(checker.CHECKS, name)
        failed = [need for need in needs if outcome.get(need) != "pass"]
        if failed:
            result = ("skip", "needs %s, which did not pass" % ", ".join(failed))
        elif not tables.applies(row, checker.checked()):
            result = ("skip", "since %s; the worker speaks contract %s" % (
                row.since, checker.spoken))
        else:
            try:
                ok, seen = getattr(checker, name)()
            except (OSError, ValueError) as e:
                ok, seen = False, "%s: %s" % (type(e).__name__, e)
            result = ("skip" if ok is None else "pass" if ok else "fail", seen)
        outcome[name] = result[0]
        results.append((name,) + result)
    return results


def check(checker_class, *, url=None, command=None, oracle_host="127.0.0.1", oracle_port=0,
          out=sys.stdout, log=None):
    """Check the worker at `url`, or the one `command` starts, with the
    rules of `checker_class`; print the report to `out` and return the
    results (run). The worker's output goes to `log` (a file); a started
    one runs in a PID namespace of its own (workers.start), as local.py
    runs it. WorkerError
    when a started worker never listens; OSError when the oracle's port is
    taken."""
    oracle = Oracle(host=oracle_host, port=oracle_port, record=True).start()
    proc = None
    try:
        if command is not None:
            proc, url = workers.start(command, oracle_url=oracle.url, log=log,
                                      namespace=True)
        workers.wait_listening(proc, url, timeout=START_TIMEOUT)
        checker = checker_class(url, oracle, command=command)
        results = run(checker)
    finally:
        if proc is not None:
            workers.stop(proc)
        oracle.stop()
    report(results, checks=checker.CHECKS, checked=checker.checked(), out=out)
    return results


def report(results, *, checks, checked, out):
    """Write the report of `results` to `out`: a line a rule, `NAME:
    OUTCOME [MARK SINCE] — what was seen`; `rules`, `passed`, `failed`,
    `skipped`; `contract` (the version `checked`), `conforms`; and a
    `warning:` line for each SHOULD that failed."""
    warnings = []
    for name, outcome, seen in results:
        row = tables.find_check(checks, name)
        line = "%s: %s [%s %s] \u2014 %s\n" % (name, outcome, row.mark, row.since, seen)
        out.write(line)
        if outcome == "fail" and row.mark == "SHOULD":
            warnings.append("warning: " + line)
    counts = [sum(r[1] == k for r in results) for k in ("pass", "fail", "skip")]
    out.write("rules: %d\npassed: %d\nfailed: %d\nskipped: %d\n" % (len(results), *counts))
    out.write("contract: %s\nconforms: %s\n%s" % (
        checked, "yes" if conforms(results, checks=checks) else "no", "".join(warnings)))


def conforms(results, *, checks):
    """Whether no MUST failed among `results` (run's), their marks read
    from `checks` (the contract's conformance rules)."""
    return not any(outcome == "fail" and tables.find_check(checks, name).mark == "MUST"
                   for name, outcome, _ in results)
