"""Check a worker of any language against the worker's side of CONTRACT.md.

    python3 grader/conformance.py --worker-command "python3 harness/worker.py"
    python3 grader/conformance.py --worker http://127.0.0.1:8080 --oracle-port 8081

It serves its own oracle with a small known instance and prints one line a
rule, `RULE: pass [MUST 1.0] — what was seen` (or `fail`, or `skip` with the
rule that kept it from being checked, or the later version that brought
it), then `rules: N`, `passed: N`, `failed: N`, `skipped: N`, `contract:
V` (the version checked: the worker's, from its /health, at most this
check's), `conforms: yes|no` (yes when no MUST failed) and a `warning:`
line for each SHOULD that failed. Exit status: 0 when it conforms, 1 when
a MUST failed, 2 when the check could not run (a bad option, a worker that
never listens).

--worker-command starts the worker (split as a shell would, run without
one) on a free loopback port, with AR_ORACLE_URL, AR_WORKER_HOST and
AR_WORKER_PORT set, and kills it and all it started at the end, whatever
happens; its output goes to a log whose end is printed when a rule fails.
--worker checks a worker already running, which must send its tests to
this command's oracle (--oracle-host, --oracle-port: 127.0.0.1:8081 by
default, the worker's own default AR_ORACLE_URL); the rule `port_zero`,
which starts the command a second time, is skipped then.

The worker must run its shipped tester, binary splitting exactly as
docs/scoring.md defines it: `one_test_a_request` compares the oracle's record
with binary splitting's tests, pool for pool.

The rules that know no problem, the loop that runs them and this command
line are the SDK's (arh_grader/conformance/: service.py and requests.py,
run.py, cli.py); group testing's part, its known instance, its bodies and
the rules only it can judge, is group_testing/conformance.py.
"""

import sys

from arh_grader.conformance import cli
from group_testing.conformance import Checker


def main(argv=None):
    return cli.main(argv, checker=Checker, description=__doc__.split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
