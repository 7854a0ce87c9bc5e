"""The sign test's figures for group testing's comparison (the test itself:
arh_grader/compare/sprt.py).

    python3 grader/sprt.py --exact                # error rates and costs, computed
    python3 grader/sprt.py --characteristics      # the same, simulated, in a table
"""

import sys

from arh_grader.compare import sprt_cli
from group_testing import seeds

if __name__ == "__main__":
    sys.exit(sprt_cli.main(seed=seeds.SPRT))
