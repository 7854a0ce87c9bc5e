"""The families fitted to the platform's table: the command of
group_testing/fit.py, where its options are explained.

    python3 grader/fit.py
"""

import sys

import mmi
from group_testing.fit import main

if __name__ == "__main__":
    sys.exit(main(bootstrap_se=mmi.bootstrap_se))
