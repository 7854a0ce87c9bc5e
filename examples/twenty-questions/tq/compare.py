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
better) and its 95% interval (sprt.mean_interval). Exit status: 0 once decided, 1 when a tester fails, 2 for bad
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

from tq import data, direct, score, sets  # noqa: E402


def outcome(challenger, incumbent):
    if challenger > incumbent:
        return sprt.WIN
    return sprt.LOSS if challenger < incumbent else sprt.DRAW


def compare(challenger, incumbent, *, seed, settings=sprt.Settings(), stream=sys.stderr):
    """(the decided WinRecord, each round's score difference) of
    `challenger` against `incumbent` (play functions) on the pool in the
    seed's order."""
    record, differences = sprt.WinRecord(settings), []
    for k, animal in enumerate(sets.ordered("compare/%s" % seed, range(data.ANIMALS)), 1):
        mine, theirs = (score.round_score(r.found, r.calls) for r in
                        (direct.run_round(challenger, animal), direct.run_round(incumbent, animal)))
        differences.append(mine - theirs)
        record.add(outcome(mine, theirs))
        stream.write("comparison: %d animal %d: %.2f against %.2f\n" % (k, animal, mine, theirs))
        if record.decision != sprt.CONTINUE:
            break
    return record, differences


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="a tester file")
    parser.add_argument("--incumbent", required=True, help="a tester file")
    parser.add_argument("--seed", default="twenty-questions", help="the rounds' order")
    args = parser.parse_args(argv)
    try:
        finds = [direct.load_tester(path).play for path in (args.challenger, args.incumbent)]
        record, differences = compare(*finds, seed=args.seed)
    except direct.TesterError as e:
        sys.stderr.write("compare: %s\n" % e)
        return 1
    print("decision: %s" % record.decision)
    print("reason: %s" % record.reason)
    print("comparisons: %d" % record.comparisons)
    print("W/L/D: %d/%d/%d" % (record.wins, record.losses, record.draws))
    mean, low, high = sprt.mean_interval(differences)
    print("score_difference: %.4f (95%% interval %s, %d comparisons)" % (
        mean, "-" if low is None else "%.4f to %.4f" % (low, high), len(differences)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
