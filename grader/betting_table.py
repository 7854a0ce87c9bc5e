"""The characteristics of the comparison's default test
(grader/arh_grader/compare/betting.py) on realistic score differences,
simulated: P(accept), comparisons, and the
confidence sequence's coverage at the stop, for each pair of real testers
(group_testing/pairs.py) shifted to each target mean E[d].

    python3 grader/betting_table.py                 # 200 runs a cell, about a minute
    python3 grader/betting_table.py --runs 1000     # the manual's table

The test's settings are options, as in grader/compare.py. The runs are
seeded: the same command prints the same table. The test itself is
arh_grader/compare/betting.py.
"""

import argparse
import sys

from arh_grader.compare import betting
from group_testing import pairs

RUNS = 200            # simulated runs a cell, by default (the manual's table has 1000)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="simulated runs a cell")
    parser.add_argument("--count", type=int, default=pairs.COUNT,
                        help="instances each pair's differences are computed on")
    parser.add_argument("--alpha", type=float, default=betting.ALPHA)
    parser.add_argument("--beta", type=float, default=betting.BETA)
    parser.add_argument("--delta", type=float, default=betting.DELTA)
    parser.add_argument("--max-comparisons", type=int, default=betting.MAX_COMPARISONS)
    args = parser.parse_args(argv)
    if args.runs < 1 or args.count < 1:
        parser.error("--runs and --count must be at least 1")
    try:
        settings = betting.Settings(alpha=args.alpha, beta=args.beta, delta=args.delta,
                                    max_comparisons=args.max_comparisons)
    except betting.SettingsError as e:
        parser.error(str(e))
    pools = pairs.pools(count=args.count)
    for line in betting.characteristics_table(settings, pools, runs=args.runs):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
