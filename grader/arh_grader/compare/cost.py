"""What deciding a near-zero reject would cost: after the mean test
(betting.py) rejects a challenger whose mean difference is close to zero,
the `cost_to_decide` lines of the summary say, for a smaller --delta or
two, how often the test would accept and after how many comparisons if
the true mean were the observed one, and the option to run it with.

    cost.applies(record, verdict, values)       # the rule below: True or False
    cost.lines(record, values, verdict=verdict) # the summary's extra lines ([] if not)
    cost.accepting(values, max_comparisons=5000)  # the accept side at the observed mean
    cost.rejecting_nothing(values, delta=0.002, max_comparisons=5000)

The rule. The lines appear when the test is the mean test, the decision is
its own reject (`reject_bound` or `max_comparisons`: not a suspect
challenger, timeouts in a row or a problem with nothing left to play),
and the mean m of the clipped differences d (the test's, below 0 a gain)
lies within NEAR x delta = 2 delta of zero. Otherwise (an accept, a far
reject) nothing is added. For m >= 0 one line says that no --delta helps:
were m the true mean, the test accepts with probability at most alpha at
any delta. For m < 0 the candidates are the largest 1-2-5 value (0.001,
0.002, 0.005, ...) at most min(|m|, delta), so that m lies outside the
candidate's indifference zone (it is delta itself when |m| >= delta: the
run was cut short, and only --max-comparisons needs raising), and the next
1-2-5 value below it. The lines:

    cost_to_decide: the mean difference -0.0020 is a near-zero reject (...)
    cost_to_decide.delta_0.001: P(accept) 0.95 within 12000 comparisons (0.65
      within 5000), after 4100 on average; a challenger that gains nothing is
      rejected after 10427 on average
    cost_to_decide.delta_0.0005: (the same accept figures) ... after 11993
    cost_to_decide.option: --delta 0.001 --max-comparisons 12000 (with a new --state ...)

What is computed, on the observed differences clipped to [-1, 1]
(betting.clip), as the test sees them:

- at the observed mean, the accept side alone: for each bet lam of
  betting.LAMBDAS the log-wealth log(1 - lam d) is a random walk whose
  drift mu(lam) and variance v(lam) per comparison are their exact means
  over the observed d: heavy tails, clipping and the test's grid of bets
  count as they are (the smallest bet, 0.044, loses money when the spread
  is large and |m| small, and then no delta accepts: the lines say so). The
  mixture's level 1/alpha is reached, to first order, at the time t where
  the mean over lam of exp(t mu(lam)) is 1/alpha; the number of comparisons
  to accept is taken as an inverse Gaussian (the passage time of a Brownian
  motion with the best bet's drift and variance to the level t mu) of mean
  t. P(accept) within M comparisons is its distribution function at M, the
  mean comparisons its mean truncated at M. The reject side is left out,
  and the accept figures are the same for every candidate: the accept side
  does not involve delta, and with delta <= |m| the reject side's drift,
  at most lam (m + delta) <= 0, is not positive, so it rejects with
  probability at most beta (Ville) and in practice far less;
- the suggested --max-comparisons: the current one, or, when the
  comparisons to accept have their QUANTILE (95%) above it, that quantile
  rounded up to a multiple of ROUND (1000);
- what a smaller delta costs: were the challenger no better (the
  differences shifted to mean 0 by betting.shifted), the reject side's
  passage the same way, with log(1 + lam (d + delta)): the comparisons a
  change that gains nothing takes to be rejected, on average, within the
  suggested maximum. The smaller delta, the longer; the second candidate
  shows how fast it grows.

Checked against betting.simulate, the very test run on the differences
resampled (tests/sdk/test_cost.py: P(accept) within 0.08 and the mean
comparisons within 25%, heavy tails and values past the clip included;
with heavy tails it overstates the comparisons, by a fifth for 1% of
losses of 0.9, where a normal approximation overstates them by a third).
It is an approximation of a first-passage time, not a bound: the test's
guarantees are its own (betting.py), whatever these lines say. Each run
with a new delta on fresh instances gives a challenger no better another
chance of alpha to be accepted. Cheap (a pass over the differences a bet,
for the accept side and each candidate; well under 0.1 s of CPU for 5000
comparisons) and deterministic: no random numbers.
"""

