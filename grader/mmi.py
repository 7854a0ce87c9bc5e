"""The noise floor of a result: how large a change in relative_tests is real.

    python3 grader/mmi.py result/result.json

Resamples the result's instances with replacement (a fixed seed, so the same
result prints the same figures), takes the standard deviation of the
resampled mean score as its standard error, and prints the floor, twice that,
beside the MMI of autoresearch.toml. The MMI is the calibration tester's
floor on a 500-instance set, rounded (docs/scoring.md, "The MMI").

The command is the SDK's (arh_grader/commands/mmi.py), handed group
testing (group_testing/plugin.py, PROBLEM), whose resampling seed is
group_testing/seeds.py's MMI.
"""

import sys

from arh_grader.commands import mmi
from group_testing.plugin import PROBLEM


def main(argv=None):
    return mmi.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
