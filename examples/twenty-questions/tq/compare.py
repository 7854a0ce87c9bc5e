"""Compare two twenty-questions testers on fresh rounds until the template's
sequential test (grader/sprt.py at the repository's root) decides whether
the challenger beats the incumbent.

    python3 tq/compare.py --challenger src/tester.py --incumbent tests/testers/fixed_order.py

Round k plays animal k of the whole pool in an order drawn with the seed.
The challenger wins a round with a higher round score, loses with a lower
one, draws with the same; the record goes to sprt.WinRecord, which accepts,
rejects or continues. Both testers play in this process, counted by the
oracle's own Session (tq.direct). The decision goes to stdout as `key:
value` lines, with `score_difference`: the mean over rounds of the
challenger's score minus the incumbent's (above 0, the challenger is
better) and its 95% interval (sprt.difference_text). A tester still playing a
round at the deadline (autoresearch.toml's instance_timeout_s, or
--instance-timeout) loses that comparison, and `timeouts` counts them; the
rounds with a timeout are left out of the score difference. Exit status: 0 once decided, 1 when a tester fails, 2 for bad
usage.
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
from arh_grader import options  # noqa: E402
from arh_grader.deadline import Deadline, deadline  # noqa: E402

from tq import data, direct, grade, score, sets  # noqa: E402


def outcome(challenger, incumbent):
    """The challenger's outcome from both round scores, None for a round
    past its deadline, which loses (two such rounds draw)."""
    if challenger is None or incumbent is None:
        return sprt.DRAW if challenger is incumbent else \
            sprt.LOSS if challenger is None else sprt.WIN
    if challenger > incumbent:
        return sprt.WIN
    return sprt.LOSS if challenger < incumbent else sprt.DRAW


def play_round(play, animal, *, timeout):
    """The round's score, or None when play ran past `timeout` seconds."""
    try:
        with deadline(timeout):
            played = direct.run_round(play, animal)
    except Deadline:
        return None
    return score.round_score(played.found, played.calls)


def compare(challenger, incumbent, *, seed, timeout, settings=sprt.Settings(),
            stream=sys.stderr):
    """(the decided WinRecord, each round's pair of scores) of `challenger`
    against `incumbent` (play functions) on the pool in the seed's order."""
    record, pairs = sprt.WinRecord(settings), []
    for k, animal in enumerate(sets.ordered("compare/%s" % seed, range(data.ANIMALS)), 1):
        pair = tuple(play_round(play, animal, timeout=timeout)
                     for play in (challenger, incumbent))
        pairs.append(pair)
        record.add(outcome(*pair))
        stream.write("comparison: %d animal %d: %s against %s\n" % (
            k, animal, *("timeout" if s is None else "%.2f" % s for s in pair)))
        if record.decision != sprt.CONTINUE:
            break
    return record, pairs


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
    timeout = args.instance_timeout or float(grade.load_settings()["instance_timeout_s"])
    try:
        finds = [direct.load_tester(path).play for path in (args.challenger, args.incumbent)]
        record, pairs = compare(*finds, seed=args.seed, timeout=timeout)
    except direct.TesterError as e:
        sys.stderr.write("compare: %s\n" % e)
        return 1
    print("decision: %s" % record.decision)
    print("reason: %s" % record.reason)
    print("comparisons: %d" % record.comparisons)
    print("W/L/D: %d/%d/%d" % (record.wins, record.losses, record.draws))
    differences = [a - b for a, b in pairs if a is not None and b is not None]
    print("score_difference: %s" % sprt.difference_text(differences))
    print("timeouts: challenger %d, incumbent %d"
          % tuple(sum(pair[k] is None for pair in pairs) for k in (0, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
