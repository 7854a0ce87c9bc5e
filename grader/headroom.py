"""The headroom table: the command of group_testing/headroom.py, where its
options are explained.

    python3 grader/headroom.py
"""

import functools
import sys

from arh_grader import stats
from group_testing.headroom import main
from group_testing.plugin import PROBLEM

if __name__ == "__main__":
    sys.exit(main(bootstrap_se=functools.partial(stats.bootstrap_se,
                                                 seed=PROBLEM.RESAMPLING_SEED),
                  mmi_value=PROBLEM.table("metric")["mmi"]))
