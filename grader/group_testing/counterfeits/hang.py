"""A counterfeit of the self-check: it sleeps for an hour once it has found the
defectives. Its verdict: timeout."""

import os
import runpy
import time

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it


def honest(n, priors, test):
    """Binary splitting's answer: the defectives."""
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)                 # the truth, found honestly
    time.sleep(3600)
