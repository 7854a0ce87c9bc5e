"""Statistics every problem's tools share, knowing no problem.

    stats.bootstrap_se(scores, seed="my-problem-mmi")    # the mean's standard error
    shared = stats.SharedResamples(seed="my-problem-mmi")
    shared(scores)                                       # the same float, drawn once a length
"""

import array
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


class SharedResamples:
    """bootstrap_se, bit for bit, for many score lists: the resampled
    indices depend only on the list's length, the resamples and the seed, so
    they are drawn once for each and reused by every list of that length (the
    fit takes two standard errors a set, of sets of the same size). The sums
    are math.fsum's, exact whatever the order, so each mean is the same float
    as bootstrap_se's. `seed` is the one a call takes when it gives none."""

    def __init__(self, *, seed):
        self.seed = seed
        self.drawn = {}

    def indices(self, k, resamples, seed):
        """The indices rng.choices(scores, k=k) picks, resample after resample."""
        key = (k, resamples, seed)
        if key not in self.drawn:
            rng = random.Random(seed)
            rand, floor, n = rng.random, math.floor, float(k)   # as Random.choices does
            picked = array.array("H" if k <= 0xFFFF else "L")
            for _ in range(resamples):
                picked.extend([floor(rand() * n) for _ in range(k)])
            self.drawn[key] = picked
        return self.drawn[key]

    def __call__(self, scores, *, resamples=RESAMPLES, seed=None):
        seed = self.seed if seed is None else seed
        k = len(scores)
        picked = memoryview(self.indices(k, resamples, seed))
        pick, fsum = scores.__getitem__, math.fsum
        means = [fsum(map(pick, picked[j:j + k])) / k for j in range(0, k * resamples, k)]
        centre = math.fsum(means) / resamples
        return math.sqrt(math.fsum((m - centre) ** 2 for m in means) / (resamples - 1))
