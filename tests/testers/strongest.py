"""A test fixture: the strongest honest tester we have, deterministic and
using only the priors and the answers (docs/scoring.md, "Headroom").

It keeps the state of tests/testers/posterior.py: free items at their
priors and at most one pool known to hold a defective, every item sorted
least likely first, and it tests prefixes. Where posterior.py takes the
prefix whose chance of being clean is nearest 1/2, this one weighs a few
prefixes around it by their expected cost, from a dynamic programme:

- an item left free is worth a price, the expected tests per item of the
  best nested strategy on endless items of its prior (a fixed point:
  resolve(m) is the cost of a positive pool of m items, each item sent
  back to the free ones costing the price, and the price is the least
  (1 + P(pool positive) resolve(x)) / x);
- a positive pool is split where 1 + P(part positive) (resolve(part) + the
  price of the rest) + P(part clean) resolve(rest) is least, over segments
  of the pool's order (every split of a small pool, WIDTH of them about the
  half-mass point of a large one);
- a free test takes the prefix with the least 1 + P(positive) resolve(part)
  less the price of its items; as in posterior.py, when what it would
  leave has less than TAIL of -ln P(clean), everything left goes in.

An instance whose priors are all equal is solved by the same programme on
counts alone, with the cost of u free items worked out exactly (u down to
0). The priors the programme sees are scaled by GAMMA: the score divides
each instance's tests by its baseline, which grows with the defectives, so
the instances with few defectives weigh more than their share of the
tests. The constants were chosen on instances.draw(3000, "tune-set"), not
on the headroom's set.
"""

import bisect
import math

TAIL = 0.7      # -ln P(all clean) below which the free items left join the test
GAMMA = 0.8     # the priors' scale in the programme
WIDTH = 5       # splits tried on each side of the half-mass point
SMALL = 8       # pools this small try every split
ALONE = 0.38    # a prior at or above which an item is priced as tested alone
GRID = 8        # price grid points per halving of the prior
_PRICES = {}    # the price of each grid point, computed once


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


def equal_tables(p, n):
    """For n items of prior p: (resolve, split, price, cost, free), where
    resolve[m] and split[m] are the cost and best first part of a positive
    pool of m, price the fixed point, cost[u] and free[u] the cost and best
    test of u free items."""
    q = 1.0 - p
    w = -math.log(q)
    qs = [q ** x for x in range(n + 1)]
    splits = [()] * (n + 1)     # each m's (x, m - x, P(part positive), P(part clean))
    for m in range(2, n + 1):
        qm = qs[m]
        if m <= SMALL:
            cands = range(1, m)
        else:
            c = int(-math.log((1 + qm) / 2) / w)
            cands = range(max(1, c - WIDTH + 1), min(m - 1, c + WIDTH) + 1)
        rows = []
        for x in cands:
            clean = (qs[x] - qm) / (1 - qm)
            rows.append((x, m - x, 1 - clean, clean))
        splits[m] = rows
    price = 1.0
    for _ in range(8):
        resolve, split = [0.0] * (n + 1), [1] * (n + 1)
        for m in range(2, n + 1):
            best, bx = math.inf, 1
            for x, r, positive, clean in splits[m]:
                v = 1 + positive * (resolve[x] + price * r) + clean * resolve[r]
                if v < best:
                    best, bx = v, x
            resolve[m], split[m] = best, bx
        c = min(n, int(math.log(2) / w))
        new = min((1 + (1 - qs[x]) * resolve[x]) / x
                  for x in range(max(1, c - 2 * WIDTH), min(n, c + 2 * WIDTH) + 1))
        if abs(new - price) < 1e-9:
            break
        price = new
    cost, free = [0.0] * (n + 1), [0] * (n + 1)
    c = min(n, int(math.log(2) / w))
    for u in range(1, n + 1):
        cands = set(range(max(1, c - 2 * WIDTH), min(u, c + 2 * WIDTH) + 1))
        cands.add(u)
        if u <= SMALL:
            cands.update(range(1, u + 1))
        best, bx = math.inf, u
        for x in sorted(cands):
            v = 1 + (1 - qs[x]) * resolve[x] + cost[u - x]
            if v < best:
                best, bx = v, x
        cost[u], free[u] = best, bx
    return resolve, split, price, cost, free


def find_equal(n, p, test):
    """All priors equal: the tables' strategy on counts."""
    _, split, _, _, free_test = equal_tables(p * GAMMA, n)
    positive, free, found = list(range(n)), [], []
    while positive or free:
        if len(positive) == 1:
            found.append(positive.pop())
        elif positive:
            k = split[len(positive)]
            part, rest = positive[:k], positive[k:]
            if test(part):
                positive = part
                free = sorted(free + rest)
            else:
                positive = rest
        else:
            k = free_test[len(free)]
            part, free = free[:k], free[k:]
            if test(part):
                positive = part
    return sorted(found)


