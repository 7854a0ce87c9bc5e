"""The sequential test's operating characteristics: computed exactly by
dynamic programming, and simulated for a table.

    from arh_grader.compare import sprt, sprt_exact
    figures = sprt_exact.operating(sprt.Settings(), p=0.6, q=0.85)
    figures["reject"], figures["expected_comparisons"]

    python3 grader/sprt.py --exact              # exact_report()
    python3 grader/sprt.py --characteristics    # characteristics_table()

A comparison is a draw with chance q; otherwise the challenger wins it with
chance p. The two sides of sprt.decide never look at each other's counts:
the bounds and the truncation read only the wins and losses, the ceiling only
the draws and the total. The decisive outcomes and the pattern of draws are
independent, so each gets its own program:

- over (decisive comparisons, wins): when the bounds or the truncation stop
  the test, and how;
- over (decisive comparisons, draws): after how many decisive comparisons
  the ceiling would stop it, and how many comparisons each stage lasts.

The test ends on the ceiling exactly when the ceiling comes first in
decisive comparisons (the bounds are checked first at a tie), which joins
the two. Paths whose chance falls below TINY are dropped and their mass
reported as `dropped`. Both programs call sprt's own rules, so they check
the code, not a copy of it.
"""

import math
import random
import statistics

from . import sprt

TINY = 1e-22                        # chance below which a path of the draws' program is dropped
P_VALUES = (0.3, 0.4, 0.5, 0.55, 0.6, 0.7, 0.8)    # the table's win rates (of decisive ones)
Q_VALUES = (0.0, 0.5, 0.85, 0.95)                  # the table's draw rates (of all comparisons)


def decisive_outcomes(settings, p):
    """[(P(the test stops at decisive comparison k and accepts), P(... rejects),
    P(... at the truncation))] for k = 1 .. max_decisive, draws aside."""
    out, alive = [], {0: 1.0}                       # wins -> chance, k decisive so far
    for k in range(1, settings.max_decisive + 1):
        grown = {}
        for wins, chance in alive.items():
            grown[wins + 1] = grown.get(wins + 1, 0.0) + chance * p
            grown[wins] = grown.get(wins, 0.0) + chance * (1.0 - p)
        alive, accept, reject, truncated = {}, 0.0, 0.0, 0.0
        for wins, chance in grown.items():
            decision, reason = sprt.decide(settings, wins, k - wins, 0)
            if decision == sprt.ACCEPT:
                accept += chance
            elif decision == sprt.REJECT:
                reject += chance
            else:
                alive[wins] = chance
            if reason == sprt.TRUNCATED:
                truncated += chance
        out.append((accept, reject, truncated))
    return out


def draw_exits(settings, q, horizon):
    """For j = 0 .. horizon - 1: (chance the ceiling stops the test with j
    decisive comparisons done, expected comparisons spent with j done and
    the ceiling silent), and the chance dropped."""
    limits, fire, spent, dropped = {}, [], [], 0.0
    low, row = 0, [1.0]                   # row[i]: chance of arriving at draws low + i
    for j in range(horizon):
        out, carry, fired, stay, i = [], 0.0, 0.0, 0.0, 0
        while i < len(row) or carry >= TINY:
            chance = (row[i] if i < len(row) else 0.0) + carry
            d = low + i
            if j + d not in limits:
                limits[j + d] = sprt.draw_limit(settings, j + d)
            limit = limits[j + d]
            if limit is not None and d >= limit:
                fired, carry = fired + chance, 0.0
                out.append(0.0)
            else:
                stay += chance
                out.append(chance * (1.0 - q))
                carry = chance * q
            i += 1
        dropped += carry
        start = 0
        while start < len(out) - 1 and out[start] < TINY:
            dropped += out[start]
            start += 1
        low, row = low + start, out[start:]
        fire.append(fired)
        spent.append(stay)
    return fire, spent, dropped


def all_draws_end(settings, *, limit=10 ** 6):
    """The comparison at which a run of draws only ends on the ceiling (None
    when it does not within `limit`)."""
    for total in range(1, limit + 1):
        if sprt.draw_limit(settings, total) is not None:
            return total
    return None


