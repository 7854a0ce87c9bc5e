"""Statistics every problem's tools share, knowing no problem.

    stats.bootstrap_se(scores, seed="my-problem-mmi")    # the mean's standard error, resampled
    stats.ideal_bootstrap_se(scores)                     # the figure it estimates, exactly
"""

import math
import random

RESAMPLES = 20000        # bootstrap resamples; the SE's own error is then ~0.5%


def bootstrap_se(scores, *, resamples=RESAMPLES, seed):
    """The bootstrap standard error of the mean of `scores`: the standard
    deviation of the means of `resamples` resamples with replacement, drawn
    with `seed` (the same seed, the same figure)."""
    rng = random.Random(seed)
    k = len(scores)
    means = [math.fsum(rng.choices(scores, k=k)) / k for _ in range(resamples)]
    centre = math.fsum(means) / resamples
    return math.sqrt(math.fsum((m - centre) ** 2 for m in means) / (resamples - 1))


def ideal_bootstrap_se(scores):
    """The standard error bootstrap_se estimates, without resampling: its
    limit as the resamples grow (Efron's ideal bootstrap). A resample's mean
    is the mean of k independent draws from the k scores, so its variance is
    the scores' population variance over k, and its standard deviation
    sqrt(sum((x - mean)**2)) / k. bootstrap_se's own error around it is about
    1 / sqrt(2 * resamples) of it (0.5% at RESAMPLES); the tools that measure
    many sets (the fit, the headroom) use this one, which costs one pass."""
    k = len(scores)
    mean = math.fsum(scores) / k
    return math.sqrt(math.fsum((x - mean) ** 2 for x in scores)) / k