def price(p):
    """What a free item of prior p is worth, in tests (on a grid of p)."""
    g = round(math.log2(p) * GRID)
    if g not in _PRICES:
        pg = 2 ** (g / GRID) * GAMMA
        _PRICES[g] = 1.0 if pg >= ALONE else equal_tables(pg, min(512, int(3 / pg) + 12))[2]
    return _PRICES[g]


class Segments:
    """The cost of resolving positive segments [i, j) of `items` (sorted
    least likely first), j <= limit, memoized, with each one's best split."""

    def __init__(self, items, weight, prices, limit=None):
        limit = len(items) if limit is None else limit
        self.items = items
        self.cw, self.cp = [0.0], [0.0]
        for i in items[:limit]:
            self.cw.append(self.cw[-1] + weight[i] * GAMMA)
            self.cp.append(self.cp[-1] + prices[i])
        self.clean = [math.exp(-w) for w in self.cw]     # P(the first k clean), GAMMA-scaled
        self.width = width = limit + 1      # segment [i, j) is memoized at i * width + j
        self.cost = [None] * (width * width)
        self.cost[1::width + 1] = [0.0] * limit     # one item: nothing to resolve
        self.split = {}

    def resolve(self, i, j):
        """(cost, k): the cost of positive segment [i, j), its part [i, k)."""
        if j - i <= 1:
            return 0.0, None
        key = i * self.width + j
        got = self.cost[key]
        if got is None:
            got = self.solve(i, j)
        return got, self.split[key]

    def solve(self, i, j):
        """The cost of positive segment [i, j) of at least 2 items, not yet
        memoized; memoizes it and the segments it needs."""
        cw, cp, cost, width, pc = self.cw, self.cp, self.cost, self.width, self.clean
        ci = cw[i]
        pci = pc[i]
        none = pc[j] / pci                      # P(segment clean)
        if j - i <= SMALL:
            first, last = i + 1, j - 1
        else:                                   # the first k of half the mass
            lo = bisect.bisect_left(cw, ci - math.log((1 + none) / 2), i + 1, j - 1)
            first = i + 1 if lo - WIDTH < i + 1 else lo - WIDTH
            last = j - 1 if lo + WIDTH - 1 > j - 1 else lo + WIDTH - 1
        some = 1 - none
        cpj = cp[j]
        left = i * width
        right = first * width + j               # [k, j)'s place
        best, split = math.inf, None
        solve = self.solve
        for k in range(first, last + 1):
            a = cost[left + k]
            if a is None:
                a = solve(i, k)
            b = cost[right]
            if b is None:
                b = solve(k, j)
            right += width
            clean = (pc[k] / pci - none) / some
            v = 1 + (1 - clean) * (a + cpj - cp[k]) + clean * b
            if v < best:
                best, split = v, k
        cost[left + j] = best
        self.split[left + j] = split
        return best


def find(n, priors, test):
    if min(priors) == max(priors):
        return find_equal(n, priors[0], test)
    weight = [-math.log1p(-p) for p in priors]        # -ln P(item is clean)
    prices = [price(p) for p in priors]
    base = least_likely_first(range(n), priors)       # some item is defective
    segments = Segments(base, weight, prices)
    lo, hi = 0, n                                     # the positive pool: base[lo:hi]
    free, found = [], []
    while hi > lo or free:
        if hi - lo == 1:
            found.append(base[lo])
            lo = hi = 0
        elif hi > lo:
            k = segments.resolve(lo, hi)[1]
            if test(base[lo:k]):
                free = least_likely_first(free + base[k:hi], priors)
                hi = k
            else:
                lo = k
        else:
            near = prefix(free, weight, math.log(2))  # P(part clean) nearest 1/2
            most = min(len(free), near + WIDTH)       # the largest part weighed
            options = Segments(free, weight, prices, most)
            clean, cp = options.clean, options.cp
            best = (math.inf, near)
            for k in range(max(1, near - WIDTH), most + 1):
                v = 1 + (1 - clean[k]) * options.resolve(0, k)[0] - cp[k]
                if v < best[0]:
                    best = (v, k)
            k = best[1]
            if math.fsum(weight[i] for i in free[k:]) < TAIL:
                k = len(free)
            if k > most:                              # everything left goes in
                options = Segments(free, weight, prices)
            if test(free[:k]):
                base, segments, lo, hi = free, options, 0, k
            free = free[k:]
    return sorted(found)
