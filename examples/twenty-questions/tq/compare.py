"""Compare two twenty-questions testers on fresh rounds until the template's
sequential test (grader/sprt.py at the repository's root) decides whether
the challenger beats the incumbent.

    python3 tq/compare.py --challenger src/tester.py \\
        --incumbent tests/testers/fixed_order.py

Round k plays animal k of the whole pool in an order drawn with the seed.
The challenger wins a round with a higher round score, loses with a lower
one, draws with the same; the record goes to sprt.WinRecord, which accepts,
rejects or continues. Neither tester plays in this process: each has a tq
worker of its own (arh_grader.contender), frozen while the other plays,
and its calls are counted by the oracle served here under this problem's
policy, as in a local run. A challenger whose saved bits over its rounds reach 20 (an
honest tester does so with probability at most 2**-20) is rejected there
and then as suspect. The decision goes to stdout as `key:
value` lines, with `score_difference`: the mean over rounds of the
challenger's score minus the incumbent's (above 0, the challenger is
better) and its 95% interval (sprt.difference_text). A tester still playing a
round at the deadline (autoresearch.toml's instance_timeout_s, or
--instance-timeout) loses that comparison, and `timeouts` counts them; the
rounds with a timeout are left out of the score difference. Exit status:
0 once decided, 1 when a tester fails, 2 for bad usage.
"""

import argparse
import os
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT_GRADER = os.path.join(PROJECT, os.pardir, os.pardir, "grader")
for path in (PROJECT, ROOT_GRADER):
    if path not in sys.path:
        sys.path.insert(0, path)

import sprt  # noqa: E402  (the template's sequential test)
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


def compare(challenger, incumbent, *, seed, timeout, settings=sprt.Settings(),
            stream=sys.stderr):
    """(the decided WinRecord, each round's pair of scores, the verdict:
    (decision, reason)) of `challenger` against `incumbent` (Contenders) on
    the pool in the seed's order. The verdict is the record's, or a
    rejection once the challenger's saved bits make it suspect."""
    record, pairs, entries = sprt.WinRecord(settings), [], []
    order = sets.ordered("compare/%s" % seed, range(data.ANIMALS))
    for k, animal in enumerate(order, 1):
        played = [play_round(contender, k - 1, animal, timeout=timeout)
                  for contender in (challenger, incumbent)]
        pair = tuple(score for score, _ in played)
        pairs.append(pair)
        if played[0][1] is not None:
            entries.append(played[0][1])
        record.add(outcome(*pair))
        stream.write("comparison: %d animal %d: %s against %s\n" % (
            k, animal, *("timeout" if s is None else "%.2f" % s for s in pair)))
        suspect = challenger.problem.summary(entries)
        if suspect["suspect"]:
            return record, pairs, (sprt.REJECT, "suspect: the challenger saved %.1f bits "
                                   "below the information its rounds hold"
                                   % suspect["saved_bits"])
        if record.decision != sprt.CONTINUE:
            break
    return record, pairs, (record.decision, record.reason)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="a tester file")
    parser.add_argument("--incumbent", required=True, help="a tester file")
    parser.add_argument("--seed", default="twenty-questions", help="the rounds' order")
    parser.add_argument("--instance-timeout", type=options.positive(float), metavar="SECONDS",
                        help="each tester's deadline on a round (default: autoresearch.toml)")
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
            record, pairs, verdict = compare(challenger, incumbent, seed=args.seed,
                                             timeout=timeout)
    except (TesterError, TesterChanged) as e:
        sys.stderr.write("compare: %s\n" % e)
        return 1
    finally:
        oracle.stop()
    print("decision: %s" % verdict[0])
    print("reason: %s" % verdict[1])
    print("comparisons: %d" % record.comparisons)
    print("W/L/D: %d/%d/%d" % (record.wins, record.losses, record.draws))
    differences = [a - b for a, b in pairs if a is not None and b is not None]
    print("score_difference: %s" % sprt.difference_text(differences))
    print("timeouts: challenger %d, incumbent %d"
          % tuple(sum(pair[k] is None for pair in pairs) for k in (0, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
