"""Compare two graph isomorphism solvers on fresh problems until the SDK's
sequential test decides whether the challenger does less work than the
incumbent, on the metric.

    python3 gi/compare.py --challenger src/solver.py \\
        --incumbent OTHER/solver.py --state compare.json [--seed S]
        [--reference SOLVER] [--instance-timeout SECONDS]
        [--log results.tsv --description TEXT --sample-result RESULT.json]
        [--test mean] [--alpha 0.05] [--beta 0.05] [--delta D] [--max-comparisons N]

Comparison k draws problem k - 1 of the seed (a fresh random one unless
given; the sample's seed is refused) and counts three solvers on it, each
folder's files as its worker hands them over, each in an emulated run of
its own: the challenger, the incumbent and the reference (by default
gi/reference/solver.py, the solver the refs are measured with). Each
scores (N * P + I) / (N * P_ref + I_ref), its work on the problem with a
share of its import over the reference's, N being 128, the platform's
held-out set: the score a set's line would give it, whose mean is
instruction_ratio. By default (`--test mean`, the SDK's
arh_grader/compare/betting.py) each comparison gives d, the challenger's
score minus the incumbent's (below 0 the challenger gains); the betting
e-processes accept when the challenger does less work on average and
reject when it does not gain `--delta`, each error at most alpha (beta)
at any stopping time. `--test sign` is Wald's test on wins, losses and
draws. The counts are exact, so a replayed comparison comes out the same;
what is random is which problems a set holds, and that is what the test
is about: whether a gain on the sample carries to problems it has not
seen. A solver still running at the deadline (autoresearch.toml's
instance_timeout_s, or --instance-timeout) scores 4, the most a problem
of a valid run scores, and loses the comparison.

The state file is the SDK's (entries [challenger, incumbent, seed,
reference], each solver's [P, I] or null past its deadline), written after
every comparison, so a killed run started again goes on where it
stopped. The decision goes to stdout as `key: value` lines; with --log a
row goes to a results file. The command is the SDK's
(arh_grader/commands/compare.py) with gi/comparison.py's rules. Exit
status: 0 once decided, 1 when a solver fails (raises, answers wrong, a
kind of the run's), 2 for bad usage or a state file that cannot be used,
130 after Ctrl-C and 143 after SIGTERM (both keep the state file).
"""

import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and gi
    import sdk_path  # noqa: F401

from arh_grader.commands import compare  # noqa: E402  (the SDK's command)

from gi.plugin import PROBLEM  # noqa: E402


def main(argv=None):
    return compare.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
