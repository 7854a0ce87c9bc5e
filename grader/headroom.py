"""The headroom table: the command of group_testing/headroom.py, where its
options are explained.

    python3 grader/headroom.py
"""

import sys

from group_testing.headroom import main

if __name__ == "__main__":
    sys.exit(main())
