"""A counterfeit of the self-check: a test of its own with a token it made up:
the oracle must answer 403 and count nothing. Its verdict: valid."""

import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it
RAW_REQUEST = os.path.join(HERE, "raw_request.py")


def honest(n, priors, test):
    """Binary splitting's answer: the defectives."""
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)                 # the truth, found honestly
    assert runpy.run_path(RAW_REQUEST)["raw_test"]('x' * 32, [0]) == 403
    return d
