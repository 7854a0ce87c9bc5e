"""The sequential test that decides whether a challenger beats the incumbent:
Wald's sequential probability ratio test on wins and losses, truncated at a
maximum number of decisive comparisons, with draws counted apart and tested
against a ceiling of their own.

    settings = sprt.Settings()                    # or Settings(alpha=0.01, ...)
    record = sprt.WinRecord(settings)
    while record.decision == sprt.CONTINUE:
        record.add(sprt.WIN)                      # or LOSS or DRAW: one comparison
    record.decision, record.reason                # ("accept", "upper_bound")

    python3 grader/sprt.py --exact                # error rates and costs, computed
    python3 grader/sprt.py --characteristics      # the same, simulated, in a table

H0 is "the challenger wins half of the decisive comparisons", H1 "it wins
0.5 + delta of them". The log-likelihood ratio comes from the counts alone,
W ln(p1/p0) + L ln((1 - p1)/(1 - p0)), so neither the order of the
comparisons nor a restart changes it, and a draw, which says nothing about
which tester is stronger, leaves it alone. After each comparison, in order:

1. a ratio at or above ln((1 - beta)/alpha) accepts (`upper_bound`);
2. one at or below ln(beta/(1 - alpha)) rejects (`lower_bound`);
3. at `max_decisive` decisive comparisons the test stops (`max_decisive`) and
   accepts when the ratio is at or above the middle of the two bounds;
4. from `min_sample` comparisons on, the draws reject (`draw_ceiling`) when
   the draw rate is shown to lie above `draw_ceiling`: after t comparisons
   with d draws, d/t > ceiling and t * KL(d/t || ceiling) >= ln(1/a_t), where
   KL is the Kullback-Leibler divergence of two coin biases and
   a_t = draw_alpha * min_sample / (t (t + 1)). By Chernoff's bound a
   challenger whose true draw rate is at most the ceiling fails step t with
   chance at most a_t, and the a_t sum to draw_alpha: the ceiling wrongly
   rejects it with chance at most draw_alpha over the whole run, however
   long it lasts. With the defaults, draws alone end the test at comparison 58.

So P(reject | H1) <= beta' + draw_alpha at every draw rate up to the ceiling,
where beta' is the truncated test's own error, and the ceiling never accepts.
The exact figures for any settings: `sprt_exact.py` and `--exact` above.

The defaults are provisional, to be calibrated on a pair of testers whose
true difference is known (grader/group_testing/calibration.py against the shipped binary
splitting, for one): alpha and beta too small and no challenger is ever
accepted, too large and the incumbent is replaced on noise; a ceiling near
the draw rate of a real improvement rejects it.
"""

import dataclasses
import functools
import math

from . import binomial
from ..settings import SettingsError  # noqa: F401  (the SDK's one error of settings)
from .binomial import binomial_test, fixed_sample_size  # noqa: F401  (sprt's own)

ALPHA = 0.05          # probability of accepting a challenger no better than the incumbent
BETA = 0.05           # probability of rejecting one that wins 0.5 + DELTA of decisive comparisons
DELTA = 0.1           # smallest win-rate shift worth acting on (fraction of decisive comparisons)
DELTA_MIN = 0.01      # the smallest delta taken (fraction of decisive comparisons)
DRAW_CEILING = 0.85   # draw rate the draws must be shown to exceed (fraction of all comparisons)
DRAW_ALPHA = 0.01     # probability that the ceiling ever rejects a draw rate at or below it
MIN_SAMPLE = 30       # comparisons (draws included) before the draw ceiling is first checked
TRUNCATION = 2        # max_decisive's default, in fixed samples (2 x 268 = 536 comparisons)
P0 = binomial.P0       # the win rate of H0: no better (fraction of decisive comparisons)

WIN, LOSS, DRAW = "win", "loss", "draw"
OUTCOMES = (WIN, LOSS, DRAW)
ACCEPT, REJECT, CONTINUE = "accept", "reject", "continue"
UPPER, LOWER, TRUNCATED, CEILING = "upper_bound", "lower_bound", "max_decisive", "draw_ceiling"
REASONS = (UPPER, LOWER, TRUNCATED, CEILING)


