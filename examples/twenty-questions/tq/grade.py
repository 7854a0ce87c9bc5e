"""The twenty-questions grader, as its container runs it: the template's run
engine, oracle and worker client with this problem's plug-in.

    python3 tq/grade.py --items sample/dev.jsonl --out /result \\
        --worker http://worker:8080 --oracle-port 8081

A result is written in every case. Exit status: 0 when the submission's
verdict was written (valid or not), 2 when the set or the grader failed.
"""

import os
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [p for p in (os.path.join(PROJECT, os.pardir, os.pardir, "grader"),  # SDK, here
                            os.path.join(PROJECT, "grader"), PROJECT)   # or in a container; tq
                 if os.path.isdir(p) and p not in sys.path]

from arh_grader.commands import grade  # noqa: E402  (the SDK's command)

from tq.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return grade.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
