"""A counterfeit of the self-check: a thread tests [0] after find has returned:
the oracle must refuse it and count nothing, which the next instance checks.
Its verdict: valid."""

import os
import runpy
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it

LATE = []     # the previous instance's late thread; its .error is the refusal it got


def honest(n, priors, test):
    """Binary splitting's answer: the defectives."""
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)                 # the truth, found honestly
    if LATE:
        LATE[0].join()
        assert isinstance(LATE[0].error, Exception), 'a late test was answered'
        LATE.clear()

    def late():
        time.sleep(0.2)
        try:
            test([0])
        except Exception as e:
            thread.error = e

    thread = threading.Thread(target=late)
    thread.error = None
    thread.start()
    LATE.append(thread)
    return d
