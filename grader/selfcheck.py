"""Prove the grader: binary splitting passes with exactly its baseline's
tests, every counterfeit and faulty tester gets its verdict, a broken set and
a failing oracle get theirs, and two runs give the same bytes.

    python3 grader/selfcheck.py              # every case
    python3 grader/selfcheck.py --case hang  # the cases whose names hold "hang"

Each case is a real tester file run through a real worker process and oracle
on the sample's first instances. One line a case: its name, the verdict it
must get and the verdict it got. Exit status 1 if any case differs.
Verdicts are the kinds, or `valid`, `suspect` (valid but flagged) and
`nondeterministic` (two runs whose counts or transcripts differ).

The command is the SDK's (arh_grader/commands/selfcheck.py), handed group
testing and its cases (group_testing/selfcheck_cases.py: the counterfeits
are the files of group_testing/counterfeits/). Nothing here reads src/: the
honest tester of every case is binary splitting as the grader counts the
baseline (group_testing/splitting.py), so the self-check gives the same
verdicts whatever tester is being improved.
"""

import sys

from arh_grader.commands import selfcheck
from group_testing import selfcheck_cases
from group_testing.plugin import PROBLEM


def main(argv=None):
    return selfcheck.main(PROBLEM, argv, doc=__doc__, cases=selfcheck_cases.CASES,
                          instances=selfcheck_cases.INSTANCES,
                          settings=selfcheck_cases.SETTINGS)


if __name__ == "__main__":
    sys.exit(main())
