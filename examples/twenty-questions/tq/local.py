"""Run a whole twenty-questions evaluation on this machine, without Docker:
the template's local run (grader/local.py at the repository's root) with this
problem (tq/plugin.py, PROBLEM): its worker, sets and figures.

    python3 tq/local.py                          # src/tester.py on sample/dev.jsonl
    python3 tq/local.py --items sample/test.jsonl --tester tests/testers/fixed_order.py
    python3 tq/local.py --repeat 2               # deterministic?

Progress goes to stderr, the summary to stdout as `key: value` lines, the
result to result/result.json; the last line, `report:`, is the command
that shows where the tester wins and loses (tq/report.py). Exit status: 0
for a valid run, 1 for an invalid one (the tester's fault), 2 when the set
or the grader failed. Paths are printed relative to the current folder when
they lie inside it.

With --repeat N the evaluation runs N times, each with a fresh worker in a
fresh working directory, and compares each round's calls, whether it
found the animal, and its transcript; the last line says "deterministic:
..." or names the first round that differs ("nondeterministic: instance
I (...)", exit status 1). One run at a time writes to an output folder: a
second one on the same --out refuses (exit status 2).

Each worker runs with a fresh HOME as well, and whatever it started is
killed with it (the template's arh_grader/reaper.py). Files of the
repository outside this problem's src/ that differ from the committed ones
after the run, or that changed during it (arh_grader/integrity.py), are
named on a line "tampered: PATH, PATH..." and a warning before the
summary, and result.json gets "tampered": [PATH, ...]; a run that changed
nothing has no such key.
"""

import argparse
import os
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPOSITORY = os.path.normpath(os.path.join(PROJECT, os.pardir, os.pardir))
ROOT_GRADER = os.path.join(REPOSITORY, "grader")
sys.path[:0] = [p for p in (ROOT_GRADER, PROJECT) if p not in sys.path]   # the SDK's grader/, tq

# the template's SDK
from arh_grader import engine, integrity, local_run, options, report  # noqa: E402

from tq import grade  # noqa: E402
from tq.plugin import PROBLEM  # noqa: E402

WORKER = PROBLEM.WORKER
TESTER = os.path.join(PROJECT, "src", "tester.py")
REPORT = os.path.join(PROJECT, "tq", "report.py")
EDITABLE = (os.path.join(PROJECT, "src"),)     # autoresearch.toml's [project] editable
OUT = os.path.join(PROJECT, "result")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    grade.add_options(parser, items=PROBLEM.SAMPLE, out=OUT)
    parser.add_argument("--tester", default=TESTER, help="the tester file (src/tester.py)")
    parser.add_argument("--repeat", type=options.positive(int), default=1, metavar="N",
                        help="run N times with fresh workers and compare the rounds")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="backslashreplace")
    refused = local_run.claim_output(args.out)
    if refused is not None:
        sys.stderr.write(refused)
        return 2
    settings = grade.load_settings()
    problem = PROBLEM.for_set(args.items)
    runs = []
    outputs = [os.path.abspath(p) for p in (args.out, OUT, args.transcripts) if p]
    base = integrity.baseline(REPOSITORY, editable=EDITABLE, outputs=outputs)

    def evaluate_with(items, settings, indexes):
        runs.extend(local_run.evaluate_runs(
            items, repeat=args.repeat, settings=settings, transcripts=args.transcripts,
            tester=args.tester, indexes=indexes, problem=problem,
            progress=engine.progress_printer(len(items), key=problem.SCORE)))
        return runs[0]

    try:
        result, path = engine.run(args, problem=problem, settings=settings,
                                  evaluate_with=evaluate_with)
    except engine.UsageError as e:
        parser.error(str(e))
    local_run.mark_tampered(result, path, integrity.changes(base))
    print("\n".join(engine.summary_lines(result, problem=problem)))
    print("result: %s\nreport: %s" % (report.display_path(path),
                                      report.command_for(path, script=REPORT)))
    return local_run.exit_status(result, runs, keys=problem.REPEATED)


if __name__ == "__main__":
    sys.exit(main())
