"""The chain of kept gains: each step's challenger against its incumbent
through the mean test, on ten seeds, and the last step's tester against the
information floor (group_testing/chain.py says what each step is).

    python3 grader/chain.py
    python3 grader/chain.py --seeds 1
"""

import argparse
import sys

from arh_grader.compare import betting
from group_testing import chain


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=chain.SEEDS, help="seeds to run the chain on")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1, got %r" % args.seeds)
    results = chain.run(betting, seeds=args.seeds)
    print("settings: alpha %g, beta %g, delta %g" % (betting.ALPHA, betting.BETA, betting.DELTA))
    print("| seed | challenger | incumbent | decision | comparisons | mean difference "
          "(%g%% confidence sequence) |" % (100 * betting.CONFIDENCE))
    print("|---|---|---|---|---|---|")
    kept = 0
    for seed, rows in results:
        for challenger, incumbent, record, values in rows:
            mean, low, high = betting.confidence_sequence(values)
            print("| %s | %s | %s | %s | %d | %.4f (%.4f to %.4f) |"
                  % (seed, chain.name(challenger), chain.name(incumbent), record.decision,
                     record.comparisons, mean, low, high))
        kept += all(r[2].decision == betting.ACCEPT for r in rows)
    print("seeds_keeping_every_step: %d of %d" % (kept, len(results)))
    last = chain.STEPS[-1][0]
    score, floor = chain.final(last)
    print("final: %s" % chain.name(last))
    print("final_relative_tests: %.4f" % score)
    print("information_floor: %.4f" % floor)
    print("gap: %.4f" % (score - floor))
    print("within_close: %s" % ("yes" if score - floor <= chain.CLOSE else "no"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
