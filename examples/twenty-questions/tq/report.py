"""Where a twenty-questions tester wins and loses: a result.json read round
by round, against each round's bound and against another result.

    python3 tq/report.py result/result.json
    python3 tq/report.py result/result.json --against other/result.json
    python3 tq/report.py result/result.json --svg result/result.svg --top 5

The template's report (arh_grader/report.py) with this problem's
description of a round (tq/plugin.py, PROBLEM). It prints `key: value`
lines: `result`, `status`, `kind`, `instances` (the rounds that passed),
`mean_score`, `bound` (the mean of the rounds' bounds, the most a tester can
expect) and `gap` (bound minus mean_score: what is left to win); then the
rounds furthest below their bound, rows starting `below_bound:`. A round's
bound caps its expected score, not its score: a lucky round passes it.

With --against OTHER, a result of the same rounds: `W/L/D`, where a win is
a round with a higher score than in OTHER, `mean_difference` (this
result's mean score minus OTHER's: above 0 is better) with its 95%
interval (Student's t on the paired differences), and the rounds that lost
most, rows starting `lost_most:`. With --svg FILE, a picture that any
browser opens: each round's score, round by round, with its bound as a
dash, and with --against each round's difference; and the same picture as
PNG beside it, its name ending .png (a line `png: PATH`).

Exit status 0; 2 when a file cannot be read, is not a result.json of
twenty questions, or holds other rounds than the one it is compared with
(a round of the same index with another bound, or no round in common): the
message on stderr names the files and what is wrong.
"""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and tq
    import sdk_path  # noqa: F401

from arh_grader.commands import report  # noqa: E402  (the SDK's command)

from tq.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return report.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
