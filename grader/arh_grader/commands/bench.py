"""Measure the harness's own cost per call beside what loopback allows
(benchmark.py says what each figure is), for a problem with a Bench.

Printed as `key: value` lines on stdout (progress goes to stderr), all
from one run. The measuring process runs on core 0 and the servers on
core 1, as the local run pins the worker and the grader. Exit status 1 if
a count is off, 2 for a bad option or a problem without a Bench.
"""

import argparse
import sys

from .. import benchmark, local_run

REQUESTS = 5000          # timed round trips of each kind, by default
INSTANCES = 500          # instances of the run, by default


def shown(value):
    """A figure as printed: true/false, three decimals, or as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "%.3f" % value if isinstance(value, float) else str(value)


def main(problem, argv=None, *, doc=None):
    """Measure and print the figures; the exit status."""
    bench = problem.BENCH
    parser = argparse.ArgumentParser(description=(doc or __doc__).split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=REQUESTS,
                        help="timed round trips of each kind (default %d)" % REQUESTS)
    parser.add_argument("--instances", type=int, default=INSTANCES,
                        help="instances of the run (default %d; 0 skips it)" % INSTANCES)
    if bench is not None:
        parser.add_argument("--size", type=int, default=bench.size,
                            help="%s (default %d)" % (bench.size_help, bench.size))
    args = parser.parse_args(argv)
    if bench is None:
        parser.error("this problem gives no Bench (its BENCH is None): nothing to measure")
    if args.requests < 1 or args.instances < 0 or args.size not in bench.sizes:
        parser.error("--requests must be at least 1, --instances at least 0 and --size in "
                     "%d..%d; got %r, %r and %r" % (bench.sizes[0], bench.sizes[-1],
                                                    args.requests, args.instances, args.size))
    local_run.pin(0, benchmark.SERVER_CORE)
    sys.stderr.write("bench: %d round trips of each kind: raw, floor, harness\n"
                     % args.requests)
    figures = benchmark.measure_rtt(problem, requests=args.requests, size=args.size,
                                    warmup=min(benchmark.WARMUP, args.requests))
    if args.instances:
        sys.stderr.write("bench: a local run on %d instances\n" % args.instances)
        figures.update(benchmark.measure_run(problem, count=args.instances))
    for key, value in figures.items():
        print("%s: %s" % (key, shown(value)))
    ok = figures["harness_counted_match"] and figures.get("run_counts_match", True)
    return 0 if ok else 1