import math

from . import betting

NEAR = 2.0            # the rule: |mean| <= NEAR x delta
QUANTILE = 0.95       # the suggested maximum is this quantile of the comparisons to accept
ROUND = 1000          # the suggested maximum is a multiple of this
LARGEST = 10 ** 7     # no maximum above this is suggested
STEPS = 400           # the midpoints of the truncated mean's integral


def nice_floor(x):
    """The largest 1-2-5 value (..., 0.001, 0.002, 0.005, 0.01, ...) at most x > 0."""
    power = 10.0 ** math.floor(math.log10(x))
    for digit in (5, 2, 1):
        if digit * power <= x * (1 + 1e-9):
            return float("%.12g" % (digit * power))
    return float("%.12g" % (power / 2))


def candidates(mean, delta):
    """The deltas the lines are about, for a mean difference mean < 0: the
    largest 1-2-5 value at most min(|mean|, delta), then the next below it."""
    first = nice_floor(min(-mean, delta))
    return first, nice_floor(first * 0.99)


def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def passage_cdf(t, mean, shape):
    """P(T <= t) for T inverse Gaussian of `mean` and `shape`."""
    if t <= 0:
        return 0.0
    root = math.sqrt(shape / t)
    tail = phi(-root * (t / mean + 1))
    second = 0.0 if tail == 0.0 else math.exp(min(700.0, 2 * shape / mean) + math.log(tail))
    return min(1.0, phi(root * (t / mean - 1)) + second)


def passage(values, step, level):
    """(mean, shape) of the inverse Gaussian passage of the mixture over
    betting.LAMBDAS of prod step(lam, d) to `level`, the d drawn from
    `values`; None when no bet's log-wealth drifts up."""
    drifts, spreads = [], []
    for lam in betting.LAMBDAS:
        logs = [math.log(step(lam, d)) for d in values]
        mu = math.fsum(logs) / len(logs)
        drifts.append(mu)
        spreads.append(math.fsum((x - mu) ** 2 for x in logs) / len(logs))
    best = max(drifts)
    if best <= 0:
        return None
    target = math.log(len(drifts) * level)

    def above(t):      # log of sum exp(t mu) reaches log(K level)
        top = t * best
        return top + math.log(math.fsum(math.exp(t * mu - top) for mu in drifts)) >= target

    low, high = 0.0, target / best
    for _ in range(60):
        middle = (low + high) / 2
        if above(middle):
            high = middle
        else:
            low = middle
    level_reached = high * best
    return high, level_reached ** 2 / max(spreads[drifts.index(best)], 1e-300)


def truncated_mean(found, limit):
    """E[min(T, limit)] of the passage `found` (mean, shape)."""
    width = limit / STEPS
    return width * math.fsum(1.0 - passage_cdf((k + 0.5) * width, *found)
                             for k in range(STEPS))


def quantile(found, q):
    """The q quantile of the passage `found`, to a comparison."""
    low, high = 0.0, found[0]
    while passage_cdf(high, *found) < q:
        high *= 2
    while high - low > 0.5:
        middle = (low + high) / 2
        low, high = (middle, high) if passage_cdf(middle, *found) < q else (low, middle)
    return high


