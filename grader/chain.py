"""The chain of kept gains: each step's challenger against its incumbent
through the mean test, on ten seeds, and the last step's tester against the
information floor (group_testing/chain.py says what each step is).

    python3 grader/chain.py
    python3 grader/chain.py --seeds 1

With --small-steps it measures instead whether small gains add up: a chain
of real steps of about 0.002 each (calibration to informed, slice by slice:
group_testing/steps.py) through the mean test at each DELTA:MAXIMUM of
--settings, the share of steps kept, the comparisons a step and the total
gain kept against the gain available.

    python3 grader/chain.py --small-steps                  # 10 seeds, 4 settings
    python3 grader/chain.py --small-steps --seeds 2 --settings 0.005:5000 0.002:10000
"""

import argparse
import sys

from arh_grader.compare import betting
from group_testing import chain, steps


def setting(text):
    """DELTA:MAXIMUM, as "0.002:10000"."""
    try:
        delta, maximum = text.split(":")
        return betting.Settings(delta=float(delta), max_comparisons=int(maximum))
    except (ValueError, betting.SettingsError) as e:
        raise argparse.ArgumentTypeError("a setting is DELTA:MAXIMUM, as 0.002:10000, "
                                         "got %r (%s)" % (text, e)) from None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=chain.SEEDS, help="seeds to run the chain on")
    parser.add_argument("--small-steps", action="store_true",
                        help="measure whether steps of about 0.002 add up (group_testing/"
                             "steps.py) in place of the chain of real testers")
    parser.add_argument("--slices", type=int, default=steps.SLICES,
                        help="with --small-steps: the steps from calibration to informed")
    parser.add_argument("--settings", type=setting, nargs="+", metavar="DELTA:MAXIMUM",
                        help="with --small-steps: the test's --delta and --max-comparisons, "
                             "a run of the chain each (default: %s)"
                             % " ".join("%g:%d" % c for c in steps.CONFIGS))
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.slices < 1:
        parser.error("--seeds and --slices must be at least 1, got %r and %r"
                     % (args.seeds, args.slices))
    if args.small_steps:
        configs = ([(s.delta, s.max_comparisons) for s in args.settings] if args.settings
                   else list(steps.CONFIGS))
        cells = steps.pool(slices=args.slices)
        for line in steps.lines(betting, cells, slices=args.slices, seeds=args.seeds,
                                configs=configs):
            print(line, flush=True)
        return 0
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
