"""The adversary of the cheat flag, for the tests: a tester that reads every
answer and plans its counts over the whole set to score lowest unflagged.

    plan = planner.best_plan(planner.Instances(items), planner.NewFlag)
    plan.score, plan.tests, plan.strategy

A reader knows each instance's surprise I_i, count surprise J_i and
baseline b_i, and may make any count T_i in 0..cap_i (repeats of a valid
pool). It scores mean(T_i / b_i) and wants that low while the flag's
statistic stays under cheat.SUSPECT_BITS. Finding the best plan exactly is an
integer programme; this searches it with a greedy over moves and with plain
strategies, and keeps the best plan found:

- greedy: from T_i = ceil(I_i) (no saving), repeatedly take the move with
  the best score gain per bit of statistic spent (one test fewer on an
  instance, or none at all), from a lazy heap; when the best no longer fits
  under the flag, repay bits with the cheapest move that wastes tests (one
  more, or up to the cap) while its price per bit is below the gain the
  freed bits buy; stop when nothing fits and nothing pays;
- zero: no test on the instances with the smallest baselines, one by one
  while the run stays unflagged;
- pattern: the old optimum's shape, the CAPPED instances cheapest to repay
  with run to the cap, then no test on the instances that gain most per
  bit, for a mix theta of the raw and weighted bits.

Two flags: NewFlag is cheat.py's cheat_bits, OldFlag the statistic it
replaced, max(sum, weighted sum, max - log2 N) - log2 3. Both are kept as
running sums so that a move costs O(len(cheat.KAPPAS)); every plan returned
is checked with the flag computed afresh.
"""

import heapq
import math

import support  # noqa: F401  (puts grader/ on the path)
from group_testing import cheat, problem

LIMIT = cheat.SUSPECT_BITS - 1e-6   # bits: a plan must stay below this (rounding kept apart)
MAX_MOVES = 40000                   # moves the greedy makes at most
REFRESH = 64                        # moves between two pricings of every raise afresh
CAPPED = (0, 1, 2, 3, 4, 6, 8, 12)          # instances run to the cap, pattern strategy


class Instances:
    """Per-instance constants of a set: surprise, count surprise, baseline,
    cap, weight, n, defective count."""

    def __init__(self, items):
        self.items = items
        self.count = len(items)
        self.surprise = [problem.surprise(it["priors"], it["defectives"]) for it in items]
        self.count_surprise = [problem.count_surprise(it["priors"], it["defectives"])
                               for it in items]
        self.baseline = [it["baseline"] for it in items]
        self.cap = [problem.cap(it["n"]) for it in items]
        self.entries = [{"n": it["n"], "defective_count": len(it["defectives"]),
                         "surprise": i, "count_surprise": j, "tests": 0,
                         "bound": problem.entropy_bound(it["priors"])}
                        for it, i, j in zip(items, self.surprise, self.count_surprise)]
        self.weight = cheat.weights(self.entries)
        self.scale = cheat.scales(self.entries)
        self.floor = math.fsum(i / b for i, b in zip(self.surprise, self.baseline)) / self.count

    def score(self, tests):
        return math.fsum(t / b for t, b in zip(tests, self.baseline)) / self.count

    def start(self):
        return [min(c, max(0, math.ceil(i))) for i, c in zip(self.surprise, self.cap)]

    def statistics(self, tests):
        """cheat.statistics of the plan, computed afresh."""
        return cheat.statistics([dict(e, tests=t) for e, t in zip(self.entries, tests)])


class NewFlag:
    """cheat_bits as running sums: per kappa, the log2 products over raw
    savings (uniform and scaled bets) and weighted ones; the sum of 2^s_i."""

    def __init__(self, sets, tests):
        self.sets, self.cache = sets, {}
        self.raw = [0.0] * 2 * len(cheat.KAPPAS)      # uniform bets, then scaled ones
        self.weighted = [0.0] * len(cheat.KAPPAS)
        self.spikes = 0.0
        for i, t in enumerate(tests):
            raw, weighted, spike = self.terms(i, t)
            self.raw = [a + b for a, b in zip(self.raw, raw)]
            self.weighted = [a + b for a, b in zip(self.weighted, weighted)]
            self.spikes += spike

    def terms(self, i, t):
        key = (i, t)
        if key not in self.cache:
            s = self.sets.surprise[i] - t
            u = self.sets.weight[i] * (self.sets.count_surprise[i] - t)
            c = self.sets.scale[i]
            self.cache[key] = ([cheat.capped_term(k, s) for k in cheat.KAPPAS]
                               + [cheat.capped_term(k * c, s) for k in cheat.KAPPAS],
                               [cheat.capped_term(k, u) for k in cheat.KAPPAS], 2.0 ** s)
        return self.cache[key]

    def _value(self, raw, weighted, spikes):
        spike = math.log2(spikes / self.sets.count) if spikes > 0 else -math.inf
        g = len(cheat.KAPPAS)
        return cheat.combine(cheat.log2_mean(raw[:g]), cheat.log2_mean(raw[g:]),
                             cheat.log2_mean(weighted), spike)

    def value(self):
        return self._value(self.raw, self.weighted, self.spikes)

    def _moved(self, i, old, new):
        r0, w0, s0 = self.terms(i, old)
        r1, w1, s1 = self.terms(i, new)
        return ([a - b + c for a, b, c in zip(self.raw, r0, r1)],
                [a - b + c for a, b, c in zip(self.weighted, w0, w1)],
                max(0.0, self.spikes - s0 + s1))

    def after(self, i, old, new):
        return self._value(*self._moved(i, old, new))

    def apply(self, i, old, new):
        self.raw, self.weighted, self.spikes = self._moved(i, old, new)