def accepting(values, *, max_comparisons, target=None, alpha=betting.ALPHA):
    """The accept side at the mean `target` (the observed mean when None),
    which no delta changes: a dict with `accept` (P(accept) within
    max_comparisons), `comparisons` (their mean, truncated there), `p95`
    (the QUANTILE of the comparisons to accept, untruncated), `maximum`
    (the suggested --max-comparisons), `accept_maximum` and
    `comparisons_maximum` (the same within `maximum`); None when no bet
    drifts up (no delta accepts)."""
    pool = [betting.clip(d) for d in values]
    if target is not None:
        pool = [betting.clip(d) for d in betting.shifted(pool, target)]
    found = passage(pool, lambda lam, d: 1.0 - lam * d, 1.0 / alpha)
    if found is None:
        return None
    p95 = quantile(found, QUANTILE)
    maximum = max_comparisons if p95 <= max_comparisons else min(
        LARGEST, ROUND * math.ceil(p95 / ROUND))
    return {"accept": passage_cdf(max_comparisons, *found),
            "comparisons": truncated_mean(found, max_comparisons), "p95": p95,
            "maximum": maximum, "accept_maximum": passage_cdf(maximum, *found),
            "comparisons_maximum": truncated_mean(found, maximum)}


def rejecting_nothing(values, *, delta, max_comparisons, beta=betting.BETA):
    """The mean comparisons, within max_comparisons, the test at `delta`
    takes to reject a challenger that gains nothing: the reject side on the
    differences shifted to mean 0 (betting.shifted)."""
    pool = [betting.clip(d) for d in betting.shifted([betting.clip(d) for d in values], 0.0)]
    found = passage(pool, lambda lam, d: 1.0 + lam * (d + delta), 1.0 / beta)
    return float(max_comparisons) if found is None else truncated_mean(found, max_comparisons)


def mean_of(values):
    """The mean of the clipped differences (the summary's), None if none."""
    return math.fsum(betting.clip(d) for d in values) / len(values) if values else None


def applies(record, verdict, values):
    """The rule of the module's docstring: a mean test's own reject with
    |mean| <= NEAR x delta."""
    if not isinstance(record, betting.MeanRecord) or not values:
        return False
    decision, reason = verdict or (record.decision, record.reason)
    if decision != betting.REJECT or reason not in (betting.REJECTED, betting.TRUNCATED):
        return False
    return abs(mean_of(values)) <= NEAR * record.settings.delta


def lines(record, values, *, verdict=None):
    """The summary's `cost_to_decide` lines for the test's differences
    `values` (d, below 0 a gain), [] unless the rule applies."""
    if not applies(record, verdict, values):
        return []
    settings, mean = record.settings, mean_of(values)
    zone = "within %g x delta = %g of 0" % (NEAR, NEAR * settings.delta)
    if mean >= 0:
        return ["cost_to_decide: none: the mean difference %+.4f (%s) is no gain; were it the "
                "true mean, the test accepts with probability at most alpha = %g at any "
                "--delta, and a smaller one only takes longer to reject"
                % (mean, zone, settings.alpha)]
    out = ["cost_to_decide: the mean difference %+.4f is a near-zero reject (%s); were it the "
           "true mean, a smaller --delta would decide as follows (an approximation from the "
           "%d differences: arh_grader/compare/cost.py)" % (mean, zone, len(values))]
    found = accepting(values, max_comparisons=settings.max_comparisons, alpha=settings.alpha)
    if found is None:
        return out + ["cost_to_decide.option: none: at this mean and spread even the test's "
                      "smallest bet (%.3f) loses, so no --delta accepts it, at any "
                      "--max-comparisons" % min(betting.LAMBDAS)]
    maximum = found["maximum"]
    deltas = candidates(mean, settings.delta)
    for delta in deltas:
        out.append("cost_to_decide.delta_%g: P(accept) %.2f within %d comparisons (%.2f within "
                   "%d), after %.0f on average; a challenger that gains nothing is rejected "
                   "after %.0f on average" % (
                       delta, found["accept_maximum"], maximum, found["accept"],
                       settings.max_comparisons, found["comparisons_maximum"],
                       rejecting_nothing(values, delta=delta, max_comparisons=maximum,
                                         beta=settings.beta)))
    option = "--delta %g" % deltas[0] + (
        "" if maximum == settings.max_comparisons else " --max-comparisons %d" % maximum)
    out.append("cost_to_decide.option: %s (with a new --state: fresh instances; each new run "
               "gives a challenger no better another chance of alpha = %g to be accepted)"
               % (option, settings.alpha))
    return out
