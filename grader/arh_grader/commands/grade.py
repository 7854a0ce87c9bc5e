"""The grader as its container runs it: check the set, serve the oracle,
ask the worker at --worker to solve each instance, check every answer,
write result.json (engine.run). Exit status: 0 when a result with the
submission's verdict was written (valid or not), 2 when the set or the
grader failed (invalid_set, grader_error) or no result could be written.
"""

import argparse
import sys

from .. import engine, options
from ..client import WorkerClient


def parser_for(problem, *, doc=None):
    """The grader's options, with the problem's sample as --items' default."""
    parser = argparse.ArgumentParser(description=(doc or __doc__).split("\n\n")[0])
    options.add_run_options(parser, items=problem.SAMPLE)
    parser.add_argument("--out", default="/result", help="folder for result.json")
    parser.add_argument("--worker", default="http://worker:8080", help="worker URL")
    parser.add_argument("--oracle-host", default="0.0.0.0")
    parser.add_argument("--oracle-port", type=int, default=8081)
    return parser


def main(problem, argv=None, *, doc=None):
    """Grade the set through the worker at --worker; the exit status."""
    parser = parser_for(problem, doc=doc)
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="backslashreplace")   # a console of any encoding
    problem = problem.for_set(args.items)

    def evaluate_with(items, settings, indexes):
        with engine.serving(settings=settings, record=bool(args.transcripts),
                            host=args.oracle_host, port=args.oracle_port) as oracle:
            return problem.evaluate(items, oracle=oracle, worker=WorkerClient(args.worker),
                                    settings=settings, transcripts=args.transcripts,
                                    indexes=indexes,
                                    progress=engine.progress_printer(len(items),
                                                                     key=problem.SCORE))

    try:
        result, path = engine.run(args, problem=problem, evaluate_with=evaluate_with)
    except engine.UsageError as e:
        parser.error(str(e))
    print("\n".join(engine.summary_lines(result, problem=problem)))
    print("result: %s" % path)
    return engine.exit_status(result)
