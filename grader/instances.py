"""Draw instance sets, and print a set's statistics: the command of
group_testing/instances.py, where the sets and their statistics are
explained.

    python3 grader/instances.py --count 500 --seed 7 > set.jsonl
    python3 grader/instances.py --stats sample/items.jsonl
"""

import argparse
import os
import secrets
import sys

from arh_grader import Failure, engine
from group_testing import instances, plugin, problem


def main(argv=None):
    parser = argparse.ArgumentParser(description=instances.__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=instances.SAMPLE_COUNT,
                        help="instances to draw")
    parser.add_argument("--seed", help="seed (any string); omit for a secret one")
    parser.add_argument("--out", help="write the set here instead of stdout")
    parser.add_argument("--stats", metavar="FILE",
                        help="print FILE's statistics instead of drawing")
    args = parser.parse_args(argv)
    if args.stats:
        try:
            items = engine.load_set(args.stats, problem=plugin.PROBLEM)
        except Failure as e:
            sys.stderr.write("instances: %s\n" % e.message)
            return 2
        print("set: %s" % args.stats)
        print("families_order: %s" % " / ".join(problem.FAMILIES))
        for key, value in instances.stats(items).items():
            print("%s: %s" % (key, value))
        return 0
    if args.count < 1:
        parser.error("--count must be at least 1, got %r" % args.count)
    seed = args.seed if args.seed is not None else secrets.token_hex(16)
    text = "".join(instances.dumps(instances.draw_instance(seed, i)) for i in range(args.count))
    if args.out:
        tmp = args.out + ".tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, args.out)
        except OSError as e:
            sys.stderr.write("instances: cannot write %r: %s\n" % (args.out, e.strerror))
            return 2
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
