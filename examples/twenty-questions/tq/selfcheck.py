"""Prove the twenty-questions grader: the baseline and a battery of faulty
and cheating testers (tests/testers/), each through the template's local run,
each with the verdict it must get, reported by the template's self-check.

    python3 tq/selfcheck.py          # exit 0 when every case gets its verdict

Verdicts are the kinds, or `valid`, `suspect` (valid but flagged: it saved
more bits below the rounds' information than an honest tester does with
probability 2^-20) and `nondeterministic` (two runs whose counts or
transcripts differ).
"""

import os
import shutil
import sys
import tempfile

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT_GRADER = os.path.join(PROJECT, os.pardir, os.pardir, "grader")
sys.path[:0] = [p for p in (ROOT_GRADER, PROJECT) if p not in sys.path]   # the SDK's grader/, tq

from arh_grader import engine, local_run  # noqa: E402  (the template's run engine and local run)
from arh_grader.settings import Settings  # noqa: E402

from tq import sets  # noqa: E402
from tq.plugin import PROBLEM  # noqa: E402

ROUNDS = 6                  # rounds of the dev set each case plays
TESTERS = os.path.join(PROJECT, "tests", "testers")
SETTINGS = Settings(instance_timeout_s=3.0, run_timeout_s=120.0, worker_start_timeout_s=30.0)
CASES = [   # name, verdict, tester file
    ("baseline", "valid", os.path.join(TESTERS, "baseline.py")),
    ("asks_forever", "valid", os.path.join(TESTERS, "asks_forever.py")),
    ("guesses_out_of_pool", "no_answer", os.path.join(TESTERS, "guesses_out_of_pool.py")),
    ("asks_boolean", "no_answer", os.path.join(TESTERS, "asks_boolean.py")),
    ("raises", "no_answer", os.path.join(TESTERS, "raises.py")),
    ("hangs", "timeout", os.path.join(TESTERS, "hangs.py")),
    ("reads_set", "suspect", os.path.join(TESTERS, "reads_set.py")),
    ("nondeterministic", "nondeterministic", os.path.join(TESTERS, "nondeterministic.py")),
]


def run_case(name, expected, tester, items, problem, workdir):
    """One case through the template's local run: (verdict, detail). A
    tester runs where it lies: it may read files beside itself."""
    if name == "reads_set":             # the set it reads, beside a copy of it
        folder = os.path.join(workdir, name)
        os.makedirs(folder)
        shutil.copy(tester, folder)
        tester = os.path.join(folder, os.path.basename(tester))
        with open(os.path.join(folder, "set.jsonl"), "w", encoding="utf-8") as f:
            f.write(sets.dumps([item["animal"] for item in items]))
    runs = local_run.evaluate_runs(items, repeat=2 if expected == "nondeterministic" else 1,
                                   settings=SETTINGS, tester=tester, quiet=True,
                                   problem=problem)
    got = engine.run_verdict(runs[0])
    differ = local_run.first_difference(runs, keys=problem.REPEATED) if len(runs) == 2 else None
    if got == "valid" and differ:
        return "nondeterministic", differ
    return got, runs[0]["message"] or ""


def main(argv=None):
    problem = PROBLEM.for_set(PROBLEM.SAMPLE)
    items = problem.load_set(PROBLEM.SAMPLE)[:ROUNDS]
    with tempfile.TemporaryDirectory(prefix="tq-selfcheck-") as workdir:
        return engine.check_cases([
            (name, expected, lambda name=name, expected=expected, tester=tester:
             run_case(name, expected, tester, items, problem, workdir))
            for name, expected, tester in CASES])


if __name__ == "__main__":
    sys.exit(main())
