"""Which test a comparison decides by, and its settings: as data (the state
file's `settings`) and as command-line options (--test and each test's own).

    settings = settings.of("mean", {"delta": 0.01})    # a TestSettings
    settings.to_dict()                                 # {..., "test": "mean"}
    settings.add_options(parser); settings.settings_of(args)

`mean` is betting's test on the mean score difference, `sign` Wald's on
wins (sprt).
"""

import dataclasses

from . import betting, sprt
from .sprt import StateError

SIGN = (               # (settings field, option, type) of the sign test's settings
    ("alpha", "--alpha", float), ("beta", "--beta", float), ("delta", "--delta", float),
    ("draw_ceiling", "--draw-ceiling", float), ("draw_alpha", "--draw-alpha", float),
    ("min_sample", "--min-sample", int), ("max_decisive", "--max-decisive", int))
TESTS = {"mean": betting, "sign": sprt}     # --test: the module of each test
OPTIONS = {           # --test: (settings field, option, type) of its settings
    "mean": (("alpha", "--alpha", float), ("beta", "--beta", float),
             ("delta", "--delta", float), ("max_comparisons", "--max-comparisons", int)),
    "sign": SIGN}


@dataclasses.dataclass(frozen=True)
class TestSettings:
    """The test a run decides by (`mean`, betting's, or `sign`, Wald's on
    wins) and its settings (betting.Settings or sprt.Settings)."""

    test: str
    settings: object

    def to_dict(self):
        return dict(self.settings.to_dict(), test=self.test)

    @classmethod
    def from_dict(cls, data):
        """StateError unless `data` is what to_dict gives."""
        test = data.get("test") if type(data) is dict else None
        if test not in TESTS:
            raise StateError("settings must name a test, one of %s, got %r"
                                  % (", ".join(TESTS), data))
        names = sorted([field for field, _, _ in OPTIONS[test]] + ["test"])
        if sorted(data) != names:
            raise StateError("settings of --test %s must hold exactly %s, got %r"
                                  % (test, ", ".join(names), data))
        try:
            return of(test, {k: v for k, v in data.items() if k != "test"})
        except (betting.SettingsError, sprt.SettingsError) as e:
            raise StateError("saved settings: %s" % e) from None

    def record(self):
        """A fresh record of this test."""
        return (betting.MeanRecord(self.settings) if self.test == "mean"
                else sprt.WinRecord(self.settings))


def of(test, values):
    """TestSettings of `test` from {field: value} (the rest its defaults);
    SettingsError (the test module's) names a bad value."""
    kind = betting.Settings if test == "mean" else sprt.Settings
    return TestSettings(test, kind(**values))


def add_options(parser):
    """--test and every test's settings as options (None when not given)."""
    parser.add_argument("--test", choices=sorted(TESTS), default="mean",
                        help="the decision: mean (default, arh_grader/compare/betting.py: the "
                             "mean score difference) or sign (arh_grader/compare/sprt.py: "
                             "Wald's on wins)")
    seen = set()
    for test, options in OPTIONS.items():
        for field, option, kind in options:
            if option not in seen:
                seen.add(option)
                parser.add_argument(option, dest=field, type=kind,
                                    help="a setting of --test %s (see arh_grader/compare/%s.py)"
                                    % (" and ".join(t for t in OPTIONS if any(
                                        o == option for _, o, _ in OPTIONS[t])),
                                       TESTS[test].__name__.rsplit(".", 1)[-1]))


def settings_of(args):
    """TestSettings from parsed options; ValueError naming an option of the
    other test, or a bad value."""
    own = {field for field, _, _ in OPTIONS[args.test]}
    for test, options in OPTIONS.items():
        for field, option, _ in options:
            if field not in own and getattr(args, field, None) is not None:
                raise ValueError("%s is a setting of --test %s, not of --test %s"
                                 % (option, test, args.test))
    return of(args.test, {field: getattr(args, field) for field in own
                          if getattr(args, field) is not None})
