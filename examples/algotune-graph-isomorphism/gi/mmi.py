"""The noise floor of a result: how large a change in instruction_ratio is
real, given which problems a set happens to hold.

    python3 gi/mmi.py result/result.json

Resamples the result's problems with replacement (a fixed seed, so the same
result prints the same figures), takes the standard deviation of the
resampled mean score as its standard error, and prints the floor, twice that,
beside the MMI of autoresearch.toml (2%). The counts are exact, so the floor
is not noise of a run: it is how much the mean of 24 problems may differ
from that of another set of the same kind. A gain on the sample below it
may not hold on the held-out set; gi/compare.py asks the question on fresh
problems.

The command is the SDK's (arh_grader/commands/mmi.py), handed graph
isomorphism (gi/plugin.py, PROBLEM).
"""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and gi
    import sdk_path  # noqa: F401

from arh_grader.commands import mmi  # noqa: E402  (the SDK's command)

from gi.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return mmi.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
