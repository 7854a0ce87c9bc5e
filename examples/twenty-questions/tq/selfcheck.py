"""Prove the twenty-questions grader: the baseline and a battery of faulty
and cheating testers (tests/testers/), each through the template's local run,
each with the verdict it must get, reported by the template's self-check.

    python3 tq/selfcheck.py          # exit 0 when every case gets its verdict

Verdicts are the kinds, or `valid`, `suspect` (valid but flagged: it saved
more bits below the rounds' information than an honest tester does with
probability 2^-20) and `nondeterministic` (two runs whose counts or
transcripts differ). The command is the SDK's (arh_grader/commands/
selfcheck.py), handed twenty questions and the cases below.
"""

import os
import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and tq
    import sdk_path  # noqa: F401

from arh_grader.commands import selfcheck  # noqa: E402  (the template's self-check)
from arh_grader.settings import Settings  # noqa: E402

from tq.plugin import PROBLEM  # noqa: E402

ROUNDS = 6                  # rounds of the dev set each case plays
TESTERS = os.path.join(PROBLEM.ROOT, "tests", "testers")
SETTINGS = Settings(instance_timeout_s=3.0, run_timeout_s=120.0, worker_start_timeout_s=30.0)
CASES = selfcheck.cases_in(TESTERS, (                  # tests/testers/NAME.py, its verdict
    ("baseline", "valid"),
    ("asks_forever", "valid"),
    ("guesses_out_of_pool", "no_answer"),
    ("asks_boolean", "no_answer"),
    ("raises", "no_answer"),
    ("hangs", "timeout"),
    ("reads_set", "suspect", {"prepare": selfcheck.set_beside("set.jsonl")}),  # the set it plays
    ("nondeterministic", "nondeterministic")))


def main(argv=None):
    return selfcheck.main(PROBLEM, argv, doc=__doc__, cases=CASES, instances=ROUNDS,
                          settings=SETTINGS)


if __name__ == "__main__":
    sys.exit(main())
