"""The grader SDK: a counting oracle, a client for the worker, and the
fixed verdicts with the result writer. Nothing here knows the problem; the
grader hands the oracle a function that checks a query and one that answers
it.

    oracle = Oracle(check=check, answer=answer, port=8081)
    oracle.start()
    token = oracle.open(secret, cap=100, max_body=4096)
    ...                                # the worker sends its tests
    session = oracle.close(token)      # session.tests is final
"""

import sys

if sys.version_info < (3, 11):      # tomllib, and the containers' Python is 3.13
    sys.exit("group-testing needs Python 3.11 or newer; this is Python %s"
             % sys.version.split()[0])

from .client import WorkerClient  # noqa: E402
from .oracle import Oracle, Policy, QueryError, Session  # noqa: E402
from .result import (KINDS, PLATFORM_KINDS, SUBMISSION_KINDS, Failure, canonical,
                     write_json)

from . import engine  # noqa: E402

__all__ = ["engine", "Oracle", "Policy", "QueryError", "Session", "WorkerClient", "Failure", "KINDS",
           "SUBMISSION_KINDS", "PLATFORM_KINDS", "canonical", "write_json"]
