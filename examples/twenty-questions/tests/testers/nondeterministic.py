"""A counterfeit: it plays like the baseline, but first asks one question
chosen by the operating system's randomness. Two runs of one set must give
different transcripts, so the run must be found nondeterministic."""

import importlib.util
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "baseline.py")    # beside it: a worker reads no further


def _baseline():
    spec = importlib.util.spec_from_file_location("tq_baseline_copy", BASELINE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_PLAY = []


def play(ask, guess):
    if not _PLAY:
        _PLAY.append(_baseline().play)
    ask(random.SystemRandom().randrange(559))
    _PLAY[0](ask, guess)
