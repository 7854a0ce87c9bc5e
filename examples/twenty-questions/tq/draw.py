"""Write twenty questions' sets: the two public ones, a held-out one drawn
from its seed, or a set's figures (tq/sets.py says how each is drawn).

    python3 tq/draw.py --public                  # write sample/dev.jsonl, sample/test.jsonl
    python3 tq/draw.py --count 128 --seed S --out held-out.jsonl
    python3 tq/draw.py --count 128 --out held-out.jsonl     # a secret seed
    python3 tq/draw.py --stats sample/test.jsonl

Exit status 0; 2 for a set that breaks the rules or a file that cannot be
read or written, with a line on stderr that names it.
"""

import argparse
import os
import secrets
import sys

sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # tq's project

from tq import sets  # noqa: E402


def _write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--public", action="store_true",
                        help="write the dev and test sets into sample/")
    parser.add_argument("--count", type=int, default=sets.HELD_OUT_COUNT,
                        help="rounds of a held-out set (default %(default)s)")
    parser.add_argument("--seed", help="seed (any string); omit for a secret one")
    parser.add_argument("--out", help="write the held-out set here instead of stdout")
    parser.add_argument("--stats", metavar="FILE", help="print FILE's figures")
    args = parser.parse_args(argv)
    try:
        if args.stats:
            try:
                animals = [item["animal"] for item in sets.read_set(args.stats)]
            except sets.SetError as e:
                raise sets.SetError("%s: %s" % (args.stats, e)) from None
            print("set: %s" % args.stats)
            for key, value in sets.stats(animals):
                print("%s: %s" % (key, value))
        elif args.public:
            dev, test, _ = sets.public_split()
            _write(sets.DEV_FILE, sets.dumps(dev))
            _write(sets.TEST_FILE, sets.dumps(test))
        else:
            seed = args.seed if args.seed is not None else secrets.token_hex(16)
            text = sets.dumps(sets.draw_held_out(args.count, seed))
            if args.out:
                _write(args.out, text)
            else:
                sys.stdout.write(text)
    except (sets.SetError, ValueError, OSError) as e:
        sys.stderr.write("draw: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
