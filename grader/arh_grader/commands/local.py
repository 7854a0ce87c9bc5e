"""A whole evaluation on this machine, without Docker: the problem's worker
and the grader as two processes on loopback, as the platform runs them
(local_run.py), with the console's summary, the report's command, the
check that nothing outside the editable folders changed (integrity.py),
the line naming the walls the worker went without (local_run.mark_walls:
`walls_missing: landlock`, only when the kernel refused one, or for a
--worker-url worker, which gets none, or a --worker-command one, which
gets the PID namespace alone), and with --repeat the check that runs
agree (local_run.exit_status).
Exit status: 0 for a valid run, 1 for an invalid one (the tester's
fault), 2 when the set or the grader failed or the output folder is taken.
"""

import argparse
import os
import signal
import sys

from .. import engine, integrity, local_run, options, workers
from ..report import command_for, display_path


def parser_for(problem, *, doc=None):
    """The local run's options, its defaults the problem's paths."""
    parser = argparse.ArgumentParser(description=(doc or __doc__).split("\n\n")[0])
    options.add_run_options(parser, items=problem.SAMPLE)
    parser.add_argument("--out", default=problem.OUT,
                        help="folder for result.json (default: result/)")
    parser.add_argument("--tester", default=problem.TESTER,
                        help="the tester file the worker is handed (default: %s)"
                        % os.path.relpath(problem.TESTER, problem.ROOT))
    parser.add_argument("--start-timeout", type=options.positive(float), metavar="SECONDS",
                        help="how long the worker may take to start (default: "
                             "autoresearch.toml)")
    worker = parser.add_mutually_exclusive_group()
    worker.add_argument("--worker-url", metavar="URL",
                        help="grade the worker already running at URL (the oracle listens "
                             "on --oracle-host and --oracle-port, where it expects it)")
    worker.add_argument("--worker-command", metavar="CMD",
                        help="start the worker from CMD, in any language, on free ports "
                             "(AR_ORACLE_URL, AR_WORKER_HOST, AR_WORKER_PORT)")
    parser.add_argument("--oracle-host", default="127.0.0.1",
                        help="with --worker-url: where the oracle listens (default 127.0.0.1)")
    parser.add_argument("--oracle-port", type=int, metavar="PORT",
                        help="with --worker-url: the oracle's port (default 8081, the "
                             "worker's default AR_ORACLE_URL); otherwise a free one")
    parser.add_argument("--repeat", type=options.positive(int), default=1, metavar="N",
                        help="run N times with fresh workers and compare the transcripts")
    return parser


def main(problem, argv=None, *, doc=None):
    """Run the evaluation here; the exit status."""
    parser = parser_for(problem, doc=doc)
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="backslashreplace")   # a console of any encoding
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    local_run.pin(0, 1)
    refused = local_run.claim_output(args.out)
    if refused is not None:
        sys.stderr.write(refused)
        return 2
    if args.worker_url is not None:
        try:
            workers.address(args.worker_url)
        except ValueError as e:
            parser.error(str(e))
    oracle_port = args.oracle_port
    if oracle_port is None:
        oracle_port = 8081 if args.worker_url is not None else 0
    problem = problem.for_set(args.items)
    runs = []
    outputs = [os.path.abspath(p) for p in (args.out, problem.OUT, args.transcripts) if p]
    base = integrity.baseline(problem.REPOSITORY, editable=problem.EDITABLE, outputs=outputs)

    def evaluate_with(items, settings, indexes):
        runs.extend(local_run.evaluate_runs(
            items, repeat=args.repeat, transcripts=args.transcripts,
            settings=settings.replace(worker_start_timeout_s=args.start_timeout),
            problem=problem, tester=args.tester, indexes=indexes,
            worker_url=args.worker_url, worker_command=args.worker_command,
            oracle_host=args.oracle_host, oracle_port=oracle_port,
            progress=engine.progress_printer(len(items), key=problem.SCORE)))
        return runs[0]

    try:
        result, path = engine.run(args, problem=problem, evaluate_with=evaluate_with)
    except engine.UsageError as e:
        parser.error(str(e))
    except KeyboardInterrupt:
        sys.stderr.write("local: interrupted; the worker is stopped, no result written\n")
        return 130
    local_run.mark_walls(result)
    local_run.mark_tampered(result, path, integrity.changes(base))
    print("\n".join(engine.summary_lines(result, problem=problem)))
    print("result: %s\nreport: %s" % (display_path(path), command_for(
        path, script=os.path.join(problem.COMMANDS, "report.py"))))
    return local_run.exit_status(result, runs, keys=problem.REPEATED)
