"""The score of a round of twenty questions, and what information allows.

    score.round_score(found=True, calls=5)           # 0.9
    score.best_expected_score(1472)                  # the bound for a pool of 1,472
    score.round_bound(pool=1472, index=0)            # the bound of a set's round 0
    score.saved_bits(found=True, calls=5, candidates=1472)

Pure computation, no I/O and no import of the grader: the policy route
uses it as well as the grader.
"""

import functools
import math
import operator
from dataclasses import dataclass

BUDGET = 15             # calls a round may use, guesses included
PRIZE_CALLS = 50        # a found animal is worth 50 calls: each call costs 1/50
CALL_COST = 1 / PRIZE_CALLS     # 0.02 of a point a call
MAX_CANDIDATES = 1472   # the largest pool the bound is tabulated for


def round_score(found, calls):
    """max(0, found - 0.02 * calls): 0.98 for a first-call correct guess, 0
    for a round that did not find its animal. Computed in whole fiftieths,
    so every route gets the same float. ValueError for negative calls."""
    if calls < 0:
        raise ValueError("calls must be at least 0, got %r" % (calls,))
    return max(0, PRIZE_CALLS * bool(found) - calls) / PRIZE_CALLS


@dataclass(frozen=True)
class Round:
    """One round's outcome, whichever route played it: its `animal`,
    whether it was `found`, the `calls` used, the `refused` queries, and the
    `transcript`, a tuple of (query, answer) pairs for the counted calls."""
    animal: int
    found: bool
    calls: int
    refused: int
    transcript: tuple

    @property
    def score(self):
        return round_score(self.found, self.calls)


def mean_score(rounds):
    """The metric: the mean of the rounds' scores (math.fsum: exact, so the
    same whatever the order). ValueError for no rounds."""
    if not rounds:
        raise ValueError("no rounds to average")
    return math.fsum(r.score for r in rounds) / len(rounds)


def is_concave(row):
    """Whether row's steps row[c + 1] - row[c] never grow."""
    steps = list(map(operator.sub, row[1:], row[:-1]))
    return all(map(operator.ge, steps[:-1], steps[1:]))


@functools.lru_cache(maxsize=None)
def _table(budget):
    """best[r][c] for 0 <= r <= budget and 0 <= c <= MAX_CANDIDATES: see
    best_expected_score. The best ask of c candidates is the best sum
    prev[k] + prev[c - k]; where prev is concave (every row here is: the
    check is made), that sum grows as k nears c / 2, since its step
    (prev[k + 1] - prev[k]) - (prev[c - k] - prev[c - k - 1]) is then at
    least 0, so the even split is best and the row costs one pass; a row
    that is not concave tries every split."""
    best = [[0] * (MAX_CANDIDATES + 1)]
    for left in range(1, budget + 1):
        prev = best[-1]
        call = budget - left + 1              # the number of the call made now
        row = [0] * (MAX_CANDIDATES + 1)
        concave = is_concave(prev)
        for c in range(1, MAX_CANDIDATES + 1):
            guess = PRIZE_CALLS - call + prev[c - 1]
            half = c // 2                     # split k / c - k, k = 0 .. c // 2
            if concave:
                ask = prev[half] + prev[c - half]
            else:
                ask = max(map(operator.add, prev[:half + 1], prev[c - half:c + 1][::-1]))
            row[c] = max(0, guess, ask)
        best.append(row)
    return best


def best_expected_score(candidates, *, budget=BUDGET):
    """The highest expected round score any strategy can reach when the
    hidden animal is equally likely to be each of `candidates` animals known
    to it, within `budget` calls (BUDGET unless a test says otherwise).

    Why it is a valid bound. A deterministic strategy is a tree of calls,
    each with two outcomes. An ask splits the animals still possible into two
    parts; a guess has one outcome, "correct", reached by one animal only,
    and the others go on through "wrong". Allowing an ask to split the
    candidates in ANY proportion (the matrix allows far fewer splits) can
    only raise the best score, and then only the number of candidates and of
    calls left matter. In fiftieths of a point, with `left` calls left of
    the budget, so that the next call is call number budget - left + 1:

        best(c, 0) = best(0, left) = 0
        best(c, left) = max( 0,                                     stop
                             50 - call + best(c - 1, left - 1),     guess one
                             max_k best(k, left - 1)
                                   + best(c - k, left - 1) )        ask, k / c - k

    and the bound is best(c, budget) / (50 c). Guessing an animal that is no
    longer possible is an ask with k = 0. A randomised strategy is a mixture
    of deterministic ones, so it is bounded too. The naive "log2 c answers
    plus one guess" is not a bound: a wrong guess also answers a question
    (it removes one candidate), and sequential guesses beat asking on few
    candidates (three candidates: 0.96 by guessing, 0.953 by asking first).

    It bounds an expectation, never one round (a lucky first guess scores
    0.98), and a set's mean can exceed it by chance. ValueError unless
    1 <= candidates <= MAX_CANDIDATES and 1 <= budget < PRIZE_CALLS.
    """
    if type(candidates) is not int or not 1 <= candidates <= MAX_CANDIDATES:
        raise ValueError("candidates must be an integer in 1..%d, got %r"
                         % (MAX_CANDIDATES, candidates))
    if type(budget) is not int or not 1 <= budget < PRIZE_CALLS:
        raise ValueError("budget must be an integer in 1..%d, got %r"
                         % (PRIZE_CALLS - 1, budget))
    return _table(budget)[budget][candidates] / (PRIZE_CALLS * candidates)


def round_bound(*, pool, index):
    """The bound for round `index` (zero-based) of a set whose rounds were
    drawn in order, without replacement, from `pool` equally likely animals.

    Whatever a tester learned in the rounds before, round `index`'s animal
    is equally likely to be each of the pool - index animals not drawn yet;
    knowing which they are can only help, so the round's expected score is
    at most best_expected_score(pool - index), and a set's expected mean
    score at most the mean of its rounds' bounds.
    """
    if type(index) is not int or not 0 <= index < pool:
        raise ValueError("index must be an integer in 0..%d, got %r" % (pool - 1, index))
    return best_expected_score(pool - index)


def saved_bits(*, found, calls, candidates):
    """The bits a round saved below its information: log2(candidates) - calls
    when the animal was found, -calls when not. `candidates` is pool - index
    as in round_bound.

    For an honest tester, E[2^saved | earlier rounds] <= 1: the rounds end
    on the leaves of its tree of calls, a found animal on a leaf of its own,
    so the expectation is at most the sum of 2^-depth over the leaves, at
    most 1 by Kraft's inequality. Hence the sum of saved bits over a set
    reaches s with probability at most 2^-s (a supermartingale): a tester
    that reads the answers instead of asking saves about log2(candidates) - 1
    bits on every round and shows.
    """
    if type(candidates) is not int or candidates < 1:
        raise ValueError("candidates must be a positive integer, got %r" % (candidates,))
    return (math.log2(candidates) if found else 0.0) - calls
