"""Where a graph isomorphism solver does more or less work: a result.json
read problem by problem, and against another result.

    python3 gi/report.py result/result.json
    python3 gi/report.py result/result.json --against other/result.json
    python3 gi/report.py result/result.json --svg result/result.svg --top 5

The SDK's report command (arh_grader.commands.report) for graph
isomorphism (gi/plugin.py, PROBLEM). It prints `key: value` lines:
`result`, `status`, `kind`, `instances`, `instruction_ratio` (the mean
score: a problem's score is its share of the work against the
incumbent's, 1.0 for the incumbent), `floor` (0: no least work is known)
and `gap`; then the problems with the highest scores, the most work
left. With --against OTHER, a result of the same problems: `W/L/D`,
where a win is a problem with a lower score than in OTHER, the mean
difference with its interval, and the problems that lost most. With --svg
FILE, a picture of each problem's score, and the same picture as PNG beside
it, its name ending .png (a line `png: PATH`).

Exit status 0; 2 when a file cannot be read, is not a result.json of
graph isomorphism, or holds other problems than the one it is compared
with: the message on stderr names the files and what is wrong.
"""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and gi
    import sdk_path  # noqa: F401

from arh_grader.commands import report  # noqa: E402  (the SDK's command)

from gi.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return report.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