def operating(settings, *, p, q):
    """The test's exact figures when the challenger wins a share p of decisive
    comparisons and draws a share q of all: a dict of accept, reject,
    reject_ceiling, truncated (chances), expected_comparisons,
    expected_decisive and dropped. ValueError for p or q outside [0, 1]."""
    for name, value in (("p", p), ("q", q)):
        if type(value) not in (int, float) or not 0.0 <= value <= 1.0:
            raise ValueError("%s must be a number in [0, 1], got %r" % (name, value))
    if q == 1.0:
        end = all_draws_end(settings)
        return {"accept": 0.0, "reject": 1.0, "reject_ceiling": 1.0, "truncated": 0.0,
                "expected_comparisons": float(end), "expected_decisive": 0.0, "dropped": 0.0}
    stops = decisive_outcomes(settings, p)
    survive = [1.0]                                 # survive[j] = P(bounds silent after j)
    for accept, reject, _ in stops:
        survive.append(survive[-1] - accept - reject)
    fire, spent, dropped = draw_exits(settings, q, settings.max_decisive)
    before = [0.0]                                  # before[k] = P(ceiling fired before k)
    for chance in fire:
        before.append(before[-1] + chance)
    first = [1.0 - b for b in before[1:]]           # first[k - 1] = P(ceiling silent to k)
    accept = sum(a * f for (a, _, _), f in zip(stops, first))
    by_bounds = sum(r * f for (_, r, _), f in zip(stops, first))
    ceiling = sum(f * s for f, s in zip(fire, survive))
    return {"accept": accept, "reject": by_bounds + ceiling, "reject_ceiling": ceiling,
            "truncated": sum(t * f for (_, _, t), f in zip(stops, first)),
            "expected_comparisons": sum(e * s for e, s in zip(spent, survive)),
            "expected_decisive": sum(s * f for s, f in zip(survive, first)),
            "dropped": dropped}


def exact_report(settings):
    """Lines of `key: value`: the fixed sample, the truncation and the error
    rates and costs at the win rates of H0 and H1."""
    n = settings.fixed_sample
    cutoff, size, power = sprt.binomial_test(n, settings.alpha, settings.p1)
    lines = ["settings: %s" % " ".join("%s=%s" % kv for kv in settings.to_dict().items()),
             "fixed_sample: %d decisive comparisons (accept at %d wins or more: size %.4f, "
             "power %.4f)" % (n, cutoff, size, power),
             "max_decisive: %d" % settings.max_decisive,
             "all_draws_end: comparison %s" % all_draws_end(settings)]
    for p, q in ((sprt.P0, 0.0), (settings.p1, 0.0), (sprt.P0, settings.draw_ceiling),
                 (settings.p1, settings.draw_ceiling), (settings.p1 + 0.1, 0.0),
                 (sprt.P0 + settings.delta / 2, 0.0)):
        f = operating(settings, p=p, q=q)
        lines.append("p=%.2f q=%.2f: P(accept) %.4f P(reject) %.4f (ceiling %.4f, truncated "
                     "%.4f) E[comparisons] %.1f E[decisive] %.1f"
                     % (p, q, f["accept"], f["reject"], f["reject_ceiling"], f["truncated"],
                        f["expected_comparisons"], f["expected_decisive"]))
    return lines


def simulate(settings, *, p, q, runs, seed):
    """`runs` runs of the test on random outcomes: [(decision, reason,
    comparisons)], the same for the same arguments (the caller's `seed`
    makes the table come out the same)."""
    rng = random.Random("%s/%r/%r" % (seed, p, q))
    win, loss = (1.0 - q) * p, 1.0 - q
    out = []
    for _ in range(runs):
        record = sprt.WinRecord(settings)
        while record.decision == sprt.CONTINUE:
            x = rng.random()
            record.add(sprt.WIN if x < win else sprt.LOSS if x < loss else sprt.DRAW)
        out.append((record.decision, record.reason, record.comparisons))
    return out


def characteristics_table(settings, *, runs, seed, p_values=P_VALUES,
                          q_values=Q_VALUES):
    """A Markdown table, one row a (win rate, draw rate): the simulated
    P(accept) beside the exact one, the mean and 95th percentile of the
    comparisons and the share ended by the ceiling. Yields its lines."""
    yield ("| win rate | draw rate | P(accept), %d runs | P(accept), exact | comparisons, "
           "mean | comparisons, 95th percentile | ended by the ceiling |" % runs)
    yield "|---|---|---|---|---|---|---|"
    for p in p_values:
        for q in q_values:
            results = simulate(settings, p=p, q=q, runs=runs, seed=seed)
            counts = sorted(c for _, _, c in results)
            exact = operating(settings, p=p, q=q)
            yield ("| %.2f | %.2f | %.3f | %.3f | %.1f | %d | %.3f |"
                   % (p, q, sum(d == sprt.ACCEPT for d, _, _ in results) / runs,
                      exact["accept"], statistics.fmean(counts),
                      counts[math.ceil(0.95 * runs) - 1],
                      sum(r == sprt.CEILING for _, r, _ in results) / runs))
