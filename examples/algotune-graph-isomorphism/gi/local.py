"""The SDK's local command (arh_grader.commands.local) for graph isomorphism
(gi/plugin.py, PROBLEM): python3 gi/local.py --help lists its options."""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and gi
    import sdk_path  # noqa: F401

from arh_grader.commands import local  # noqa: E402  (the SDK's command)

from gi.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return local.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