class OldFlag:
    """max(saved, weighted, max - log2 N) - log2 3, as running sums."""

    def __init__(self, sets, tests):
        self.sets = sets
        self.saved = [i - t for i, t in zip(sets.surprise, tests)]
        self.total = math.fsum(self.saved)
        self.weighted = math.fsum(w * (j - t) for w, j, t in
                                  zip(sets.weight, sets.count_surprise, tests))
        self.most = max(self.saved)

    def _value(self, total, weighted, most):
        return max(total, weighted, most - math.log2(self.sets.count)) - math.log2(3)

    def value(self):
        return self._value(self.total, self.weighted, self.most)

    def _moved(self, i, old, new):
        s = self.sets.surprise[i] - new
        most = self.most
        if s >= most:
            most = s
        elif self.saved[i] == most:
            most = max(max(x for j, x in enumerate(self.saved) if j != i), s)
        return (self.total + old - new, self.weighted + self.sets.weight[i] * (old - new), most)

    def after(self, i, old, new):
        return self._value(*self._moved(i, old, new))

    def apply(self, i, old, new):
        self.total, self.weighted, self.most = self._moved(i, old, new)
        self.saved[i] = self.sets.surprise[i] - new


class Plan:
    def __init__(self, sets, tests, strategy):
        self.tests, self.strategy = list(tests), strategy
        self.score = sets.score(tests)
        self.statistics = sets.statistics(tests)
        self.old_bits = OldFlag(sets, tests).value()    # the replaced statistic, afresh


def _lowerings(sets, tests, i):
    """(new count, gain) of the moves that lower instance i's count."""
    t = tests[i]
    return [(t - 1, 1 / sets.baseline[i]), (0, t / sets.baseline[i])] if t > 1 else \
        [(0, t / sets.baseline[i])] if t == 1 else []


def _raisings(sets, tests, i):
    """(new count, loss) of the moves that raise instance i's count."""
    t, cap = tests[i], sets.cap[i]
    return [(t + 1, 1 / sets.baseline[i]), (cap, (cap - t) / sets.baseline[i])] if t + 1 < cap \
        else [(cap, (cap - t) / sets.baseline[i])] if t < cap else []


def greedy(sets, flag_class, *, start=None, repay=True):
    """The greedy planner (see the module's docstring) from the counts
    `start` (no saving if None), repaying bits if `repay`: its counts."""
    tests = list(start or sets.start())
    flag = flag_class(sets, tests)
    value = flag.value()
    down, up = [], []               # (-gain per bit, i, new), (loss per bit, i, new)

    def push(i):
        for new, gain in _lowerings(sets, tests, i):
            cost = flag.after(i, tests[i], new) - value
            heapq.heappush(down, (-gain / max(cost, 1e-12), i, new))
        for new, loss in _raisings(sets, tests, i):
            freed = value - flag.after(i, tests[i], new)
            if freed > 1e-9:
                heapq.heappush(up, (loss / freed, i, new))

    def best(heap, rate):
        """The best current move of `heap`, refreshed lazily: (rate, i, new)."""
        while heap:
            _, i, new = heapq.heappop(heap)
            r = rate(i, new)
            if r is None:
                continue
            if not heap or r <= heap[0][0] + 1e-12:
                return r, i, new
            heapq.heappush(heap, (r, i, new))
        return None

    def down_rate(i, new):
        if new >= tests[i] or new not in (tests[i] - 1, 0):
            return None
        cost = flag.after(i, tests[i], new) - value
        return -(tests[i] - new) / sets.baseline[i] / max(cost, 1e-12)

    def up_rate(i, new):
        if new <= tests[i] or new not in (tests[i] + 1, sets.cap[i]):
            return None
        freed = value - flag.after(i, tests[i], new)
        return (new - tests[i]) / sets.baseline[i] / freed if freed > 1e-9 else None

    def move(i, new):
        nonlocal value, fresh
        fresh -= 1
        flag.apply(i, tests[i], new)
        tests[i] = new
        value = flag.value()
        push(i)

    for i in range(sets.count):
        push(i)
    held = []                       # lowerings that did not fit, tried again after a repay
    repay_on = repay
    fresh = 0                       # moves left before the raises are all priced afresh
    for _ in range(MAX_MOVES):
        top = best(down, down_rate)
        if top is None:
            break
        rate, i, new = top
        if flag.after(i, tests[i], new) < LIMIT:
            move(i, new)
            continue
        repay = best(up, up_rate) if repay_on else None
        if repay_on and (repay is None or repay[0] >= -rate * 0.999 and fresh <= 0):
            up[:] = [(r, i, n) for i in range(sets.count) for n, _ in _raisings(sets, tests, i)
                     for r in [up_rate(i, n)] if r is not None]
            heapq.heapify(up)       # every raise afresh: some freed nothing when last seen
            repay = best(up, up_rate)
            fresh = REFRESH
        if repay is not None and repay[0] < -rate * 0.999:
            heapq.heappush(down, top)
            move(repay[1], repay[2])
            for entry in held:
                heapq.heappush(down, entry)
            held = []
            continue
        if repay is not None:
            heapq.heappush(up, repay)
        held.append(top)
    while flag.value() >= LIMIT:    # a repay left the plan over: undo the cheapest saving
        i = min(range(sets.count), key=lambda i: -sets.surprise[i] + tests[i])
        move(i, tests[i] + 1)
    return tests


