"""Shared by the broken workers: harness/worker.py as a module, and a way to
run it with some of its parts replaced.

Each file beside this one is a worker that breaks exactly one rule of
grader/conformance.py, the rule its name says; tests/test_conformance.py
checks that it fails that rule and no other. Run one as a worker command:

    python3 grader/conformance.py --worker-command "python3 tests/workers/health.py"
"""

import os
import sys

HARNESS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "harness")
sys.path.insert(0, HARNESS)

import worker  # noqa: E402


def run(**parts):
    """Run harness/worker.py's main with `parts` (its module-level names:
    classes, settings) replaced; AttributeError names one it does not have."""
    for name, value in parts.items():
        if not hasattr(worker, name):
            raise AttributeError("harness/worker.py has no %r to replace" % name)
        setattr(worker, name, value)
    sys.exit(worker.main())
