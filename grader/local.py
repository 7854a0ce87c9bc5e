"""Run a whole evaluation on this machine, without Docker: the worker and
the grader as two processes on loopback, as the platform runs them.

    python3 grader/local.py                      # the public sample
    python3 grader/local.py --limit 5 --instance-timeout 30
    python3 grader/local.py --only 7             # instance 7 alone, as index 7
    python3 grader/local.py --tester grader/group_testing/calibration.py --items set.jsonl
    python3 grader/local.py --repeat 2 --transcripts /tmp/t   # deterministic?

Progress goes to stderr, the summary to stdout as `key: value` lines, the
result to result/result.json. Exit status: 0 for a valid run, 1 for an
invalid one (the tester's fault: its kind and instance are printed), 2 when
the set or the grader failed. The worker runs on core 0 and this process on
core 1 where the machine has two; the worker and anything it started are
killed when the run ends, however it ends.

With --repeat N the evaluation runs N times, each with a fresh worker in a
fresh temporary working directory (its TMPDIR too), and compares each
instance's tests, invalid tests and transcript. The last line says
"deterministic: N runs, identical counts and transcripts" or names the first
instance that differs ("nondeterministic: instance I (tests differ between
runs 1 and K: 82 and 81)", exit status 1); with --transcripts DIR as well,
run K's transcripts go to DIR/run-K to compare.

One run at a time writes to an output folder: a second local.py on the same
--out refuses while the first runs (exit status 2). The worker exits within
a second of this process's death, SIGKILL included. Each worker runs with a
fresh HOME as well, and whatever it started is killed with it, daemons in
sessions of their own included (arh_grader/reaper.py).

Files outside src/ that differ from the committed ones after the run, or
that changed during it (arh_grader/integrity.py), are named on a line
"tampered: PATH, PATH..." and a warning before the summary, and
result.json gets "tampered": [PATH, ...]; a run that changed nothing has
no such key.
"""

import argparse
import os
import signal
import sys

import grade
import report
from arh_grader import integrity, local_run, options, workers
from arh_grader.report import display_path

WORKER = grade.PROBLEM.WORKER
TESTER = os.path.join(grade.ROOT, "src", "tester.py")
EDITABLE = ("src",)     # autoresearch.toml's [project] editable, as folders
OUT = os.path.join(grade.ROOT, "result")


def evaluate_local(items, **options):
    """local_run.evaluate_local for group testing: its problem and worker."""
    return local_run.evaluate_local(items, problem=grade.PROBLEM, **options)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_run_options(parser, items=grade.SAMPLE)
    parser.add_argument("--out", default=OUT,
                        help="folder for result.json (default: result/)")
    parser.add_argument("--tester", default=TESTER,
                        help="the tester file the worker imports (default: src/tester.py)")
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
    runs = []
    outputs = [os.path.abspath(p) for p in (args.out, OUT, args.transcripts) if p]
    base = integrity.baseline(grade.ROOT, editable=EDITABLE, outputs=outputs)

    def evaluate_with(items, settings, indexes):
        if args.start_timeout is not None:
            settings["worker_start_timeout_s"] = args.start_timeout
        runs.extend(local_run.evaluate_runs(
            items, repeat=args.repeat, settings=settings, transcripts=args.transcripts,
            problem=grade.PROBLEM, tester=args.tester, indexes=indexes,
            worker_url=args.worker_url, worker_command=args.worker_command,
            oracle_host=args.oracle_host, oracle_port=oracle_port,
            progress=grade.progress_printer(len(items))))
        return runs[0]

    try:
        result, path = grade.run(args, evaluate_with=evaluate_with)
    except grade.UsageError as e:
        parser.error(str(e))
    except KeyboardInterrupt:
        sys.stderr.write("local: interrupted; the worker is stopped, no result written\n")
        return 130
    local_run.mark_tampered(result, path, integrity.changes(base))
    print("\n".join(grade.summary_lines(result)))
    print("result: %s\nreport: %s" % (display_path(path), report.command_for(path)))
    return local_run.exit_status(result, runs, keys=grade.PROBLEM.REPEATED)


if __name__ == "__main__":
    sys.exit(main())
