"""Compare two twenty-questions testers on fresh rounds until the template's
sequential test decides whether the challenger beats the incumbent.

    python3 tq/compare.py --challenger src/tester.py \\
        --incumbent tests/testers/fixed_order.py [--test mean|sign] [--delta D]

Round k plays animal k of the whole pool in an order drawn with the seed.
By default (`--test mean`, grader/betting.py at the repository's root) each
round gives d, the incumbent's round score minus the challenger's (below 0
the challenger gains), a round past its deadline scoring 0; the betting
e-processes accept when the challenger is better on average and reject
when it does not gain `--delta`, each error at most 0.05 at any stopping
time. `--test sign` is Wald's test on wins, losses and draws
(grader/sprt.py). Neither tester plays in this process: each has a tq
worker of its own (arh_grader.contender), frozen while the other plays,
and its calls are counted by the oracle served here under this problem's
policy, as in a local run. A challenger whose saved bits over its rounds
reach 20 (an honest tester does so with probability at most 2**-20) is
rejected there and then as suspect. The decision goes to stdout as `key:
value` lines, with W/L/D beside either test and `score_difference`: the
mean over rounds of the challenger's score minus the incumbent's (above 0,
the challenger is better) with its 95% confidence sequence, valid at any
stopping time. A tester still playing a round at the deadline
(autoresearch.toml's instance_timeout_s, or --instance-timeout) loses that
comparison, scoring 0, and `timeouts` counts them. Exit status: 0 once
decided, 1 when a tester fails, 2 for bad usage.
"""

import argparse
import os
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT_GRADER = os.path.join(PROJECT, os.pardir, os.pardir, "grader")
for path in (PROJECT, ROOT_GRADER):
    if path not in sys.path:
        sys.path.insert(0, path)

import betting  # noqa: E402  (the template's mean test)
import sprt  # noqa: E402  (the template's sign test)
from arh_grader import Oracle, options  # noqa: E402
from arh_grader.contender import Contender, TesterChanged  # noqa: E402

from tq import data, grade, plugin, sets  # noqa: E402

WORKER = os.path.join(PROJECT, "harness", "worker.py")


def outcome(challenger, incumbent):
    """The challenger's outcome from both round scores, None for a round
    past its deadline, which loses (two such rounds draw)."""
    if challenger is None or incumbent is None:
        return sprt.DRAW if challenger is incumbent else \
            sprt.LOSS if challenger is None else sprt.WIN
    if challenger > incumbent:
        return sprt.WIN
    return sprt.LOSS if challenger < incumbent else sprt.DRAW


def play_round(contender, index, animal, *, timeout):
    """(the round's score, its entry), or (None, None) when the tester ran
    past `timeout` seconds; TesterError when it failed otherwise."""
    item = {"animal": animal}
    session, failure = contender.run(index, item, timeout=timeout)
    if failure is not None:
        if failure.kind == "timeout":
            return None, None
        raise TesterError("the %s failed on animal %d: %s: %s"
                          % (contender.role, animal, failure.kind, failure.message))
    entry = contender.problem.entry(index, item, session)
    return entry["score"], entry


class TesterError(Exception):
    """A tester that failed a round otherwise than by its deadline."""


class Tally:
    """Wins, losses and draws of the challenger, beside either test."""

    def __init__(self):
        self.wins = self.losses = self.draws = 0

    def add(self, result):
        if result == sprt.WIN:
            self.wins += 1
        elif result == sprt.LOSS:
            self.losses += 1
        else:
            self.draws += 1


def difference(challenger, incumbent):
    """The mean test's d for a round: the incumbent's score minus the
    challenger's (scores are higher for better, d below 0 is the
    challenger's gain), a round past its deadline scoring 0, the worst."""
    return (incumbent or 0.0) - (challenger or 0.0)


