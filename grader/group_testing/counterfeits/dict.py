"""A counterfeit of the self-check: the defectives inside a dict. Its verdict:
schema."""

import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it


def honest(n, priors, test):
    """Binary splitting's answer: the defectives."""
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)                 # the truth, found honestly
    return {'defectives': d}
