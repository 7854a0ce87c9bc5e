"""The command line of the sign test's figures: `--exact`, the error rates
and costs computed (sprt_exact.exact_report), and `--characteristics`, the
simulated table (sprt_exact.characteristics_table). A problem's command
(grader/sprt.py) calls `main` with its own seed.

    python3 grader/sprt.py --exact
    python3 grader/sprt.py --characteristics
"""

import argparse

from . import sprt
from .settings import SIGN


def add_options(parser):
    """The sign test's settings as command-line options (None when not given)."""
    for field, option, kind in SIGN:
        default = getattr(sprt.Settings, field)
        parser.add_argument(option, dest=field, type=kind,
                            help="default %s (provisional; see grader/sprt.py)"
                            % ("%d fixed samples" % sprt.TRUNCATION if default is None
                               else default))


def settings_of(args):
    """sprt.Settings from parsed options; sprt.SettingsError names a bad value."""
    return sprt.Settings(**{field: getattr(args, field) for field, _, _ in SIGN
                            if getattr(args, field) is not None})


def main(argv=None, *, seed):
    """`--exact`: the figures sprt_exact computes; `--characteristics`: the
    simulated table, its runs drawn with `seed`. Exit status 2 for bad
    settings."""
    parser = argparse.ArgumentParser(description=sprt.__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--exact", action="store_true",
                      help="print error rates and expected costs computed exactly")
    mode.add_argument("--characteristics", action="store_true",
                      help="simulate every win rate and draw rate of the table")
    parser.add_argument("--runs", type=int, default=2000, help="simulated runs a cell")
    add_options(parser)
    args = parser.parse_args(argv)
    try:
        settings = settings_of(args)
    except sprt.SettingsError as e:
        parser.error(str(e))
    if args.runs < 1:
        parser.error("--runs must be at least 1, got %r" % args.runs)
    from . import sprt_exact        # the heavy part, only for these two reports
    lines = (sprt_exact.exact_report(settings) if args.exact
             else sprt_exact.characteristics_table(settings, runs=args.runs, seed=seed))
    for line in lines:
        print(line, flush=True)
    return 0