def compare(challenger, incumbent, *, seed, timeout, record=None, stream=sys.stderr):
    """(the decided record, each round's pair of scores, the W/L/D tally,
    the verdict: (decision, reason)) of `challenger` against `incumbent`
    (Contenders) on the pool in the seed's order. `record` is a
    betting.MeanRecord (the default) or an sprt.WinRecord (the sign test).
    The verdict is the record's, or a rejection once the challenger's saved
    bits make it suspect."""
    record = betting.MeanRecord() if record is None else record
    pairs, entries, tally = [], [], Tally()
    order = sets.ordered("compare/%s" % seed, range(data.ANIMALS))
    for k, animal in enumerate(order, 1):
        played = [play_round(contender, k - 1, animal, timeout=timeout)
                  for contender in (challenger, incumbent)]
        pair = tuple(score for score, _ in played)
        pairs.append(pair)
        if played[0][1] is not None:
            entries.append(played[0][1])
        tally.add(outcome(*pair))
        record.add(outcome(*pair) if isinstance(record, sprt.WinRecord)
                   else difference(*pair))
        stream.write("comparison: %d animal %d: %s against %s\n" % (
            k, animal, *("timeout" if s is None else "%.2f" % s for s in pair)))
        suspect = challenger.problem.summary(entries)
        if suspect["suspect"]:
            return record, pairs, tally, (sprt.REJECT, "suspect: the challenger saved %.1f "
                                          "bits below the information its rounds hold"
                                          % suspect["saved_bits"])
        if record.decision != sprt.CONTINUE:
            break
    return record, pairs, tally, (record.decision, record.reason)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="a tester file")
    parser.add_argument("--incumbent", required=True, help="a tester file")
    parser.add_argument("--seed", default="twenty-questions", help="the rounds' order")
    parser.add_argument("--instance-timeout", type=options.positive(float), metavar="SECONDS",
                        help="each tester's deadline on a round (default: autoresearch.toml)")
    parser.add_argument("--test", choices=("mean", "sign"), default="mean",
                        help="mean: the betting test on the round scores' difference "
                             "(default); sign: Wald's test on wins")
    parser.add_argument("--delta", type=options.positive(float), default=betting.DELTA,
                        help="the mean test's smallest gain worth keeping (default %g)"
                             % betting.DELTA)
    args = parser.parse_args(argv)
    for option, path in (("--challenger", args.challenger), ("--incumbent", args.incumbent)):
        if not os.path.isfile(path):
            parser.error("%s %r is not a file" % (option, path))
    settings = grade.load_settings()
    timeout = args.instance_timeout or float(settings["instance_timeout_s"])
    oracle = Oracle(check=plugin.Plugin.check_query, answer=plugin.Plugin.answer_query,
                    idle_timeout=timeout + 5).start()
    try:
        with Contender(args.challenger, role="challenger", worker_file=WORKER, oracle=oracle,
                       problem=plugin.Plugin(pool=data.ANIMALS),
                       start_timeout=float(settings["worker_start_timeout_s"])) as challenger, \
                Contender(args.incumbent, role="incumbent", worker_file=WORKER, oracle=oracle,
                          problem=plugin.Plugin(pool=data.ANIMALS),
                          start_timeout=float(settings["worker_start_timeout_s"])) as incumbent:
            record = (sprt.WinRecord() if args.test == "sign"
                      else betting.MeanRecord(betting.Settings(delta=args.delta)))
            record, pairs, tally, verdict = compare(challenger, incumbent, seed=args.seed,
                                                    timeout=timeout, record=record)
    except (TesterError, TesterChanged) as e:
        sys.stderr.write("compare: %s\n" % e)
        return 1
    finally:
        oracle.stop()
    print("decision: %s" % verdict[0])
    print("reason: %s" % verdict[1])
    print("test: %s" % args.test)
    print("comparisons: %d" % record.comparisons)
    print("W/L/D: %d/%d/%d" % (tally.wins, tally.losses, tally.draws))
    print("score_difference: %s" % betting.text([-difference(*pair) for pair in pairs]))
    print("timeouts: challenger %d, incumbent %d"
          % tuple(sum(pair[k] is None for pair in pairs) for k in (0, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
