"""The sequential test that decides whether a challenger beats the incumbent:
Wald's sequential probability ratio test on wins and losses, with draws
counted apart and a ceiling on the draw rate.

    settings = sprt.Settings()                    # or Settings(alpha=0.01, ...)
    record = sprt.WinRecord(settings)
    while record.decision == sprt.CONTINUE:
        record.add(sprt.WIN)                      # or LOSS or DRAW: one comparison
    record.decision, record.reason                # ("accept", "upper_bound")

H0 is "the challenger wins half of the decisive comparisons", H1 "it wins
0.5 + delta of them". The log-likelihood ratio is computed from the counts
alone, W ln(p1/p0) + L ln((1 - p1)/(1 - p0)), so neither the order of the
comparisons nor a restart can change it; a draw carries no evidence of which
tester is stronger and leaves it untouched. After every comparison the ratio
is checked against ln((1 - beta)/alpha), which accepts, and ln(beta/(1 - alpha)),
which rejects; then, from the minimum sample on, a draw rate over the ceiling
rejects: the challenger is not meaningfully different. A decided record
refuses further comparisons.

The defaults are provisional, to be calibrated on a pair of testers whose true
difference is known (grader/calibration.py against the shipped binary
splitting, for one): alpha and beta too small and no challenger is ever
accepted, too large and the incumbent is replaced on noise; a ceiling near
the real draw rate of a good challenger rejects it.

Besides the record, this module only reads a saved one back (`load_json`);
it is written with arh_grader.write_json, atomically.
"""

import dataclasses
import json
import math
import statistics

ALPHA = 0.05          # probability of accepting a challenger no better than the incumbent
BETA = 0.05           # probability of rejecting one that wins 0.5 + DELTA of decisive comparisons
DELTA = 0.1           # smallest win-rate shift worth acting on (fraction of decisive comparisons)
DRAW_CEILING = 0.9    # draw rate above which the test rejects (fraction of all comparisons)
MIN_SAMPLE = 30       # comparisons (draws included) before the draw ceiling applies
P0 = 0.5              # the win rate of H0: no better (fraction of decisive comparisons)

WIN, LOSS, DRAW = "win", "loss", "draw"
OUTCOMES = (WIN, LOSS, DRAW)
ACCEPT, REJECT, CONTINUE = "accept", "reject", "continue"
UPPER, LOWER, CEILING = "upper_bound", "lower_bound", "draw_ceiling"


class SettingsError(ValueError):
    """Settings the test cannot work with."""


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
    """alpha, beta, delta, the draw ceiling and the minimum sample (see the
    constants above for their meaning and units)."""

    alpha: float = ALPHA
    beta: float = BETA
    delta: float = DELTA
    draw_ceiling: float = DRAW_CEILING
    min_sample: int = MIN_SAMPLE

    def __post_init__(self):
        for name in ("alpha", "beta", "delta", "draw_ceiling"):
            object.__setattr__(self, name, _number(name, getattr(self, name)))
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise SettingsError("%s must be in (0, 0.5), got %r"
                                    % (name, getattr(self, name)))
        if not 0.0 < self.delta < 0.5:
            raise SettingsError("delta must be in (0, 0.5), got %r" % self.delta)
        if not 0.0 <= self.draw_ceiling <= 1.0:
            raise SettingsError("draw_ceiling must be in [0, 1], got %r" % self.draw_ceiling)
        if type(self.min_sample) is not int or self.min_sample < 1:
            raise SettingsError("min_sample must be an integer of at least 1, got %r"
                                % (self.min_sample,))

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


def log_ratio(settings, wins, losses):
    """The log-likelihood ratio of H1 against H0 after `wins` and `losses`."""
    return wins * settings.win_step + losses * settings.loss_step


def decide(settings, wins, losses, draws):
    """(decision, reason) for these counts: the boundaries first, then the
    draw ceiling; (CONTINUE, None) when neither stops the test."""
    llr = log_ratio(settings, wins, losses)
    if llr >= settings.upper:
        return ACCEPT, UPPER
    if llr <= settings.lower:
        return REJECT, LOWER
    total = wins + losses + draws
    if total >= settings.min_sample and draws > settings.draw_ceiling * total:
        return REJECT, CEILING
    return CONTINUE, None


def fixed_sample_size(settings):
    """Decisive comparisons a fixed-sample one-sided test needs for the same
    alpha, beta and delta (normal approximation to the binomial)."""
    z = statistics.NormalDist().inv_cdf
    p1 = settings.p1
    root = z(1.0 - settings.alpha) * math.sqrt(P0 * (1.0 - P0)) \
        + z(1.0 - settings.beta) * math.sqrt(p1 * (1.0 - p1))
    return math.ceil((root / settings.delta) ** 2)


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
    def llr(self):
        return log_ratio(self.settings, self.wins, self.losses)

    def add(self, outcome):
        """Count one comparison (WIN, LOSS or DRAW) and return the decision.
        DecidedError once the test has decided."""
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


def load_json(path):
    """The JSON object in `path`, or None when there is no such file;
    StateError when it cannot be read as one."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise StateError("cannot read %s: %s" % (path, e)) from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise StateError("%s is not JSON: %s" % (path, e)) from None
    if type(data) is not dict:
        raise StateError("%s must hold a JSON object, got %s" % (path, type(data).__name__))
    return data
