"""Where one instance loses its bits: run a tester on ONE instance in a real
worker, record the pools it tested, and print what each test told.

    python3 grader/diagnose.py --index 0                    # sample instance 0
    python3 grader/diagnose.py --tester other.py --index 7 --items set.jsonl
    python3 grader/diagnose.py --seed 7 --count 20     # the last of a set of 20 drawn with seed 7
    python3 grader/diagnose.py --seed 7 --index 3 --samples 5000

A debugging aid, never a judge: the score is grader/local.py's count of
tests, and nothing here changes it. The tester runs as grader/local.py runs
it, in harness/worker.py behind its walls, against a counting oracle that
records its transcript; this process never imports it.

The instance is --index K of --items (default the public sample), or, with
--seed S, instance K of the set that `grader/instances.py --seed S` draws
(--count C alone: its last, C - 1). stdout gets `key: value` lines (the
instance, how each chance is computed), a table with one row a test in
order (its pool size, its answer, P(positive | the answers before it),
its standard error when sampled, the method, the bits the test was worth,
h(P), and the bits its answer told), then the totals: tests, surprise,
bits_gained, answer_bits, bits_wasted (tests - surprise),
bits_wasted_gained (tests - bits_gained), baseline and score.
group_testing/diagnosis.py explains every figure and the method.

Progress and the tester's own output go to stderr. Exit status 0; 1 when
the tester fails on the instance (its kind and message are printed); 2 for
a bad command line (a bad index, a missing file, an empty seed...) or a
failed grader.
"""

import argparse
import math
import os
import shutil
import signal
import sys
import tempfile

from arh_grader import Failure, engine, local_run, options
from arh_grader.report import display_path
from group_testing import diagnosis, instances
from group_testing.plugin import PROBLEM

NOTE = ("note: a debugging aid for one instance, never a judge: the score is "
        "grader/local.py's count of tests")


def index_type(text):
    """An argparse type: an instance index 0, 1, ..."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError("must be an instance index 0, 1, ..., got %r" % text)
    return value


def choose(parser, args):
    """(the instance, its index, where it comes from) from the command
    line; parser.error (exit status 2) names what is wrong."""
    if args.seed is None:
        if args.count is not None:
            parser.error("--count goes with --seed, got --count %r alone" % args.count)
        if args.index is None:
            parser.error("give --index K, or --seed S with --index K or --count C")
        path = args.items or PROBLEM.SAMPLE
        if not os.path.isfile(path):
            parser.error("--items: no such file %r" % path)
        try:
            items = PROBLEM.load_set(path)
        except Failure as e:
            parser.error("--items %r: %s" % (path, e.message))
        if args.index >= len(items):
            parser.error("--index %r is past the end of %r, which has %d instances (0..%d)"
                         % (args.index, path, len(items), len(items) - 1))
        return items[args.index], args.index, display_path(path)
    if not args.seed.strip():
        parser.error("--seed must be a seed of some characters, got %r" % args.seed)
    index = args.index if args.index is not None else \
        (args.count - 1 if args.count is not None else None)
    if index is None:
        parser.error("with --seed %r give --index K or --count C" % args.seed)
    if args.count is not None and index >= args.count:
        parser.error("--index %r is past the end of --count %r instances (0..%d)"
                     % (index, args.count, args.count - 1))
    return instances.draw_instance(args.seed, index), index, "seed %s" % args.seed


def run(item, index, tester):
    """The tester's run on `item` in a fresh worker: (result, pools, answers)."""
    folder = tempfile.mkdtemp(prefix="diagnose-")
    try:
        result = local_run.evaluate_local([item], tester=tester, settings=PROBLEM.settings(),
                                          transcripts=folder, indexes=[index], problem=PROBLEM)
        if result["status"] != "valid":
            return result, None, None
        with open(os.path.join(folder, "instance-%04d.jsonl" % index), "rb") as f:
            pools, answers = diagnosis.read_transcript(f)
        return result, pools, answers
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def bits(x):
    return "inf" if math.isinf(x) else "%.4f" % x


