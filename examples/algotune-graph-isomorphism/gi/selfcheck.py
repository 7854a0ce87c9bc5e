"""Prove the graph-isomorphism grader: a solver that does less work and a
battery of faulty and cheating solvers (tests/solvers/NAME/solver.py),
each counted under the emulator through the SDK's local run on the
sample's first problem, each with the verdict it must get.

    python3 gi/selfcheck.py          # exit 0 when every case gets its verdict

A wrong mapping is `wrong`; a solver that looks for the set on the disk
to regenerate its problems' relabellings is refused by the emulator's
walls (`solver_failed`); one that waits forever meets the run's deadline
(`solver_timeout`); one that starts a thread, `threads`; one that writes
through a ctypes pointer into the emulator's own memory, `escape`; one
that prints megabytes, `output_too_large`. The command is the SDK's
(arh_grader/commands/selfcheck.py), handed graph isomorphism and the cases.
"""

import os
import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and gi
    import sdk_path  # noqa: F401

from arh_grader.commands import selfcheck  # noqa: E402  (the SDK's self-check)
from arh_grader.settings import Settings  # noqa: E402

from gi.plugin import PROBLEM  # noqa: E402

PROBLEMS = 1                # problems of the sample each case is counted on
SOLVERS = os.path.join(PROBLEM.ROOT, "tests", "solvers")
SETTINGS = Settings(instance_timeout_s=60.0, run_timeout_s=900.0, worker_start_timeout_s=30.0)
WAIT = SETTINGS.replace(run_timeout_s=30.0)     # the sleeper's run: its deadline comes soon
CASES = tuple(selfcheck.Case(name, expected, os.path.join(SOLVERS, name, "solver.py"),
                             **options)
              for name, expected, options in (   # tests/solvers/NAME/solver.py, its verdict
                  ("refined", "valid", {}),
                  ("wrong", "wrong", {}),
                  ("reads_seed", "solver_failed", {}),
                  ("sleeps", "solver_timeout", {"settings": WAIT}),
                  ("thread", "threads", {}),
                  ("far_pointer", "escape", {}),
                  ("chatty", "output_too_large", {})))


def main(argv=None):
    return selfcheck.main(PROBLEM, argv, doc=__doc__, cases=CASES, instances=PROBLEMS,
                          settings=SETTINGS)


if __name__ == "__main__":
    sys.exit(main())
