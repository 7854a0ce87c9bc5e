"""The families fitted to the platform's table: the command of
group_testing/fit.py, where its options are explained.

    python3 grader/fit.py
"""

import array
import math
import random
import sys

import mmi
from group_testing.fit import main


class SharedResamples:
    """mmi.bootstrap_se, bit for bit, for many score lists: the resampled
    indices depend only on the list's length, the resamples and the seed, so
    they are drawn once for each and reused by every list of that length (the
    fit takes two standard errors a set, of sets of the same size). The sums
    are math.fsum's, exact whatever the order, so each mean is the same float
    as mmi's."""

    def __init__(self):
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

    def __call__(self, scores, *, resamples=mmi.RESAMPLES, seed=mmi.SEED):
        k = len(scores)
        picked, pick, fsum = memoryview(self.indices(k, resamples, seed)), scores.__getitem__, math.fsum
        means = [fsum(map(pick, picked[j:j + k])) / k for j in range(0, k * resamples, k)]
        centre = math.fsum(means) / resamples
        return math.sqrt(math.fsum((m - centre) ** 2 for m in means) / (resamples - 1))


bootstrap_se = SharedResamples()

if __name__ == "__main__":
    sys.exit(main(bootstrap_se=bootstrap_se))
