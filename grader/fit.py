"""The families fitted to the platform's table: the command of
group_testing/fit.py, where its options are explained.

    python3 grader/fit.py
"""

import sys

from group_testing.fit import main

if __name__ == "__main__":
    sys.exit(main())