def zero(sets, flag_class, order):
    """No test on the instances of `order`, one by one, while unflagged."""
    tests = sets.start()
    flag = flag_class(sets, tests)
    for i in order:
        if tests[i] and flag.after(i, tests[i], 0) < LIMIT:
            flag.apply(i, tests[i], 0)
            tests[i] = 0
    return tests


def pattern(sets, flag_class, capped, theta):
    """The old optimum's shape. A test fewer on instance i gains 1 / b_i and
    spends theta + (1 - theta) w_i of the bits theta S + (1 - theta) U (S
    the sum, U the weighted sum): the `capped` instances with the lowest gain
    per bit run to the cap and repay, then the others, highest gain per bit
    first, make no test while the run stays unflagged."""
    price = [1 / b / (theta + (1 - theta) * w) for b, w in zip(sets.baseline, sets.weight)]
    order = sorted(range(sets.count), key=price.__getitem__)
    tests = sets.start()
    flag = flag_class(sets, tests)
    for i in order[:capped]:
        flag.apply(i, tests[i], sets.cap[i])
        tests[i] = sets.cap[i]
    for i in reversed(order[capped:]):
        if tests[i] and flag.after(i, tests[i], 0) < LIMIT:
            flag.apply(i, tests[i], 0)
            tests[i] = 0
    return tests


def plans(sets, flag_class):
    """Every strategy's plan against `flag_class`."""
    out = [Plan(sets, greedy(sets, flag_class), "greedy"),
           Plan(sets, zero(sets, flag_class,
                           sorted(range(sets.count), key=lambda i: sets.baseline[i])),
                "zero")]
    capped, thetas = (CAPPED, range(11)) if flag_class is OldFlag else (CAPPED[:3], (0, 5, 10))
    out += [Plan(sets, pattern(sets, flag_class, c, theta / 10),
                 "pattern: %d capped, theta %.1f" % (c, theta / 10))
            for c in capped for theta in thetas]
    return out


def best_plan(sets, flag_class):
    """The lowest-scoring plan of every strategy against `flag_class`."""
    return min(plans(sets, flag_class), key=lambda plan: plan.score)


def lucky(sets, honest, *, budget):
    """The plan no flag can stop: an honest tester's counts `honest`, with
    no test on the instances S whose sum of surprises is at most `budget`
    bits and whose saved score (honest_i / b_i) is largest (an exact
    knapsack, surprises rounded up to a thousandth of a bit). Its tests and
    S.

    An honest tester G that plays `honest` but answers the sets of S
    outright, from no test, is right there with chance 2^-sum(I_i over S).
    Given that it is right, its run is this plan's, the other instances'
    sets drawn as ever. So a flag that trips on G with probability at most
    2^-20 trips on this plan with probability at most 2^(sum - 20) over the
    other instances' draws: it misses it at least 1 - 2^(budget - 20) of
    the time, whatever the flag."""
    units = [math.ceil(i * 1000) for i in sets.surprise]
    gains = [t / b for t, b in zip(honest, sets.baseline)]
    best = {0: (0.0, ())}            # units used -> (score saved, S), undominated
    for i in range(sets.count):
        grown = dict(best)
        for used, (gain, chosen) in best.items():
            u = used + units[i]
            if u <= budget * 1000 and (u not in grown or grown[u][0] < gain + gains[i]):
                grown[u] = (gain + gains[i], chosen + (i,))
        best, most = {}, -1.0
        for used, entry in sorted(grown.items()):
            if entry[0] > most:
                best[used], most = entry, entry[0]
    chosen = max(best.values())[1]
    return [0 if i in chosen else t for i, t in enumerate(honest)], chosen
