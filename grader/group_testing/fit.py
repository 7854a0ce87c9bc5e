"""The families fitted to the platform's table: how 500-instance sets drawn
by instances.py compare with the held-out set's figures (SPEC.md).

    python3 grader/fit.py              # the table for the current families
    python3 grader/fit.py --before     # the same for the families before the fit

Each figure is measured on SETS disjoint sets of SET_SIZE instances (set k
drawn with the seed "group-testing-fit/k") and printed as its mean +- its
standard deviation over the sets, beside the platform's value and the
distance between them in standard deviations. The calibration tester's
tests are counted in process by a plain counting function, and its
standard error is grader/mmi.py's bootstrap.
"""

import argparse
import math
import statistics

import mmi
from . import calibration, instances, problem

SETS = 12                         # disjoint sets the figures are measured on
SET_SIZE = 500                    # instances a set, the held-out set's size
SEED = "group-testing-fit"        # set k is drawn with "%s/%d" % (SEED, k)
TARGETS = (                       # (key, what it is, the held-out set's value)
    ("defectives", "defectives, mean", "6.37"),
    ("baseline", "baseline tests, mean", "54.19"),
    ("binary_entropy_ratio", "sum of binary entropies / baseline, mean", "0.75"),
    ("calibration", "calibration tester, relative_tests", "0.80"),
    ("calibration_se", "its bootstrap standard error", "0.0093"),
    ("baseline_floor", "raw baseline tests' floor (2 SE), tests", "4.5"),
)
DIGITS = {"defectives": 2, "baseline": 2, "binary_entropy_ratio": 3, "calibration": 4,
          "calibration_se": 4, "baseline_floor": 2}          # decimals printed
BEFORE = {                        # the families' settings before the fit
    "uniform": {"prior": (0.015, 0.05)},
    "two-tier": {"fraction": (0.03, 0.10), "high": (0.10, 0.30), "low": (0.004, 0.02)},
    "log-normal": {"spread": (1.25, 1.5), "mean": (0.01, 0.03), "cap": 0.5},
}


def count_tests(find, instance):
    """The tests a deterministic, pure tester makes on an instance, checking
    its answer; counted by a plain function, no oracle or worker."""
    truth = set(instance["defectives"])
    tests = 0

    def test(pool):
        nonlocal tests
        tests += 1
        return not truth.isdisjoint(pool)

    answer = find(instance["n"], instance["priors"], test)
    if answer != instance["defectives"]:
        raise ValueError("the tester's answer is not the defectives")
    return tests


def scores(find, items):
    """Each instance's tests / baseline for a tester."""
    return [count_tests(find, it) / it["baseline"] for it in items]


def set_figures(items):
    """The figures of TARGETS for one set, as a dict."""
    calibrated = scores(calibration.find, items)
    baselines = [it["baseline"] for it in items]
    return {
        "defectives": statistics.fmean(len(it["defectives"]) for it in items),
        "baseline": statistics.fmean(baselines),
        "binary_entropy_ratio": statistics.fmean(
            problem.binary_entropy_sum(it["priors"]) / it["baseline"] for it in items),
        "calibration": statistics.fmean(calibrated),
        "calibration_se": mmi.bootstrap_se(calibrated),
        "baseline_floor": 2 * mmi.bootstrap_se(baselines),
    }


def measure(*, sets=SETS, size=SET_SIZE, settings=None):
    """[(key, what, target, mean, sd)] over `sets` disjoint sets."""
    rows = [set_figures(instances.draw(size, "%s/%d" % (SEED, k), settings=settings))
            for k in range(sets)]
    return [(key, what, target, statistics.fmean(r[key] for r in rows),
             statistics.stdev(r[key] for r in rows)) for key, what, target in TARGETS]


def table(measured):
    """The measured figures as a Markdown table's lines."""
    lines = ["| figure | sets' mean +- sd | held-out set | distance (sd) |",
             "|---|---|---|---|"]
    for key, what, target, mean, sd in measured:
        d = DIGITS[key]
        lines.append("| %s | %.*f +- %.*f | %s | %+.1f |" % (
            what, d, mean, d, sd, target, (mean - float(target)) / sd if sd else math.inf))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=SETS, help="disjoint sets (2 or more)")
    parser.add_argument("--before", action="store_true",
                        help="the families' settings before the fit")
    args = parser.parse_args(argv)
    if args.sets < 2:
        parser.error("--sets must be at least 2, got %r" % args.sets)
    settings = BEFORE if args.before else instances.FAMILY_SETTINGS
    print("sets: %d of %d instances, seeds %s/0..%d" % (args.sets, SET_SIZE, SEED,
                                                        args.sets - 1))
    print("families: %s" % ("before the fit" if args.before else "current"))
    for line in table(measure(sets=args.sets, settings=settings)):
        print(line)
    return 0
