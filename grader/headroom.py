"""The headroom table: the command of group_testing/headroom.py, where its
options are explained.

    python3 grader/headroom.py
"""

import sys

import grade
import mmi
from group_testing.headroom import main

if __name__ == "__main__":
    sys.exit(main(bootstrap_se=mmi.bootstrap_se,
                  mmi_value=grade.load_settings(table="metric")["mmi"]))
