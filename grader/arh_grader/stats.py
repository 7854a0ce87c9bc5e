"""Statistics every problem's tools share, knowing no problem.

    stats.bootstrap_se(scores, seed="my-problem-mmi")    # the mean's standard error
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
