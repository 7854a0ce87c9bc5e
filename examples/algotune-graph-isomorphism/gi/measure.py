"""Measure a solver's counts on a set, the way a run counts them, and
print the set again with each line's instructions set to them: how every
set's refs are made (by the reference, gi/reference/, the default), and
a way to see any solver's count on each problem.

    python3 gi/measure.py src sample/items.jsonl > counts.jsonl
    python3 gi/measure.py --draw 24 > sample/items.jsonl     # the sample, measured afresh

Divide a line's instructions by the sample's to get the solver's score on
that problem. Needs the emulator's tree (python3 gi/setup.py).
"""

import argparse
import json
import os
import sys

if not __package__:                 # run as a script: sdk_path finds the SDK and gi
    import sdk_path  # noqa: F401

from arh_grader import engine  # noqa: E402
from arh_grader.result import Failure  # noqa: E402

from gi import comparison, plugin, sets  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("solver", nargs="?",
                        default=os.path.dirname(comparison.REFERENCE_SOLVER),
                        help="the solver's folder (default: the reference, gi/reference/)")
    parser.add_argument("items", nargs="?", help="the set (default: the sample's problems)")
    parser.add_argument("--draw", type=int, metavar="N",
                        help="measure the first N problems of the sample's seed")
    args = parser.parse_args(argv)
    if args.draw is not None:
        items = sets.draw(args.draw, sets.SAMPLE_SEED)
    else:
        try:
            items = engine.load_set(args.items or plugin.PROBLEM.SAMPLE, problem=plugin.PROBLEM)
        except Failure as e:
            parser.error(e.message)
    try:
        measured = plugin.PROBLEM.measure(sets.files_in(args.solver), items)
    except (OSError, ValueError) as e:
        sys.stderr.write("measure: %s\n" % e)
        return 1
    for item in measured:
        print(json.dumps(item))
    return 0


if __name__ == "__main__":
    sys.exit(main())
