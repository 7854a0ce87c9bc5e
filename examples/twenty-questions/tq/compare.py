"""Compare two twenty-questions testers on fresh rounds until the template's
sequential test decides whether the challenger beats the incumbent.

    python3 tq/compare.py --challenger src/tester.py \\
        --incumbent tests/testers/fixed_order.py --state compare.json [--seed S]
        [--log results.tsv --description TEXT --sample-result RESULT.json]
        [--instance-timeout SECONDS] [--test mean] [--alpha 0.05] [--beta 0.05]
        [--delta 0.005] [--max-comparisons 5000]
        [--test sign [--delta 0.1] [--draw-ceiling 0.85] [--draw-alpha 0.01]
                     [--min-sample 30] [--max-decisive N]]

Comparison k plays animal k - 1 of the whole pool in an order drawn with the
seed: a fresh random one unless given, and the public sets' seed is refused.
By default (`--test mean`, arh_grader/compare/betting.py in the SDK) each
round gives d, the incumbent's round score minus the challenger's (below 0
the challenger gains), a round past its deadline scoring 0; the betting
e-processes accept when the challenger is better on average and reject
when it does not gain `--delta`, each error at most alpha (beta) at any
stopping time. `--test sign` is Wald's test on wins, losses and draws
(arh_grader/compare/sprt.py). Neither tester plays in this process: each has a tq
worker of its own (arh_grader.contender), frozen while the other plays,
and its calls are counted by the oracle served here under this problem's
policy, as in a local run. A challenger whose saved bits over its rounds
reach 20 (an honest tester does so with probability at most 2**-20) is
rejected there and then as suspect; one past its deadline on 3 rounds in a
row is rejected (`timeouts: ...`), and one that has played the whole pool
without a decision too (`pool: ...`). The decision goes to stdout as `key:
value` lines, with W/L/D beside either test and `score_difference`: the
mean over rounds of the challenger's score minus the incumbent's (above 0,
the challenger is better) with its 99% confidence sequence, valid at any
stopping time. A tester still playing a round at the deadline
(autoresearch.toml's instance_timeout_s, or --instance-timeout) loses that
comparison, scoring 0, and `timeouts` counts them.

The state file is the SDK's (arh_grader/compare/state.py, with this
problem's entries: [challenger, incumbent, animal], each tester's [calls,
found] or null past its deadline): locked while a run uses it and written
atomically after every comparison, so a killed run started again with the
same command goes on where it stopped. It is taken up only with the
settings, seed and tester files it was started with, after a few of its
comparisons are played again with the same calls. With --log, each decision
appends a row to a results file, group testing's columns
(arh_grader/compare/log.py): its `relative_tests` holds the sample's
`mean_score` (from --sample-result, a tq/local.py result.json), and its
status is `keep` only for an accepted challenger, not suspect, whose sample
run is valid, not suspect, not tampered and names no walls_missing, with
no file outside src/ changed, the log changed by nothing else during the
run, and both testers inside every wall the SDK builds (a wall the kernel
refused is named: `walls_missing: landlock`, and a `warning:` line).

The command is the SDK's (arh_grader/commands/compare.py), handed this
problem (tq/plugin.py, PROBLEM), whose rules of a comparison are
tq/comparison.py's. Exit status: 0 once decided, 1 when a tester fails (an
exception, a bad call), 2 for bad usage or a state file that cannot be
used, 130 after Ctrl-C and 143 after SIGTERM (both keep the state file).
"""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and tq
    import sdk_path  # noqa: F401

from arh_grader.commands import compare  # noqa: E402  (the SDK's command)

from tq.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return compare.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
