"""The grader SDK, which no problem is part of. `arh` is the platform the
benchmarks run on, whose command `arh run` runs a problem's grader and
worker (its settings file is autoresearch.toml, its workers' variables
start with AR_); arh_grader is that platform's SDK for graders that count
what a tester does themselves. It holds the counting oracle (its
HTTP in oracle.py, its sessions and counting policy in session.py), the
client for the worker (client.py), the run engine a problem plugs into
(engine.py), the fixed verdicts with the result writer (result.py), and
the local run: a problem's worker started on this machine beside the oracle
(local_run.py), or a worker of any language from its command (workers.py).
Whatever a worker started is killed and reaped when it stops (reaper.py).
What a run changed outside the editable folders is named (integrity.py).
The report (report.py, and its SVG picture, picture.py) reads a result
instance by instance against each instance's bound and against another
result, as the problem describes them. What the harness costs a call,
beside what loopback allows, is measured for a problem that gives a
benchmark.Bench (benchmark.py). The commands every problem offers
(grade, local, report, mmi, bench...) are the package commands/, each handed the
problem; a run's settings are one frozen object (settings.py). A problem is a
subclass of problem.Problem, the one object every part of the SDK is
handed: its docstring says what the SDK calls, when, and what each
member returns.
The options every problem's grader and local run share, with types that
refuse a bad value by name, are options.py. A worker started here runs
inside Landlock's walls (sandbox.py); a comparison runs each of its
testers in such a worker, one at a time (contender.py), and the package
compare/ decides it: its sequential tests, state file and log. The HTTP
rules every worker must pass, the tables a problem's contract fills and
the requests a worker must refuse, are the package conformance/.
Statistics every problem's tools share: stats.py.

    oracle = Oracle(port=8081)
    oracle.start()
    token = oracle.open(PROBLEM.session(item))   # a Spec: secret, cap, rules...
    ...                                # the worker sends its tests
    session = oracle.close(token)      # session.tests is final

or a whole run: engine.evaluate(items, problem=PROBLEM, oracle=oracle,
settings=PROBLEM.settings(), ...), or a whole command:
commands.local.main(PROBLEM).
"""

import sys

if sys.version_info < (3, 11):      # tomllib, and the containers' Python is 3.13
    sys.exit("the grader needs Python 3.11 or newer; this is Python %s"
             % sys.version.split()[0])

from .client import WorkerClient  # noqa: E402
from .oracle import Oracle  # noqa: E402
from .session import Policy, QueryError, Session, Spec  # noqa: E402
from .result import (KINDS, PLATFORM_KINDS, SUBMISSION_KINDS, Failure, canonical,
                     write_json)

from . import engine  # noqa: E402
from .problem import Problem  # noqa: E402

__all__ = ["engine", "Oracle", "Policy", "Problem", "QueryError", "Session", "Spec",
           "WorkerClient", "Failure", "KINDS",
           "SUBMISSION_KINDS", "PLATFORM_KINDS", "canonical", "write_json"]
