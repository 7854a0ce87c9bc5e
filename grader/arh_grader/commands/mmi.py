"""The noise floor of a result: how large a change in its score is real.
The result's instances are resampled with replacement (the problem's
RESAMPLING_SEED: the same result prints the same figures); the standard
deviation of the resampled mean score is its standard error, and the floor,
twice that, is printed beside the MMI of the problem's [metric] table.
Exit status 0; 2 for a file that is not a valid result of two or more
instances.
"""

import argparse
import json
import sys

from .. import stats


def main(problem, argv=None, *, doc=None):
    """Print a result's floor beside the MMI; the exit status."""
    parser = argparse.ArgumentParser(description=(doc or __doc__).split("\n\n")[0])
    parser.add_argument("result", help="a valid result.json")
    parser.add_argument("--resamples", type=int, default=stats.RESAMPLES)
    args = parser.parse_args(argv)
    try:
        with open(args.result, encoding="utf-8") as f:
            result = json.load(f)
        scores = [item[problem.SCORE] for item in result["items"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.stderr.write("mmi: cannot read scores from %r: %s\n" % (args.result, e))
        return 2
    if result.get("status") != "valid" or len(scores) < 2:
        sys.stderr.write("mmi: %r is not a valid result of two or more instances\n"
                         % args.result)
        return 2
    if args.resamples < 100:
        parser.error("--resamples must be at least 100, got %r" % args.resamples)
    mmi = problem.table("metric")["mmi"]
    se = stats.bootstrap_se(scores, resamples=args.resamples, seed=problem.RESAMPLING_SEED)
    print("result: %s" % args.result)
    print("instances: %d" % len(scores))
    print("%s: %.4f" % (problem.SCORE_NAME, result[problem.SCORE_NAME]))
    print("resamples: %d" % args.resamples)
    print("standard_error: %.4f" % se)
    print("floor: %.3f" % (2 * se))
    print("mmi: %s" % mmi)
    print("floor_within_mmi: %s" % ("true" if 2 * se <= mmi else "false"))
    return 0
