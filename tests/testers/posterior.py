"""A test fixture: the strongest honest tester we have, deterministic and
using only the priors and the answers (docs/scoring.md, "Headroom").

The whole instance is a pool known to hold a defective. While there is a
known-positive pool it is split: its least likely items, as many as make
the chance that they are all clean (given the pool is positive) nearest
1/2, are tested. A positive part becomes the pool, and the rest of the old
pool goes back to the free items at their priors (the positive part
explains the old pool's answer); a negative part is cleared. With no
positive pool, the least likely free items whose chance of all being clean
is nearest 1/2 are tested; when what would be left has less than TAIL of
-ln P(clean), it joins the pool, so no nearly surely clean test is spent on
it alone. A pool of one item is a defective.
"""

import math

TAIL = 0.7      # -ln P(all clean) below which the free items left join the pool
                # (chosen on the set instances.draw(500, "tune-set"), not the headroom set)


def least_likely_first(items, priors):
    return sorted(items, key=lambda i: (priors[i], i))


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
    weight = [-math.log1p(-p) for p in priors]       # -ln P(item is clean)
    positive = least_likely_first(range(n), priors)  # some item is defective
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
                free = least_likely_first(free + rest, priors)
            else:
                positive = rest
        else:
            k = prefix(free, weight, math.log(2))       # P(part clean) = 1/2
            if math.fsum(weight[i] for i in free[k:]) < TAIL:
                k = len(free)
            part, free = free[:k], free[k:]
            if test(part):
                positive = part
    return sorted(found)
