"""The chain of kept gains: the command of group_testing/chain.py, where
what it does is explained.

    python3 grader/chain.py
"""

import sys

from arh_grader.compare import betting
from group_testing.chain import main

if __name__ == "__main__":
    sys.exit(main(betting=betting))
