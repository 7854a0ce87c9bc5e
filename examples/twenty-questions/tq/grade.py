"""The twenty-questions grader, as its container runs it: the template's run
engine, oracle and worker client with this problem's plug-in.

    python3 tq/grade.py --items sample/dev.jsonl --out /result \\
        --worker http://worker:8080 --oracle-port 8081

A result is written in every case. Exit status: 0 when the submission's
verdict was written (valid or not), 2 when the set or the grader failed.
"""

import argparse
import os
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [p for p in (os.path.join(PROJECT, os.pardir, os.pardir, "grader"),  # SDK, here
                            os.path.join(PROJECT, "grader"), PROJECT)   # or in a container; tq
                 if os.path.isdir(p) and p not in sys.path]

from arh_grader import Oracle, WorkerClient, engine, options  # noqa: E402

from tq.plugin import PROBLEM  # noqa: E402

SETTINGS = PROBLEM.SETTINGS


def load_settings():
    """autoresearch.toml's [grader] table."""
    return PROBLEM.settings()


def add_options(parser, *, items, out):
    """The options the grader and the local run share."""
    options.add_run_options(parser, items=items)
    parser.add_argument("--out", default=out, help="folder for result.json")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_options(parser, items=PROBLEM.SAMPLE, out="/result")
    parser.add_argument("--worker", default="http://worker:8080", help="the worker's URL")
    parser.add_argument("--oracle-host", default="0.0.0.0")
    parser.add_argument("--oracle-port", type=int, default=8081)
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="backslashreplace")
    problem = PROBLEM.for_set(args.items)

    def evaluate_with(items, settings, indexes):
        oracle = Oracle(host=args.oracle_host, port=args.oracle_port,
                        record=bool(args.transcripts),
                        idle_timeout=settings["instance_timeout_s"] + 5).start()
        try:
            return engine.evaluate(items, problem=problem, oracle=oracle,
                                   worker=WorkerClient(args.worker),
                                   instance_timeout=settings["instance_timeout_s"],
                                   run_timeout=settings["run_timeout_s"],
                                   start_timeout=settings["worker_start_timeout_s"],
                                   transcripts=args.transcripts, indexes=indexes,
                                   progress=engine.progress_printer(len(items),
                                                                    key=problem.SCORE))
        finally:
            oracle.stop()

    try:
        result, path = engine.run(args, problem=problem, settings=load_settings(),
                                  evaluate_with=evaluate_with)
    except engine.UsageError as e:
        parser.error(str(e))
    print("\n".join(engine.summary_lines(result, problem=problem)))
    print("result: %s" % path)
    return engine.exit_status(result)


if __name__ == "__main__":
    sys.exit(main())
