"""Shared by the broken workers: harness/worker.py as a module (`worker`),
the template it is written on (`template`, harness/arh_worker.py, with its
oracle link `link`), and a way to run it with some of its parts replaced.

Each file beside this one is a worker that breaks exactly one rule of
grader/conformance.py, the rule its name says; tests/end_to_end/test_conformance.py
checks that it fails that rule and no other. Run one as a worker command:

    python3 grader/conformance.py --worker-command "python3 tests/workers/health.py"
"""

import os
import sys

HARNESS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "harness")
TESTER = os.path.join(HARNESS, os.pardir, "src", "tester.py")     # the worker's default
sys.path.insert(0, HARNESS)

import arh_oracle_link as link  # noqa: E402
import arh_worker as template  # noqa: E402
import worker  # noqa: E402


def run(**parts):
    """Run harness/worker.py with `parts` replaced: Worker (its server
    class), an attribute of that class (Handler, OracleConnection, MAX_BODY,
    a method) or a setting of the template or its link (BODY_TIMEOUT,
    ORACLE_TIMEOUT); AttributeError names one that is none of these."""
    base = parts.pop("Worker", worker.Worker)
    replaced = {}
    for name, value in parts.items():
        if hasattr(base, name):
            replaced[name] = value
        elif hasattr(template, name) or hasattr(link, name):
            for module in (template, link):
                if hasattr(module, name):
                    setattr(module, name, value)
        else:
            raise AttributeError("harness/worker.py has no %r to replace" % name)
    sys.exit(template.main(worker_class=type(base.__name__, (base,), replaced),
                           default_tester=TESTER))
