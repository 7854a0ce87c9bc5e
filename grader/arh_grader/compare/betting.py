"""The decision on the mean score difference, by betting: an e-process for
each error, and a confidence sequence for the mean, all valid at any
stopping time. It knows no problem: it sees one number per comparison.

    settings = betting.Settings()                 # or Settings(delta=0.01, ...)
    record = betting.MeanRecord(settings)
    while record.decision == betting.CONTINUE:
        record.add(d)                             # challenger's score - incumbent's
    record.decision, record.reason                # ("accept", "accept_bound")
    betting.confidence_sequence(values)           # (mean, low, high), 99%

    python3 grader/betting_table.py               # the characteristics, simulated

Each comparison gives d, the challenger's score minus the incumbent's
(lower scores are better: d < 0 is a gain), clipped to [-CLIP, CLIP]. The
hypotheses are about m, the mean of the clipped d; it is E[d] whenever
|d| <= CLIP, as every comparison where both testers finish is in practice,
and a clipped d only counts a comparison as the worst (or best) possible.

The accept side tests H0: m >= 0 (no better). For each bet lam of LAMBDAS
(all in (0, 1), so that 1 - lam d > 0 for every d in [-1, 1]) the wealth
W_t(lam) = prod_{s <= t} (1 - lam d_s) has E[1 - lam d_s | the past] =
1 - lam m <= 1 under H0, so it is a nonnegative supermartingale starting
at 1; so is their average E_t (the mixture). Ville's inequality gives
P(E_t >= 1/alpha for some t) <= alpha: accepting at the first t with
E_t >= 1/alpha (`accept_bound`) accepts a challenger that is no better
with probability at most alpha, whenever the run stops and however long
it lasts. Nothing is assumed of d but its range and that each
comparison's conditional mean is m: no normal approximation, no variance.

The reject side tests H0': m <= -delta (a real gain of delta or more) with
prod_{s <= t} (1 + lam (d_s + delta)), the same argument with d + delta:
rejecting at the first t where its mixture reaches 1/beta (`reject_bound`)
rejects a challenger that gains delta or more with probability at most
beta. Both processes grow under the other hypothesis, so the test ends.
After max_comparisons without either bound the test rejects
(`max_comparisons`): that never raises the chance of accepting, and adds
to beta the chance that a gain of delta has not reached its bound by then
(the table, grader/betting_table.py, gives it).

The confidence sequence is the betting one of Waudby-Smith and Ramdas
(2023, "Estimating means of bounded random variables by betting"), with
the fixed grid of bets LAMBDAS / (1 + |mu|) mixed uniformly in place of
their predictable plug-in: for a candidate mean mu, A_t(mu) = mean over lam
of prod (1 + lam (d_s - mu) / (1 + |mu|)) and B_t(mu) the same with
1 - lam (d_s - mu) / (1 + |mu|) are nonnegative martingales at the true
mean (|d - mu| <= 1 + |mu| and lam < 1), so by Ville P(A_t(m) >= 2/a or B_t(m) >= 2/a for some t) <= a. The set of
mu with both below 2/a is an interval (A falls and B rises with mu): at
any stopping time it holds m with probability at least 1 - a.

Its level is 0.99, not 0.95, so that it also holds m at the runs the test
accepts. No interval can promise that from Ville's inequality alone: it
misses m with probability at most a overall, so at most a / P(accept) among
the accepted runs, which is large where accepting is rare (a challenger no
better, accepted with chance 0.006). At 0.95 its bound, 2/a = 40, sits
just above the accept bound 1/alpha = 20, and a wrong accept, which has
just reached 20 at mu = 0, often has B_t past 40 at the true m a little
above 0: the interval then excludes m exactly when the decision errs. At
0.99 the bound is 200, ten times the accept bound, and the simulated
coverage among accepted runs is at least 0.999 in every cell of
grader/betting_table.py's table, wrong accepts included.
"""

import dataclasses
import math
import random

from ..settings import SettingsError  # noqa: F401  (the SDK's one error of settings)

ALPHA = 0.05            # P(accept) at most this for a challenger no better (m >= 0)
BETA = 0.05             # P(reject on a bound) at most this for a gain of DELTA or more
DELTA = 0.005           # the smallest gain worth keeping, in score (tests / baseline)
MAX_COMPARISONS = 5000  # comparisons before the test stops and rejects
CLIP = 1.0              # |d| above this counts as this, in score
LAMBDAS = tuple(0.99 * 2 ** (-j / 2) for j in range(10))   # the bets, 0.99 down to 0.044
CONFIDENCE = 0.99       # of the confidence sequence: its bound 2 / (1 - CONFIDENCE) = 200 is
                        # ten times the accept bound 1 / ALPHA (see the docstring)

