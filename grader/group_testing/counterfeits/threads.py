"""A counterfeit of the self-check: 16 tests from 16 threads at once, each
counted, then the right answer: a valid run with 16 tests beyond the
baseline's. Its verdict: valid."""

import os
import runpy
import threading

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it


def honest(n, priors, test):
    """Binary splitting's answer: the defectives."""
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)                 # the truth, found honestly
    threads = [threading.Thread(target=test, args=([i],)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return d
