"""The families fitted to the platform's table: the command of
group_testing/fit.py, where its options are explained.

    python3 grader/fit.py
"""

import sys

from arh_grader import stats
from group_testing import seeds
from group_testing.fit import main


bootstrap_se = stats.SharedResamples(seed=seeds.MMI)   # mmi.bootstrap_se, drawn once a length

if __name__ == "__main__":
    sys.exit(main(bootstrap_se=bootstrap_se))
