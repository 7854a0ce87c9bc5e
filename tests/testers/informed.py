"""A test fixture: an honest, deterministic, near-optimal tester that uses
only the priors and the answers (about 0.75 relative_tests).

The whole set is known to hold a defective. While a pool is known positive,
it is split: the most likely items, as many as make the chance that they are
all clean (given the pool is positive) nearest 1/2, are tested; a positive
part becomes the pool and the rest go back to their priors, a negative part
is cleared. With no positive pool, the most likely unresolved items whose
chance of all being clean is nearest 1/2 are tested. A pool of one item is a
defective.
"""

import math


def most_likely_first(items, priors):
    return sorted(items, key=lambda i: (-priors[i], i))


def prefix(items, weight, target):
    """The length k >= 1 of the prefix of `items` whose summed weight is
    nearest `target`."""
    best, best_gap, total = 1, math.inf, 0.0
    for k, i in enumerate(items, 1):
        total += weight[i]
        gap = abs(total - target)
        if gap < best_gap:
            best, best_gap = k, gap
        elif total > target:
            break
    return best


def find(n, priors, test):
    weight = [-math.log1p(-p) for p in priors]      # -ln P(item is clean)
    positive = most_likely_first(range(n), priors)  # some item is defective
    free, found = [], []
    while positive or free:
        if len(positive) == 1:
            found.append(positive.pop())
        elif positive:
            # P(part clean | pool positive) = (e^-a - e^-t) / (1 - e^-t) = 1/2
            t = math.fsum(weight[i] for i in positive)
            k = min(prefix(positive, weight, -math.log((1 + math.exp(-t)) / 2)),
                    len(positive) - 1)
            part, rest = positive[:k], positive[k:]
            if test(part):
                positive = part
                free = most_likely_first(free + rest, priors)
            else:
                positive = rest
        else:
            k = prefix(free, weight, math.log(2))      # P(part clean) = 1/2
            part, free = free[:k], free[k:]
            if test(part):
                positive = part
    return sorted(found)
