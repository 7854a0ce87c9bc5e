"""The grader: check the set, serve the oracle, ask the worker to solve each
instance, check every answer, write result.json.

    python3 grader/grade.py --items sample/items.jsonl --out /result \\
        --worker http://worker:8080 --oracle-port 8081

The run stops at the first failure, which names its kind (arh_grader.KINDS),
the instance and what went wrong. A result is written in every case. Exit
status: 0 when a result with the submission's verdict was written (valid or
not), 2 when the set or the grader failed (invalid_set, grader_error).

Before the first instance the grader sets aside RESERVE_BYTES (8 MiB,
arh_grader/result.py) beside result.json and writes the result into that
space, so a disk that someone else fills during the run still takes it.
When no result can be written (no room for the reservation at the start,
or a write that fails even so) the exit status is 2, grader_error's, and
stderr holds one line naming the path and the system's error, no traceback:

    grade: cannot write /result/result.json: No space left on device

The command is the SDK's (arh_grader/commands/grade.py), handed group
testing (group_testing/plugin.py, PROBLEM).
"""

import sys

from arh_grader.commands import grade
from group_testing.plugin import PROBLEM


def main(argv=None):
    return grade.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
