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

The worker runs inside the SDK's walls (arh_grader/sandbox.py); a wall the
kernel refuses is named on a line "walls_missing: landlock" before the
summary and in result.json's "walls_missing", which a run with every wall
lacks.
"""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and tq
    import sdk_path  # noqa: F401

from arh_grader.commands import local  # noqa: E402  (the SDK's command)

from tq.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return local.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
