"""The twenty-questions grader, as its container runs it: the template's run
engine, oracle and worker client with this problem's plug-in.

    python3 tq/grade.py --items sample/dev.jsonl --out /result \\
        --worker http://worker:8080 --oracle-port 8081

A result is written in every case. Exit status: 0 when the submission's
verdict was written (valid or not), 2 when the set or the grader failed.
"""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and tq
    import sdk_path  # noqa: F401

from arh_grader.commands import grade  # noqa: E402  (the SDK's command)

from tq.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return grade.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
