"""The exact one-sided binomial test of a win rate of one half, and the
fewest comparisons it needs: the fixed-sample design a sequential test is
measured against.

    binomial.fixed_sample_size(0.05, 0.05, 0.1)     # 268
    binomial.binomial_test(268, 0.05, 0.6)          # (148, 0.0495..., 0.9507...)

Tails are summed in floating point from the term nearest the mean outwards,
which is exact to about 1e-13; nothing here raises for n >= 1 and
probabilities strictly between 0 and 1.
"""

import math
import statistics

P0 = 0.5              # the win rate tested against (fraction of decisive comparisons)


def _binomial_pmf(n, k, p):
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * math.log(p) + (n - k) * math.log1p(-p))


def _tail(n, c, p):
    """P(Binomial(n, p) >= c). It sums from the term nearest the mean
    outwards, and stops where the terms fall below what a float can hold."""
    width = 40 * math.sqrt(n * p * (1 - p)) + 40       # beyond 38 sd a term is < 1e-308
    terms = []
    if c <= n * p:                                      # 1 - P(< c): the terms below c
        ks = range(c - 1, max(-1, math.floor(c - 1 - width)), -1)
        step = lambda k: k / (n - k + 1) * (1 - p) / p           # noqa: E731  pmf(k-1)/pmf(k)
    else:
        ks = range(c, min(n, math.ceil(c + width)) + 1)
        step = lambda k: (n - k) / (k + 1) * p / (1 - p)         # noqa: E731  pmf(k+1)/pmf(k)
    term = _binomial_pmf(n, ks[0], p) if ks else 0.0
    for k in ks:
        terms.append(term)
        term *= step(k)
    total = math.fsum(terms)
    return 1.0 - total if c <= n * p else total


def binomial_test(n, alpha, p1):
    """The one-sided test of p = 0.5 on n decisive comparisons: (cutoff c,
    size P(wins >= c | 0.5), power P(wins >= c | p1)) for the smallest c
    whose size is at most alpha (c = n + 1 when none is: the test never
    accepts)."""
    def tail(c, p):
        return _tail(n, c, p) if c <= n else 0.0

    z = statistics.NormalDist().inv_cdf(1.0 - alpha)
    c = min(n + 1, math.ceil(n / 2 + (z + 2.0) * math.sqrt(n) / 2))   # a guess near it
    while tail(c, P0) > alpha:
        c += 1
    while c > 0 and tail(c - 1, P0) <= alpha:
        c -= 1
    return c, tail(c, P0), tail(c, p1)


def fixed_sample_size(alpha, beta, delta):
    """The fewest decisive comparisons with which the exact one-sided binomial
    test of p = 0.5 has size <= alpha and power >= 1 - beta at 0.5 + delta
    (268 for the defaults: cutoff 148, size 0.0495, power 0.9507).

    The randomized Neyman-Pearson test of size alpha is the most powerful, and
    its power never falls as n grows, so no n below the first where it
    reaches 1 - beta can do; that n is found by bisection, and the search for
    the first n whose plain cutoff test works starts there."""
    p1 = P0 + delta

    def randomized_power(n):
        c, size, power = binomial_test(n, alpha, p1)
        if c == 0:
            return 1.0
        return power + (alpha - size) / _binomial_pmf(n, c - 1, P0) * _binomial_pmf(n, c - 1, p1)

    high = 1
    while randomized_power(high) < 1 - beta:
        high *= 2
    low = high // 2                                   # fails, or 0
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if randomized_power(middle) < 1 - beta else (low, middle)
    n = high
    while binomial_test(n, alpha, p1)[2] < 1 - beta:
        n += 1
    return n
