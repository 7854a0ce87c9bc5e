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

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT_GRADER = os.path.join(PROJECT, os.pardir, os.pardir, "grader")
sys.path[:0] = [p for p in (ROOT_GRADER, PROJECT) if p not in sys.path]   # the SDK's grader/, tq

from arh_grader.commands import selfcheck  # noqa: E402  (the template's self-check)
from arh_grader.commands.selfcheck import Case  # noqa: E402
from arh_grader.settings import Settings  # noqa: E402

from tq import sets  # noqa: E402
from tq.plugin import PROBLEM  # noqa: E402

ROUNDS = 6                  # rounds of the dev set each case plays
TESTERS = os.path.join(PROJECT, "tests", "testers")
SETTINGS = Settings(instance_timeout_s=3.0, run_timeout_s=120.0, worker_start_timeout_s=30.0)


def write_set(folder, items):
    """set.jsonl beside reads_set's tester: the set it is run on."""
    with open(os.path.join(folder, "set.jsonl"), "w", encoding="utf-8") as f:
        f.write(sets.dumps([item["animal"] for item in items]))


CASES = tuple(Case(name, expected, os.path.join(TESTERS, name + ".py"), **options)
              for name, expected, options in (
                  ("baseline", "valid", {}),
                  ("asks_forever", "valid", {}),
                  ("guesses_out_of_pool", "no_answer", {}),
                  ("asks_boolean", "no_answer", {}),
                  ("raises", "no_answer", {}),
                  ("hangs", "timeout", {}),
                  ("reads_set", "suspect", {"prepare": write_set}),
                  ("nondeterministic", "nondeterministic", {})))


def main(argv=None):
    return selfcheck.main(PROBLEM.for_set(PROBLEM.SAMPLE), argv, doc=__doc__, cases=CASES,
                          instances=ROUNDS, settings=SETTINGS)


if __name__ == "__main__":
    sys.exit(main())
