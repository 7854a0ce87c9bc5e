"""The second problem's own tests (examples/twenty-questions/tests) run as
part of this suite, so that the template's one test command covers both."""

import glob
import importlib
import os
import sys

import support

EXAMPLE_TESTS = os.path.join(support.ROOT, "examples", "twenty-questions", "tests")


def load_tests(loader, tests, pattern):
    if EXAMPLE_TESTS not in sys.path:
        sys.path.insert(0, EXAMPLE_TESTS)
    for path in sorted(glob.glob(os.path.join(EXAMPLE_TESTS, "test_*.py"))):
        module = importlib.import_module(os.path.basename(path)[:-3])
        tests.addTests(loader.loadTestsFromModule(module))
    return tests
