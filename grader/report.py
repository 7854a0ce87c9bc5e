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
family, and with --against each instance's difference as well.

Exit status 0; 2 when a file cannot be read, is not a result.json, or is a
result of another set than the one it is compared with: the message on
stderr names the file and what is wrong with it. A failed run's instances
that passed are reported; the one that failed is left out.

The machinery is the SDK's (arh_grader/report.py), which knows no problem;
this module holds group testing's Report: its fields, floor, families and
columns.
"""

import os
import sys

from arh_grader import report
from group_testing import plugin, problem

SCRIPT = os.path.abspath(__file__)
COLOURS = {"uniform": "#1f77b4", "two-tier": "#e6550d", "log-normal": "#2ca02c"}


def floor(item):
    """An instance's information floor: its surprise over its baseline."""
    return item["surprise"] / item["baseline"]


def describe(item):
    """An instance's words in the picture."""
    return "instance %d (%s, n = %d): %d tests, baseline %d, score %.4f, floor %.4f" % (
        item["index"], item["family"], item["n"], item["tests"], item["baseline"],
        item["score"], floor(item))


REPORT = report.Report(
    score_name="relative_tests", bound_name="information_floor", bound_short="floor",
    bound=floor, lower_is_better=True,
    fields={"index": (int,), "family": (str,), "n": (int,), "tests": (int,),
            "baseline": (int,), "score": report.NUMBER,
            "surprise": report.NUMBER},
    positive=("baseline",), same_set=("family", "n", "baseline", "surprise"),
    count="tests", group="family", groups=problem.FAMILIES, colours=COLOURS,
    labels=(("index", "%5d", "index"), ("family", "%-10s", "family"), ("n", "%3d", "n")),
    figures=(("tests", "%5d", "tests"), ("baseline", "%8d", "baseline"),
             ("score", "%8.6f", "score"), ("floor", "%8.6f", floor),
             ("gap", "%+9.6f", lambda item: item["score"] - floor(item)),
             ("bits", "%+7.1f", lambda item: item["tests"] - item["surprise"])),
    rows="above_floor", describe=describe,
    axes=("information floor (surprise / baseline)", "score (tests / baseline)"),
    reference=(1.0, "binary splitting (1.0)"), win=("fewer tests", "more tests"),
    digits=plugin.DIGITS)


def command_for(result_path):
    """The command that reports on a result and draws it beside it."""
    return report.command_for(result_path, script=SCRIPT)


def main(argv=None):
    return report.main(argv, spec=REPORT, description=__doc__.split("\n\n")[0],
                       made_by="grader/local.py")


if __name__ == "__main__":
    sys.exit(main())