ACCEPT, REJECT, CONTINUE = "accept", "reject", "continue"
ACCEPTED, REJECTED, TRUNCATED = "accept_bound", "reject_bound", "max_comparisons"
REASONS = (ACCEPTED, REJECTED, TRUNCATED)


@dataclasses.dataclass(frozen=True)
class Settings:
    """alpha, beta (probabilities), delta (score) and max_comparisons
    (comparisons) of the module's docstring; SettingsError names a bad value."""

    alpha: float = ALPHA
    beta: float = BETA
    delta: float = DELTA
    max_comparisons: int = MAX_COMPARISONS

    def __post_init__(self):
        for name in ("alpha", "beta", "delta"):
            value = getattr(self, name)
            if type(value) not in (int, float) or not math.isfinite(value):
                raise SettingsError("%s must be a finite number, got %r" % (name, value))
            object.__setattr__(self, name, float(value))
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise SettingsError("%s must be in (0, 0.5), got %r"
                                    % (name, getattr(self, name)))
        if not 0.0 < self.delta <= 0.1:
            raise SettingsError("delta must be in (0, 0.1], got %r" % self.delta)
        if type(self.max_comparisons) is not int or self.max_comparisons < 1:
            raise SettingsError("max_comparisons must be an integer of at least 1, got %r"
                                % (self.max_comparisons,))

    def to_dict(self):
        return dataclasses.asdict(self)


def clip(d):
    """d within [-CLIP, CLIP]."""
    return -CLIP if d < -CLIP else CLIP if d > CLIP else float(d)


class MeanRecord:
    """The comparisons' clipped differences so far, both e-values and the
    decision they give."""

    def __init__(self, settings=None):
        self.settings = Settings() if settings is None else settings
        self.comparisons, self.total = 0, 0.0
        self._accept = [1.0] * len(LAMBDAS)
        self._reject = [1.0] * len(LAMBDAS)
        self.decision, self.reason = CONTINUE, None

    @property
    def e_accept(self):
        """The mixture wealth against "no better" (accept at 1/alpha)."""
        return math.fsum(self._accept) / len(LAMBDAS)

    @property
    def e_reject(self):
        """The mixture wealth against "a gain of delta" (reject at 1/beta)."""
        return math.fsum(self._reject) / len(LAMBDAS)

    def add(self, d):
        """Count one comparison's difference d; the decision. RuntimeError
        once the test has decided."""
        if self.decision != CONTINUE:
            raise RuntimeError("the test has decided (%s, %s) after %d comparisons; it takes "
                               "no more" % (self.decision, self.reason, self.comparisons))
        d, shift = clip(d), self.settings.delta
        self._accept = [w * (1.0 - lam * d) for w, lam in zip(self._accept, LAMBDAS)]
        self._reject = [w * (1.0 + lam * (d + shift)) for w, lam in zip(self._reject, LAMBDAS)]
        self.comparisons += 1
        self.total += d
        if self.e_accept >= 1.0 / self.settings.alpha:
            self.decision, self.reason = ACCEPT, ACCEPTED
        elif self.e_reject >= 1.0 / self.settings.beta:
            self.decision, self.reason = REJECT, REJECTED
        elif self.comparisons >= self.settings.max_comparisons:
            self.decision, self.reason = REJECT, TRUNCATED
        return self.decision

    def to_dict(self):
        return {"comparisons": self.comparisons, "decision": self.decision,
                "reason": self.reason, "e_accept": self.e_accept, "e_reject": self.e_reject}


def run(settings, values):
    """Feed `values` to a fresh record until it decides or they run out."""
    record = MeanRecord(settings)
    for d in values:
        if record.add(d) != CONTINUE:
            break
    return record


# ---- the confidence sequence ------------------------------------------------

def _log_wealth(values, mu, sign):
    """ln of the mixture over LAMBDAS of prod (1 + sign lam (d - mu) / (1 + |mu|))."""
    logs = []
    for lam in LAMBDAS:
        bet = sign * lam / (1.0 + abs(mu))
        logs.append(math.fsum(math.log1p(bet * (d - mu)) for d in values))
    top = max(logs)
    return top + math.log(math.fsum(math.exp(x - top) for x in logs) / len(logs))