def table(rows):
    """The rows as lines of a table, a header first."""
    lines = ["%6s %5s  %-8s %10s %9s  %-7s %7s %11s" % (
        "test", "pool", "answer", "p_positive", "se", "method", "gained", "answer_bits")]
    for row in rows:
        p = "-" if row["p_positive"] is None else "%.6f" % row["p_positive"]
        se = "%.6f" % row["se"] if row["method"] == "sampled" else "-"
        lines.append("%6d %5s  %-8s %10s %9s  %-7s %7s %11s" % (
            row["test"], "-" if row["pool_size"] is None else row["pool_size"], row["answer"],
            p, se, row["method"], bits(row["gained"]), bits(row["answer_bits"])))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tester", default=PROBLEM.TESTER,
                        help="the tester file the worker imports (default: src/tester.py)")
    parser.add_argument("--index", type=index_type, metavar="K",
                        help="the instance (0 is the first)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--items", help="instance set (default: the public sample)")
    source.add_argument("--seed", metavar="S", help="draw the instance from this seed's set")
    parser.add_argument("--count", type=options.positive(int), metavar="C",
                        help="with --seed: the set's size; its last instance unless --index")
    parser.add_argument("--samples", type=options.positive(int), default=diagnosis.SAMPLES,
                        metavar="N", help="samples an estimate, where a chance is sampled "
                                          "(default %d)" % diagnosis.SAMPLES)
    args = parser.parse_args(argv)
    if not os.path.isfile(args.tester):
        parser.error("--tester: no such file %r" % args.tester)
    item, index, source = choose(parser, args)
    sys.stdout.reconfigure(errors="backslashreplace")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    local_run.pin(0, 1)
    tester = display_path(args.tester)
    sys.stderr.write("diagnose: %s on instance %d (%s, n = %d) in a worker\n"
                     % (tester, index, source, item["n"]))
    try:
        result, pools, answers = run(item, index, args.tester)
    except KeyboardInterrupt:
        sys.stderr.write("diagnose: interrupted; the worker is stopped\n")
        return 130
    print(NOTE)
    if result["status"] != "valid":
        print("\n".join(engine.summary_lines(result, problem=PROBLEM)))
        return 2 if engine.exit_status(result) else 1
    sys.stderr.write("diagnose: %d tests recorded; the chance of each\n" % len(pools))
    try:
        rows = diagnosis.diagnose(item["priors"], pools, answers, samples=args.samples)
    except ValueError as e:         # a transcript the oracle's answers cannot have made
        sys.stderr.write("diagnose: %s\n" % e)
        return 2
    figures = diagnosis.totals(rows, priors=item["priors"], defectives=item["defectives"],
                               baseline=item["baseline"])
    print("tester: %s\ninstance: %d\nsource: %s\nfamily: %s\nn: %d\ndefectives: %d"
          % (tester, index, source, item["family"], item["n"], len(item["defectives"])))
    print("p_positive: P(pool positive | the answers before it, at least one defective)")
    print("exact: by dynamic programming over what the answers before it leave, where "
          "it needs at most %d states" % diagnosis.MAX_STATES)
    print("sampled: otherwise, by sequential importance sampling, %d samples an estimate, "
          "seed %d; se is its standard error" % (args.samples, diagnosis.SEED))
    print("\n".join(table(rows)))
    for key in ("tests", "invalid_tests", "exact_tests", "sampled_tests"):
        print("%s: %d" % (key, figures[key]))
    for key in ("surprise", "bits_gained", "answer_bits", "bits_wasted", "bits_wasted_gained"):
        print("%s: %s" % (key, bits(figures[key])))
    print("baseline: %d\nscore: %.6f" % (figures["baseline"], figures["score"]))
    if result["items"][0]["tests"] != figures["tests"]:       # the transcript is the count
        sys.stderr.write("diagnose: the oracle counted %d tests but recorded %d\n"
                         % (result["items"][0]["tests"], figures["tests"]))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
