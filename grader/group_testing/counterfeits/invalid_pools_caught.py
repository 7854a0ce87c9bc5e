"""A counterfeit of the self-check: it makes 8 invalid tests, catches each
refusal and answers right: a valid run with 8 tests beyond the baseline's,
all 8 counted invalid. Its verdict: valid."""

import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it


def honest(n, priors, test):
    """Binary splitting's answer: the defectives."""
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)                 # the truth, found honestly
    for pool in ([], [0, 0], [n], [-1], [True], [0.0], [[0]], list(range(n + 1))):
        try:
            test(pool)
        except Exception:
            pass
    return d