def confidence_sequence(values, *, confidence=CONFIDENCE, steps=40):
    """(mean, low, high) of the clipped `values`: the mean and the
    confidence sequence's interval after them, to 2**-steps of the range
    (None when there are none)."""
    values = [clip(d) for d in values]
    if not values:
        return None
    limit = math.log(2.0 / (1.0 - confidence))

    def search(low, high, inside_high):     # the edge in [low, high] of {mu inside}
        for _ in range(steps):
            middle = (low + high) / 2
            if inside_high(middle):
                high = middle
            else:
                low = middle
        return low, high

    # A rises as mu falls: the low end is where A(mu) crosses the limit.
    _, low = search(-CLIP, CLIP, lambda mu: _log_wealth(values, mu, +1) < limit)
    high, _ = search(-CLIP, CLIP, lambda mu: _log_wealth(values, mu, -1) >= limit)
    return math.fsum(values) / len(values), low, max(low, high)


def covers(values, mu, *, confidence=CONFIDENCE):
    """True when the confidence sequence after `values` holds `mu`."""
    limit = math.log(2.0 / (1.0 - confidence))
    values = [clip(d) for d in values]
    return all(_log_wealth(values, mu, sign) < limit for sign in (+1, -1))


def text(values, *, confidence=CONFIDENCE):
    """The summary's `score_difference`: "-" with no value, else
    "MEAN (99% confidence sequence LOW to HIGH, N comparisons)"."""
    found = confidence_sequence(values, confidence=confidence)
    if found is None:
        return "-"
    return "%.4f (%g%% confidence sequence %.4f to %.4f, %d comparisons)" % (
        found[0], 100 * confidence, found[1], found[2], len(values))


# ---- simulation ------------------------------------------------------------

def simulate(settings, pool, *, runs, seed, chunk=256):
    """Runs of the test on values drawn with replacement from `pool`, each
    tracking the confidence sequence at the pool's clipped mean m as it
    goes; a dict: runs, accepted, mean comparisons, the 95th percentile,
    truncated, coverage at the stop overall and among accepted runs, m."""
    pool = [clip(d) for d in pool]
    truth = math.fsum(pool) / len(pool)
    rng = random.Random(seed)
    limit = 2.0 / (1.0 - CONFIDENCE)
    halves = [lam / (1.0 + abs(truth)) for lam in LAMBDAS]
    lengths, accepted, truncated, covered, covered_accepted = [], 0, 0, 0, 0
    for _ in range(runs):
        record = MeanRecord(settings)
        up, down = [1.0] * len(halves), [1.0] * len(halves)
        while record.decision == CONTINUE:
            for d in rng.choices(pool, k=chunk):
                x = d - truth
                up = [w * (1.0 + h * x) for w, h in zip(up, halves)]
                down = [w * (1.0 - h * x) for w, h in zip(down, halves)]
                if record.add(d) != CONTINUE:
                    break
        inside = sum(up) / len(up) < limit and sum(down) / len(down) < limit
        lengths.append(record.comparisons)
        covered += inside
        truncated += record.reason == TRUNCATED
        if record.decision == ACCEPT:
            accepted += 1
            covered_accepted += inside
    lengths.sort()
    return {"runs": runs, "m": truth, "accept": accepted / runs,
            "mean": math.fsum(lengths) / runs,
            "p95": lengths[min(runs - 1, math.ceil(0.95 * runs) - 1)],
            "truncated": truncated / runs, "coverage": covered / runs,
            "coverage_accepted": covered_accepted / accepted if accepted else None}


def shifted(pool, target):
    """`pool` moved to the mean `target`, zeros kept: every nonzero value
    moves by the same amount (zero inflation and tails stay as they were).
    A pool of zeros only is returned as it is."""
    nonzero = [d for d in pool if d != 0]
    if not nonzero:
        return list(pool)
    step = (target * len(pool) - math.fsum(pool)) / len(nonzero)
    return [d + step if d != 0 else 0.0 for d in pool]


TARGETS = (-0.05, -0.02, -0.01, -0.005, -0.0025, 0.0, 0.005, 0.02)   # E[d] of the table


def characteristics_table(settings, pools, *, targets=TARGETS, runs, seed="betting-table"):
    """Markdown lines: for each pool (name: differences) and target mean,
    the pool shifted there (`shifted`) and `runs` simulated tests."""
    yield ("| pair | E[d] | P(accept), %d runs | comparisons, mean | comparisons, 95th "
           "percentile | ended at the maximum | CS coverage at the stop | CS coverage, "
           "accepted |" % runs)
    yield "|---|---|---|---|---|---|---|---|"
    for name, pool in pools.items():
        for target in targets:
            found = simulate(settings, shifted(pool, target), runs=runs,
                             seed="%s/%s/%r" % (seed, name, target))
            accepted = found["coverage_accepted"]
            yield ("| %s | %+.4f | %.3f | %.1f | %d | %.3f | %.3f | %s |"
                   % (name, found["m"] + 0.0, found["accept"], found["mean"], found["p95"],
                      found["truncated"], found["coverage"],
                      "-" if accepted is None else "%.3f" % accepted))
