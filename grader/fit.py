"""The families fitted to the platform's table: 12 sets of 500 instances
drawn from the current families, each figure's mean and spread beside the
held-out set's (group_testing/fit.py says how each is measured).

    python3 grader/fit.py                # the current families
    python3 grader/fit.py --before       # the families before the fit
    python3 grader/fit.py --sample       # sets of 40 against the public sample
"""

import argparse
import sys

from group_testing import fit, instances


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, help="disjoint sets (2 or more; default %d, "
                        "%d with --sample)" % (fit.SETS, fit.SAMPLE_SETS))
    parser.add_argument("--before", action="store_true",
                        help="the families' settings before the fit")
    parser.add_argument("--sample", action="store_true", help="sets of %d against the "
                        "platform's sample instead of %d against its held-out set"
                        % (fit.SAMPLE_SIZE, fit.SET_SIZE))
    args = parser.parse_args(argv)
    if args.sets is None:
        args.sets = fit.SAMPLE_SETS if args.sample else fit.SETS
    if args.sets < 2:
        parser.error("--sets must be at least 2, got %r" % args.sets)
    settings = fit.BEFORE if args.before else instances.FAMILY_SETTINGS
    size = fit.SAMPLE_SIZE if args.sample else fit.SET_SIZE
    print("sets: %d of %d instances, seeds %s/0..%d" % (args.sets, size, fit.SEED, args.sets - 1))
    print("families: %s" % ("before the fit" if args.before else "current"))
    measured = fit.measure(sets=args.sets, size=size, settings=settings,
                           targets=fit.SAMPLE_TARGETS if args.sample else None)
    for line in fit.table(measured, against="sample" if args.sample else "held-out set"):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
