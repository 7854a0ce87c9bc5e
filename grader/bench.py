"""Measure the harness's own cost per test beside what loopback allows.

    python3 grader/bench.py                      # 5000 round trips, 500 instances
    python3 grader/bench.py --requests 500 --instances 20

The command is the SDK's (arh_grader/commands/bench.py; arh_grader/benchmark.py
says what each figure is), handed group testing (group_testing/plugin.py,
PROBLEM), whose Bench sends a pool of --size items, 50 by default (binary
splitting's mean pool on the 500-instance set is 49 items, 194 bytes), to
an instance of 512 items whose last one is defective, and runs binary
splitting as the grader counts the baseline (group_testing/splitting.py,
not src/tester.py, so the figures do not move with the tester being
improved): every instance must take exactly its baseline's tests.
"""

import sys

from arh_grader.commands import bench
from group_testing.plugin import PROBLEM


def main(argv=None):
    return bench.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
