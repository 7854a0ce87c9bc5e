"""The contract's four tables, in Markdown, as CONTRACT.md shows them: group
testing's contract (group_testing/contract.py) on the SDK's tables
(arh_grader/conformance/tables.py).

    python3 grader/rules.py            # the four tables, in Markdown
"""

import sys

from group_testing import contract


def main(argv=None):
    """Print the tables; no arguments are taken."""
    args = sys.argv[1:] if argv is None else argv
    if args:
        sys.stderr.write("rules: takes no arguments, got %r\n" % (args,))
        return 2
    for name, text in contract.markdown().items():
        print("%s:\n\n%s" % (name, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
