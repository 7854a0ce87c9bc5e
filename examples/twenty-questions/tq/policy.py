"""The declarative route: a decision graph in policy.json, its validator, and
the command that validates, evaluates and exports one.

    python3 tq/policy.py validate submission.zip      # or a bare policy.json
    python3 tq/policy.py evaluate submission.zip --set sample/dev.jsonl
    python3 tq/policy.py export --tester src/tester.py --out submission.zip

validate prints "valid: N nodes" and exits 0, or prints "invalid: " and the
first fault, with the JSON path of the bad value, and exits 1. Other faults
(a file that cannot be read, a bad set, a failing tester) exit 2.

The format, its checks and its reading and writing: tq/policy_file.py.
"""

import argparse
import os
import sys

if __package__ in (None, ""):       # run as a script: import tq from its project,
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    _SDK = os.path.join(os.path.dirname(os.path.dirname(sys.path[0])), "grader")
    if os.path.isdir(os.path.join(_SDK, "arh_grader")):   # and the grader SDK beside it
        sys.path.append(_SDK)

from tq import data, policy_file  # noqa: E402


# ---- the command ------------------------------------------------------------

def _evaluate(args):
    from tq import evaluator, score, sets
    policy = policy_file.load(args.file)
    animals = [item["animal"] for item in sets.read_set(args.set)]
    rounds = evaluator.evaluate(policy, animals)
    print("rounds: %d" % len(rounds))
    print("found: %d" % sum(r.found for r in rounds))
    print("calls: %.3f" % (sum(r.calls for r in rounds) / len(rounds)))
    print("score: %.6f" % score.mean_score(rounds))
    print("bound: %.6f" % (sum(sets.bounds(animals)) / len(animals)))


def _export(args):
    from tq import direct, exporter
    policy, counts = exporter.export(direct.load_tester(args.tester).play)
    policy_file.write(args.out, policy)
    print("nodes: %d (%d before merging identical subgraphs)" % counts)
    print("written: %s" % args.out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("validate", help="check a policy file or ZIP")
    command.add_argument("file")
    command = commands.add_parser("evaluate", help="walk a policy on a set's animals")
    command.add_argument("file")
    command.add_argument("--set", default=os.path.join(data.PROJECT, "sample", "dev.jsonl"),
                         help="the set file (default: sample/dev.jsonl)")
    command = commands.add_parser("export", help="turn a deterministic tester into a policy")
    command.add_argument("--tester", default=os.path.join(data.PROJECT, "src", "tester.py"))
    command.add_argument("--out", required=True, help="a .zip or a .json file to write")
    args = parser.parse_args(argv)
    try:
        if args.command == "validate":
            policy = policy_file.load(args.file)
            print("valid: %d nodes" % len(policy["nodes"]))
        elif args.command == "evaluate":
            _evaluate(args)
        else:
            _export(args)
    except policy_file.PolicyError as e:
        print("invalid: %s" % e)
        return 1
    except Exception as e:          # a file, a set or a tester that fails
        sys.stderr.write("policy: %s: %s\n" % (type(e).__name__, e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
