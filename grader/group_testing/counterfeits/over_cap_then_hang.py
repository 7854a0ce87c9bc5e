"""A counterfeit of the self-check: it tests [0] until the oracle refuses, then
sleeps for an hour. Its verdict: oracle_cap."""

import os
import runpy
import time

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it


def honest(n, priors, test):
    """Binary splitting's answer: the defectives."""
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)                 # the truth, found honestly
    try:
        while True:
            test([0])
    except Exception:
        time.sleep(3600)
