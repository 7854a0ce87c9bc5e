"""The self-check: prove a problem's grader on a battery of cases, each a
real tester file run through a real worker and oracle (the local run) on
the first instances of the problem's sample, each with the verdict it must
get. One `case:` line a case (engine.check_cases): its name, the verdict it
must get and the verdict it got; exit status 1 if any case differs.

Verdicts are the kinds, or `valid`, `suspect` (valid but flagged) and
`nondeterministic` (two runs whose counts or transcripts differ); a case
with a check of its valid result gets `valid?` when the check finds
something wrong.

A problem hands its cases, Case values, to main, which runs them with the
problem for its sample (problem.for_set):

    from arh_grader.commands import selfcheck
    CASES = selfcheck.cases_in(TESTERS, (("baseline", "valid"), ("hangs", "timeout"),
                                         ("reads_set", "suspect",
                                          {"prepare": selfcheck.set_beside("set.jsonl")})))
    sys.exit(selfcheck.main(PROBLEM, doc=__doc__, cases=CASES, instances=3,
                            settings=SETTINGS))

A case runs its tester where it lies, unless it puts files beside it
(`beside`, `prepare`): then a copy of the tester runs in a folder of the
case's own, with those files beside it, as a worker may read its tester's
folder. A case whose expected verdict is `nondeterministic` is run twice.
"""

import argparse
import dataclasses
import json
import os
import shutil
import tempfile

from .. import engine, local_run
from ..settings import Settings

REPEATED = "nondeterministic"       # the expected verdict of the cases run twice


@dataclasses.dataclass(frozen=True)
class Case:
    """One case of a self-check: Case(name, expected, tester, *, options).

    name      its name, on its `case:` line and for --case
    expected  the verdict it must get
    tester    the path of its tester file
    beside    paths of the files copied beside a copy of the tester
    check     check(result) of a valid result: None when right, else what is wrong
    settings  the run's Settings; None: the self-check's
    prepare   prepare(folder, items): writes the files its tester reads beside it
    run       run(case, *, problem, items, tester, folder, settings): (verdict,
              detail), in place of the local run; verdict() judges results
    """

    name: str
    expected: str
    tester: str
    _: dataclasses.KW_ONLY
    beside: tuple = ()
    check: object = None
    settings: Settings = None
    prepare: object = None
    run: object = None


def case_in(folder, name, expected, **options):
    """The Case `name` whose tester is the file FOLDER/NAME.py."""
    return Case(name, expected, os.path.join(folder, name + ".py"), **options)


def cases_in(folder, rows):
    """The cases of `rows`, each (name, expected) or (name, expected,
    options), whose testers are the files FOLDER/NAME.py (case_in)."""
    return tuple(case_in(folder, name, expected, **(options[0] if options else {}))
                 for name, expected, *options in rows)


def set_beside(name):
    """A case's prepare that writes the items it runs on beside its tester,
    as the set file `name`: one JSON line an item, as a set's lines are."""
    def prepare(folder, items):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.writelines(json.dumps(item) + "\n" for item in items)
    return prepare


def place(case, *, items, folder):
    """The path of the tester that `case` runs: its file where it lies, or
    a copy in `folder` (made), with the case's files beside it."""
    if not case.beside and case.prepare is None:
        return case.tester
    os.makedirs(folder, exist_ok=True)
    for path in case.beside:
        shutil.copy(path, folder)
    tester = shutil.copy(case.tester, folder)
    if case.prepare is not None:
        case.prepare(folder, items)
    return tester


def evaluate(case, *, problem, items, tester, settings):
    """The local run of `tester` on `items`, with the case's settings (or
    `settings`): the results, two of them when the case must be found
    nondeterministic."""
    return local_run.evaluate_runs(items, repeat=2 if case.expected == REPEATED else 1,
                                   settings=case.settings or settings, tester=tester,
                                   quiet=True, problem=problem)


def verdict(problem, results, *, check=None):
    """(verdict, detail) of a case's results: the run's verdict and its
    message; `nondeterministic` when two valid runs differ in the problem's
    REPEATED keys; `valid?` when `check` finds a valid result wrong."""
    got = engine.run_verdict(results[0])
    if len(results) == 2 and got == "valid":
        differ = local_run.first_difference(results, keys=problem.REPEATED)
        if differ:
            return REPEATED, differ
    if got != "valid" or check is None:
        return got, results[0]["message"] or ""
    wrong = check(results[0])
    return ("valid" if wrong is None else "valid?"), wrong or ""


def run_case(case, *, problem, items, settings, workdir):
    """Run one case, its files in workdir/NAME: (verdict it got, detail)."""
    folder = os.path.join(workdir, case.name)
    tester = place(case, items=items, folder=folder)
    if case.run is not None:
        os.makedirs(folder, exist_ok=True)
        return case.run(case, problem=problem, items=items, tester=tester, folder=folder,
                        settings=case.settings or settings)
    results = evaluate(case, problem=problem, items=items, tester=tester, settings=settings)
    return verdict(problem, results, check=case.check)


def main(problem, argv=None, *, doc=None, cases, instances, settings):
    """Run the `cases` whose name holds --case on the first `instances`
    instances of the problem's sample, with `settings` and the problem for
    the sample (problem.for_set); the exit status."""
    parser = argparse.ArgumentParser(description=(doc or __doc__).split("\n\n")[0])
    parser.add_argument("--case", default="", help="run only cases whose name holds this")
    args = parser.parse_args(argv)
    problem = problem.for_set(problem.SAMPLE)
    items = problem.load_set(problem.SAMPLE)[:instances]
    with tempfile.TemporaryDirectory(prefix="selfcheck-") as workdir:
        return engine.check_cases([
            (case.name, case.expected, lambda case=case: run_case(
                case, problem=problem, items=items, settings=settings, workdir=workdir))
            for case in cases if args.case in case.name])
