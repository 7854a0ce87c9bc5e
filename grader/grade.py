"""The grader: check the set, serve the oracle, ask the worker to solve each
instance, check every answer, write result.json.

    python3 grader/grade.py --items sample/items.jsonl --out /result \\
        --worker http://worker:8080 --oracle-port 8081

The run stops at the first failure, which names its kind (arh_grader.KINDS),
the instance and what went wrong. A result is written in every case. Exit
status: 0 when a result with the submission's verdict was written (valid or
not), 2 when the set or the grader failed (invalid_set, grader_error).

Before the first instance the grader sets aside RESERVE_BYTES (8 MiB,
arh_grader/result.py) beside result.json and writes the result into that
space, so a disk that someone else fills during the run still takes it.
When no result can be written (no room for the reservation at the start,
or a write that fails even so) the exit status is 2, grader_error's, and
stderr holds one line naming the path and the system's error, no traceback:

    grade: cannot write /result/result.json: No space left on device
"""

import argparse
import os
import sys

from arh_grader import Oracle, WorkerClient, engine, options
from group_testing import plugin

# ---- the engine, bound to group testing --------------------------------------

PROBLEM = plugin.PROBLEM        # group testing, the one object the SDK is handed
ROOT, SCORE = plugin.ROOT, PROBLEM.SCORE
SETTINGS, SAMPLE = PROBLEM.SETTINGS, PROBLEM.SAMPLE


def load_settings(path=None, *, table="grader"):
    """A table of autoresearch.toml (PROBLEM.SETTINGS unless `path` names
    another): [grader] unless `table` says another."""
    if path is None:
        return PROBLEM.settings(table=table)
    import tomllib         # here, so that Python 3.10 reaches the version check
    with open(path, "rb") as f:
        return tomllib.load(f)[table]


def load_set(path):
    """Read and check an instance file; Failure `invalid_set` names the line."""
    return PROBLEM.load_set(path)


def summarize(entries, failure=None):
    """The run's result from its item entries and its failure, if any."""
    return engine.summarize(PROBLEM, entries, failure)


def evaluate(items, **options):
    """engine.evaluate for group testing (its options, problem aside)."""
    return engine.evaluate(items, problem=PROBLEM, **options)


def progress_printer(total, **options):
    return engine.progress_printer(total, key=SCORE, **options)


def summary_lines(result):
    """The console's `key: value` lines of a result (engine.summary_lines)."""
    return engine.summary_lines(result, problem=PROBLEM)


def run(argv, *, evaluate_with):
    """engine.run for group testing, with autoresearch.toml's [grader]."""
    return engine.run(argv, problem=PROBLEM, settings=load_settings(),
                      evaluate_with=evaluate_with)


UsageError, printable, exit_status = engine.UsageError, engine.printable, engine.exit_status


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_run_options(parser, items=SAMPLE)
    parser.add_argument("--out", default="/result", help="folder for result.json")
    parser.add_argument("--worker", default="http://worker:8080", help="worker URL")
    parser.add_argument("--oracle-host", default="0.0.0.0")
    parser.add_argument("--oracle-port", type=int, default=8081)
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="backslashreplace")   # a console of any encoding

    def evaluate_with(items, settings, indexes):
        oracle = Oracle(host=args.oracle_host, port=args.oracle_port,
                        record=bool(args.transcripts),
                        idle_timeout=settings["instance_timeout_s"] + 5)
        oracle.start()
        try:
            return evaluate(items, oracle=oracle, worker=WorkerClient(args.worker),
                            instance_timeout=settings["instance_timeout_s"],
                            run_timeout=settings["run_timeout_s"],
                            start_timeout=settings["worker_start_timeout_s"],
                            transcripts=args.transcripts,
                            progress=progress_printer(len(items)), indexes=indexes)
        finally:
            oracle.stop()

    try:
        result, path = run(args, evaluate_with=evaluate_with)
    except UsageError as e:
        parser.error(str(e))
    print("\n".join(summary_lines(result)))
    print("result: %s" % path)
    return exit_status(result)


if __name__ == "__main__":
    sys.exit(main())
