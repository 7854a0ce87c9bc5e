"""The SDK's grade command (arh_grader.commands.grade) for graph isomorphism
(gi/plugin.py, PROBLEM): python3 gi/grade.py --help lists its options."""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and gi
    import sdk_path  # noqa: F401

from arh_grader.commands import grade  # noqa: E402  (the SDK's command)

from gi.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return grade.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
