"""Compare two testers on fresh instances until the sequential test decides
whether the challenger beats the incumbent.

    python3 grader/compare.py --challenger src/tester.py \\
        --incumbent old/tester.py --state compare.json [--seed S]
        [--reference platform/tester.py]
        [--log results.tsv --description TEXT --sample-result RESULT.json]
        [--instance-timeout SECONDS] [--test mean] [--alpha 0.05] [--beta 0.05]
        [--delta 0.005] [--max-comparisons 5000]
        [--test sign [--delta 0.1] [--draw-ceiling 0.85] [--draw-alpha 0.01]
                     [--min-sample 30] [--max-decisive N]]

Comparison k runs both testers on instance k - 1 of the set drawn with the
seed (grader/instances.py: `--seed S --count k` prints it last); the seed
is a fresh random one unless given, and the public sets' seeds are refused.
Its score difference d is the challenger's tests / baseline minus the
incumbent's; a tester past the instance deadline (autoresearch.toml's
instance_timeout_s) scores the cap, (2n + 64) / baseline. The default test,
`--test mean` (arh_grader/compare/betting.py), accepts once the e-process shows E[d] < 0
and rejects once the other shows E[d] > -delta, each error at most alpha
(beta) at any stopping time. `--test sign` (arh_grader/compare/sprt.py) is Wald's test
on wins (fewer tests), losses (more, or past the deadline) and draws. Either
way the summary shows W/L/D and the mean score difference with its 99%
confidence sequence, and a challenger past its deadline on
TIMEOUTS_IN_A_ROW comparisons in a row is rejected (`timeouts: ...`).
It shows too the challenger's total gain against a fixed reference (binary
splitting, or the tester file --reference names, run on the same
instances as a third contender), whether it clears the MMI, and what is
left to win above the information floor (arh_grader/compare/total.py).

Neither tester runs in this process. Each has a harness/worker.py of its
own (arh_grader.contender), frozen (every process of it stopped) while the
other is judged; its tests go over HTTP to the oracle served here, counted,
capped and checked as in a local run and on the platform. A tester past
its deadline is killed with its worker, loses that comparison, and gets a
fresh worker for the next. The cheat statistics of both testers
are kept over the comparisons (group_testing.cheat): a challenger whose
`cheat_bits` reach 20 is rejected there and then, as `suspect`, whatever
its wins. A tester file that changes during the run ends it (exit status 1).

The command is the SDK's (arh_grader/commands/compare.py), handed group
testing (group_testing/plugin.py, PROBLEM), whose rules of a comparison
are group_testing/comparison.py's.

The state file (arh_grader/compare/state.py) is locked while a run uses it and
written atomically after every comparison, so a killed run started again
with the same command goes on where it stopped. A run takes up a state file
only with the settings, seed and tester files it was started with; one
version of a tester, one state file. Taking one up runs a few of its
comparisons again, and a file whose record the testers do not reproduce is
refused.

With --log, each decision this run reaches appends one tab-separated row to
the file (a header first when the file is new): commit, decision,
comparisons, score difference, the sample's relative_tests (from
--sample-result), status (keep, discard or crash), total gain, reference
and the description; a file that starts with another header (an older
compare.py's) is refused, exit status 2. A
row says `keep` only for an accepted challenger that is not suspect, whose
gain clears the MMI, whose sample result is valid, not suspect, not
`tampered` and names no `walls_missing`, when the log file was not changed
by anyone else during the run, and when both testers ran inside every wall
(arh_grader/sandbox.py). A wall the kernel refused is named on a line
`walls_missing: landlock` before the decision, and with --log a `warning:
not kept: ...` line names it when the challenger is accepted.

One progress line a comparison goes to stderr; the decision goes to stdout
as `key: value` lines. Exit status: 0 once decided (whatever the decision),
1 when a tester fails (a wrong answer, an exception, the cap; the instance
is named), 2 for bad usage or a state file that cannot be used, 130 after
Ctrl-C and 143 after SIGTERM (both keep the state file, and say whether one
exists).
"""

import sys

from arh_grader.commands import compare
from group_testing.plugin import PROBLEM


def main(argv=None):
    return compare.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
