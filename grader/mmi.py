"""The noise floor of a result: how large a change in relative_tests is real.

    python3 grader/mmi.py result/result.json

Resamples the result's instances with replacement (a fixed seed, so the same
result prints the same figures), takes the standard deviation of the
resampled mean score as its standard error, and prints the floor, twice that,
beside the MMI of autoresearch.toml. The MMI is the calibration tester's
floor on a 500-instance set, rounded (PROGRAM.md, "Scoring").
"""

import argparse
import json
import sys

import grade
from arh_grader import stats
from arh_grader.stats import RESAMPLES
from group_testing import seeds

SEED = seeds.MMI


def bootstrap_se(scores, *, resamples=RESAMPLES, seed=SEED):
    """The bootstrap standard error of the mean of `scores` (arh_grader.stats),
    with group testing's seed."""
    return stats.bootstrap_se(scores, resamples=resamples, seed=seed)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="a valid result.json")
    parser.add_argument("--resamples", type=int, default=RESAMPLES)
    args = parser.parse_args(argv)
    try:
        with open(args.result, encoding="utf-8") as f:
            result = json.load(f)
        scores = [item["score"] for item in result["items"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.stderr.write("mmi: cannot read scores from %r: %s\n" % (args.result, e))
        return 2
    if result.get("status") != "valid" or len(scores) < 2:
        sys.stderr.write("mmi: %r is not a valid result of two or more instances\n"
                         % args.result)
        return 2
    if args.resamples < 100:
        parser.error("--resamples must be at least 100, got %r" % args.resamples)
    mmi = grade.load_settings(table="metric")["mmi"]
    se = bootstrap_se(scores, resamples=args.resamples)
    print("result: %s" % args.result)
    print("instances: %d" % len(scores))
    print("relative_tests: %.4f" % result["relative_tests"])
    print("resamples: %d" % args.resamples)
    print("standard_error: %.4f" % se)
    print("floor: %.3f" % (2 * se))
    print("mmi: %s" % mmi)
    print("floor_within_mmi: %s" % ("true" if 2 * se <= mmi else "false"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