class StateError(ValueError):
    """A saved record that cannot be taken up again."""


class DecidedError(RuntimeError):
    """A comparison offered to a record that has already decided."""


def _number(name, value):
    if type(value) not in (int, float) or not math.isfinite(value):
        raise SettingsError("%s must be a finite number, got %r" % (name, value))
    return float(value)


@dataclasses.dataclass(frozen=True)
class Settings:
    """The test's settings (see the constants above for their meaning and
    units). max_decisive=None means TRUNCATION fixed samples. SettingsError
    names a bad value."""

    alpha: float = ALPHA
    beta: float = BETA
    delta: float = DELTA
    draw_ceiling: float = DRAW_CEILING
    draw_alpha: float = DRAW_ALPHA
    min_sample: int = MIN_SAMPLE
    max_decisive: int = None

    def __post_init__(self):
        for name in ("alpha", "beta", "delta", "draw_ceiling", "draw_alpha"):
            object.__setattr__(self, name, _number(name, getattr(self, name)))
        for name in ("alpha", "beta", "draw_alpha"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise SettingsError("%s must be in (0, 0.5), got %r"
                                    % (name, getattr(self, name)))
        if not DELTA_MIN <= self.delta < 0.5:     # below it the fixed sample passes 27,000
            raise SettingsError("delta must be in [%g, 0.5), got %r" % (DELTA_MIN, self.delta))
        if not 0.0 < self.draw_ceiling < 1.0:
            raise SettingsError("draw_ceiling must be in (0, 1), got %r" % self.draw_ceiling)
        for name in ("min_sample", "max_decisive"):
            value = getattr(self, name)
            if (type(value) is not int or value < 1) and not (name == "max_decisive"
                                                            and value is None):
                raise SettingsError("%s must be an integer of at least 1, got %r"
                                    % (name, value))
        if self.max_decisive is None:
            object.__setattr__(self, "max_decisive", TRUNCATION * self.fixed_sample)

    @property
    def p1(self):
        """The win rate of H1."""
        return P0 + self.delta

    @property
    def win_step(self):
        """What one win adds to the log-likelihood ratio (> 0)."""
        return math.log(self.p1 / P0)

    @property
    def loss_step(self):
        """What one loss adds to the log-likelihood ratio (< 0)."""
        return math.log((1.0 - self.p1) / (1.0 - P0))

    @property
    def upper(self):
        """The accept boundary, ln((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def lower(self):
        """The reject boundary, ln(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def fixed_sample(self):
        """Decisive comparisons of the exact fixed-sample test (fixed_sample_size)."""
        return _fixed_sample(self.alpha, self.beta, self.delta)

    def to_dict(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data):
        """Settings from `to_dict`'s output; StateError if they are not."""
        names = [f.name for f in dataclasses.fields(cls)]
        if type(data) is not dict or sorted(data) != sorted(names):
            raise StateError("settings must hold exactly %s, got %r"
                             % (", ".join(names), data))
        try:
            return cls(**data)
        except SettingsError as e:
            raise StateError("saved settings: %s" % e) from None


_fixed_sample = functools.lru_cache(maxsize=64)(fixed_sample_size)


def log_ratio(settings, wins, losses):
    """The log-likelihood ratio of H1 against H0 after `wins` and `losses`."""
    return wins * settings.win_step + losses * settings.loss_step


def kl(x, c):
    """The Kullback-Leibler divergence of a coin of bias x from one of bias c."""
    out = x * math.log(x / c) if x > 0 else 0.0
    return out + ((1 - x) * math.log((1 - x) / (1 - c)) if x < 1 else 0.0)


@functools.lru_cache(maxsize=1 << 16)
def draw_limit(settings, total):
    """The fewest draws among `total` comparisons at which the ceiling
    rejects, or None when it cannot reject there (before min_sample, or
    not even with all draws)."""
    c, m = settings.draw_ceiling, settings.min_sample
    if total < m:
        return None
    need = math.log(total * (total + 1) / (settings.draw_alpha * m))

    def fires(d):
        return d > c * total and total * kl(d / total, c) >= need

    if not fires(total):
        return None
    low, high = math.floor(c * total), total          # fires(low) is false, fires(high) true
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if fires(middle) else (middle, high)
    return high


def decide(settings, wins, losses, draws):
    """(decision, reason) for these counts by the steps of the module's
    docstring; (CONTINUE, None) when none stops the test."""
    llr = log_ratio(settings, wins, losses)
    if llr >= settings.upper:
        return ACCEPT, UPPER
    if llr <= settings.lower:
        return REJECT, LOWER
    if wins + losses >= settings.max_decisive:
        return (ACCEPT if llr >= (settings.upper + settings.lower) / 2 else REJECT), TRUNCATED
    limit = draw_limit(settings, wins + losses + draws)
    if limit is not None and draws >= limit:
        return REJECT, CEILING
    return CONTINUE, None


def _count(name, value):
    if type(value) is not int or value < 0:
        raise StateError("%s must be a count (an integer >= 0), got %r" % (name, value))
    return value


class WinRecord:
    """Wins, losses and draws of the challenger, and the decision they give."""

    def __init__(self, settings=None, *, wins=0, losses=0, draws=0):
        self.settings = Settings() if settings is None else settings
        self.wins = _count("wins", wins)
        self.losses = _count("losses", losses)
        self.draws = _count("draws", draws)
        self.decision, self.reason = decide(self.settings, wins, losses, draws)

    @property
    def comparisons(self):
        return self.wins + self.losses + self.draws

    @property
    def decisive(self):
        return self.wins + self.losses

    @property
    def llr(self):
        return log_ratio(self.settings, self.wins, self.losses)

    def add(self, outcome):
        """Count one comparison (WIN, LOSS or DRAW) and return the decision.
        DecidedError once the test has decided; ValueError for anything else."""
        if self.decision != CONTINUE:
            raise DecidedError("the test has decided (%s, %s) after %d comparisons; "
                               "it takes no more" % (self.decision, self.reason,
                                                     self.comparisons))
        if outcome == WIN:
            self.wins += 1
        elif outcome == LOSS:
            self.losses += 1
        elif outcome == DRAW:
            self.draws += 1
        else:
            raise ValueError("an outcome is one of %s, got %r" % (", ".join(OUTCOMES), outcome))
        self.decision, self.reason = decide(self.settings, self.wins, self.losses, self.draws)
        return self.decision

    def to_dict(self):
        return {"wins": self.wins, "losses": self.losses, "draws": self.draws,
                "decision": self.decision, "reason": self.reason}

    @classmethod
    def from_dict(cls, settings, data):
        """The record `to_dict` saved; StateError unless its counts still
        give the decision saved with them."""
        keys = ["decision", "draws", "losses", "reason", "wins"]
        if type(data) is not dict or sorted(data) != keys:
            raise StateError("a record must hold exactly %s, got %r" % (", ".join(keys), data))
        record = cls(settings, wins=data["wins"], losses=data["losses"], draws=data["draws"])
        saved = (data["decision"], data["reason"])
        if saved != (record.decision, record.reason):
            raise StateError("the record says %r but its counts give %r"
                             % (saved, (record.decision, record.reason)))
        return record

    def __repr__(self):
        return ("WinRecord(wins=%d, losses=%d, draws=%d, decision=%r, reason=%r)"
                % (self.wins, self.losses, self.draws, self.decision, self.reason))


def run(settings, outcomes):
    """Feed `outcomes` (an iterable of WIN, LOSS, DRAW) to a fresh record
    until it decides or they run out; the record."""
    record = WinRecord(settings)
    for outcome in outcomes:
        if record.add(outcome) != CONTINUE:
            break
    return record
