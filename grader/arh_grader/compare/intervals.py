"""The score difference shown beside a sign test's decision: the mean of
the values with its normal 95% interval, for every problem's comparison.

    intervals.mean_interval([0.1, -0.2, 0.05])    # (mean, low, high)
    intervals.difference_text(values)             # "MEAN (95% interval LOW to HIGH, N comparisons)"
"""

import math
import statistics

Z95 = statistics.NormalDist().inv_cdf(0.975)    # the 95% interval's half-width, in standard errors


def mean_interval(values):
    """(mean, low, high) of `values`, low and high the normal 95% interval
    on the mean (None with fewer than 2 values); None when there is none.
    The score difference beside the sign, for every problem's comparison."""
    if not values:
        return None
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None, None
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def difference_text(values):
    """The summary's `score_difference` of `values`: "-" when there are
    none, else "MEAN (95% interval LOW to HIGH, N comparisons)"."""
    found = mean_interval(values)
    if found is None:
        return "-"
    return "%.4f (95%% interval %s, %d comparisons)" % (
        found[0], "-" if found[1] is None else "%.4f to %.4f" % found[1:], len(values))
