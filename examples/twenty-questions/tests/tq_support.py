"""Shared by the tests of twenty questions: paths, the project and the
grader SDK on sys.path, temporary folders, and the testers' files."""

import os
import shutil
import sys
import tempfile

TESTS = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(TESTS)
ROOT = os.path.dirname(os.path.dirname(PROJECT))
for _path in (PROJECT, os.path.join(ROOT, "grader")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

BASELINE = os.path.join(TESTS, "testers", "baseline.py")   # the frozen copy of the shipped tester
POLICY_COMMAND = os.path.join(PROJECT, "tq", "policy.py")


def tester(name):
    """The path of tests/testers/<name>.py."""
    return os.path.join(TESTS, "testers", name + ".py")


def tmpdir(case):
    """A temporary folder removed when `case` ends."""
    path = tempfile.mkdtemp(prefix="tq-test-")
    case.addCleanup(shutil.rmtree, path, True)
    return path


def show(text):
    """Print a figure a test measures on stderr, only when GT_SHOW=1: a
    passing run prints nothing but unittest's own lines."""
    if os.environ.get("GT_SHOW") == "1":
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
