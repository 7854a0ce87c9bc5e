"""Where a tester wins and loses: a result.json read instance by instance.

    python3 grader/report.py result/result.json
    python3 grader/report.py result/result.json --against before/result.json
    python3 grader/report.py result/result.json --svg result/result.svg

Prints `key: value` lines on stdout. The run's `relative_tests`,
`information_floor` and `gap` (the one minus the other: what is left to
win); then a table whose rows start `family: NAME` (instances, score,
floor and gap of each family, and of `all`); then the instances furthest
above their floor, rows starting `above_floor:`, where an instance's floor
is its surprise over its baseline and `bits` is its tests minus its
surprise. The figures are those of result.json, rounded as it rounds them.

With --against OTHER, a result of the same set (the same instances, by
index), each instance is compared: a win has fewer tests than in OTHER, a
loss more, a draw as many. It prints `W/L/D`, `mean_difference` (the mean
of this result's score minus OTHER's: below 0 is better) and its fixed-sample 95%
interval, Student's t on the paired differences, and the instances that
lost most, rows starting `lost_most:`.

With --svg FILE it writes a picture (arh_grader/picture.py) that any
browser opens: each instance's score against its floor, coloured by
family, and with --against each instance's difference as well; and the
same picture as PNG beside it (arh_grader/raster.py), its name ending .png
(result/result.png), printing `svg: FILE` and `png: PATH`.

Exit status 0; 2 when a file cannot be read, is not a result.json, or is a
result of another set than the one it is compared with: the message on
stderr names the file and what is wrong with it. A failed run's instances
that passed are reported; the one that failed is left out.

The machinery is the SDK's (arh_grader/report.py), which knows no problem;
group testing's problem object (group_testing/plugin.py, PROBLEM) describes
its instances: their fields, floor, families and columns.
"""

import sys

from arh_grader.commands import report
from group_testing.plugin import PROBLEM


def main(argv=None):
    return report.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
