"""Binary splitting as a tester file: the tester whose tests are the baseline.

Its find is calibration.py's `split` on all n items as one group, which is
what grader/group_testing/problem.py's baseline_tests counts, so it scores
exactly 1.0 on every instance, whatever src/tester.py holds. The grader's
side holds binary splitting once, as calibration.py's `split`; this file
runs it as a tester for the self-check's cases (grader/selfcheck.py), the
benchmark's whole run (grader/bench.py) and the comparison's simulated pairs
(pairs.py):

    python3 grader/local.py --tester grader/group_testing/splitting.py

It imports nothing of the project, as a tester must not: it reads
calibration.py beside it (a worker may read its tester's folder), loaded
as a module of its own when first asked, so that it runs the same whether
a worker loads it, a process loads it by its path, or the grader imports
it as group_testing.splitting.
"""

import functools
import importlib.util
import os

CALIBRATION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration.py")


@functools.lru_cache(maxsize=1)
def calibration():
    """calibration.py beside this file, as a module of its own."""
    spec = importlib.util.spec_from_file_location("splitting_calibration", CALIBRATION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def find(n, priors, test):
    return sorted(calibration().split(range(n), test))
