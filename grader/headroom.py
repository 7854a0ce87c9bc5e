"""The headroom table: binary splitting, the calibration tester and three
stronger testers on the 500-instance set, each score with its floor of
twice its bootstrap standard error, against the MMI, and the information
floor (group_testing/headroom.py says what each row is).

    python3 grader/headroom.py
"""

import argparse
import sys

from group_testing import headroom, instances
from group_testing.plugin import PROBLEM


def main(argv=None):
    mmi_value = PROBLEM.table("metric")["mmi"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=headroom.COUNT, help="instances of the set")
    args = parser.parse_args(argv)
    if args.count < 2:
        parser.error("--count must be at least 2, got %r" % args.count)
    rows = headroom.measure(instances.draw(args.count, headroom.SEED))
    print("seed: %s" % headroom.SEED)
    print("instances: %d" % args.count)
    print("mmi: %s" % mmi_value)
    for line in headroom.table(rows, mmi_value=mmi_value):
        print(line)
    scores = dict((r[0], r[1]) for r in rows)
    left = scores[headroom.TESTERS[-1][0]] - scores[headroom.FLOOR]
    print("strongest_above_floor: %.4f (%.1f MMIs)" % (left, left / mmi_value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
