"""Shared by the tests of graph isomorphism: paths, the project and the
grader SDK on sys.path, and temporary folders."""

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
WORKER = os.path.join(PROJECT, "harness", "worker.py")


def tmpdir(case):
    """A temporary folder removed when `case` ends."""
    path = tempfile.mkdtemp(prefix="gi-test-")
    case.addCleanup(shutil.rmtree, path, True)
    return path


def solver(name):
    """The path of tests/solvers/<name>.py."""
    return os.path.join(TESTS, "solvers", name + ".py")
