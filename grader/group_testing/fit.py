"""The families fitted to the platform's table: how 500-instance sets drawn
by instances.py compare with the held-out set's figures (SPEC.md).

    python3 grader/fit.py              # the table for the current families
    python3 grader/fit.py --before     # the same for the families before the fit
    python3 grader/fit.py --sample     # sets of 40 against the platform's sample

Each figure is measured on SETS disjoint sets of SET_SIZE instances (set k
drawn with the seed "group-testing-fit/k") and printed as its mean +- its
standard deviation over the sets, beside the platform's value and the
distance between them in standard deviations. The calibration tester's
tests are counted in process by a plain counting function, and each
standard error is the ideal bootstrap's (arh_grader.stats): the limit that
grader/mmi.py's 20,000 resamples estimate to about 0.5%, in one pass.
"""

import argparse
import math
import statistics

from arh_grader import stats

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
SAMPLE_SIZE = 40                  # the platform's sample, one draw of 40 (--sample)
SAMPLE_SETS = 100                 # sets of 40 that --sample measures by default
SAMPLE_TARGETS = {"defectives": "7.40", "baseline": "61.95", "binary_entropy_ratio": "0.82"}
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
        "calibration_se": stats.ideal_bootstrap_se(calibrated),
        "baseline_floor": 2 * stats.ideal_bootstrap_se(baselines),
    }


def measure(*, sets=SETS, size=SET_SIZE, settings=None, targets=None):
    """[(key, what, target, mean, sd)] over `sets` disjoint sets; `targets`
    ({key: value}, a missing key has none) replaces the held-out set's."""
    rows = [set_figures(instances.draw(size, "%s/%d" % (SEED, k), settings=settings))
            for k in range(sets)]
    return [(key, what, target if targets is None else targets.get(key),
             statistics.fmean(r[key] for r in rows), statistics.stdev(r[key] for r in rows))
            for key, what, target in TARGETS]


def table(measured, *, against="held-out set"):
    """The measured figures as a Markdown table's lines."""
    lines = ["| figure | sets' mean +- sd | %s | distance (sd) |" % against,
             "|---|---|---|---|"]
    for key, what, target, mean, sd in measured:
        d = DIGITS[key]
        distance = "-" if target is None else "%+.1f" % (
            (mean - float(target)) / sd if sd else math.inf)
        lines.append("| %s | %.*f +- %.*f | %s | %s |" % (
            what, d, mean, d, sd, "-" if target is None else target, distance))
    return lines
