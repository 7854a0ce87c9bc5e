"""Run a whole evaluation on this machine, without Docker: the worker and
the grader as two processes on loopback, as the platform runs them.

    python3 grader/local.py                      # the public sample
    python3 grader/local.py --limit 5 --instance-timeout 30
    python3 grader/local.py --only 7             # instance 7 alone, as index 7
    python3 grader/local.py --tester grader/calibration.py --items set.jsonl
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
a second of this process's death, SIGKILL included.
"""

import argparse
import fcntl
import itertools
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

import grade
import workers
import report
from arh_grader import Failure, Oracle, WorkerClient, engine

WORKER = os.path.join(grade.ROOT, "harness", "worker.py")
TESTER = os.path.join(grade.ROOT, "src", "tester.py")
LISTENING = "worker: listening on "
REAP_WAIT = 5.0          # seconds to wait for a killed worker to be reaped
# The worker's Python as in its container: the standard library only (-S: no
# site-packages; -I: no user site, no PYTHON* variables), no bytecode files
# (-B), output unbuffered (-u).
WORKER_FLAGS = ("-I", "-S", "-B", "-u")


def pin(pid, core):
    """Keep process `pid` (0: this one) on `core`, where there is one."""
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > core:
        try:
            os.sched_setaffinity(pid, {core})
        except OSError:
            pass


def start_worker(*, oracle_url, tester, timeout, quiet=False, cwd=None, worker=WORKER):
    """Start `worker` (harness/worker.py) on a free loopback port; (process, URL).

    The worker runs with the standard library only, as in its container
    (WORKER_FLAGS). Its stderr is forwarded to ours once it listens; its stdout
    (what the tester prints) goes to our stderr as well, keeping stdout for
    the summary. With `quiet` both are dropped: a failing tester's traceback
    is in the result's message anyway. Failure `no_answer` if it does not
    listen within `timeout`. The worker runs in `cwd` (default: this
    process's), with TMPDIR set to it, and exits when this process dies.
    """
    cwd = cwd or os.getcwd()
    env = dict(os.environ, AR_ORACLE_URL=oracle_url, AR_WORKER_HOST="127.0.0.1",
               AR_WORKER_PORT="0", AR_TESTER=os.path.abspath(tester),
               AR_PARENT_PID=str(os.getpid()), TMPDIR=cwd)
    proc = subprocess.Popen([sys.executable, *WORKER_FLAGS, worker], env=env,
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL if quiet else sys.stderr.fileno(),
                            stderr=subprocess.PIPE, cwd=cwd,
                            start_new_session=True)
    pin(proc.pid, 0)
    lines = queue.Queue()

    def forward():
        with proc.stderr:
            for raw in proc.stderr:
                line = raw.decode("utf-8", "replace")
                if line.startswith(LISTENING):
                    lines.put(line[len(LISTENING):].strip())
                elif not quiet:
                    sys.stderr.write(line)
        lines.put(None)

    threading.Thread(target=forward, daemon=True).start()
    try:
        url = lines.get(timeout=timeout)
    except queue.Empty:
        url = None
    if url is None:
        stop_worker(proc)
        raise Failure("no_answer", "the worker did not start listening within %.0f s "
                      "(exit status %s); does %s import?" % (timeout, proc.poll(), tester))
    return proc, url


stop_worker = workers.stop       # its whole process group, SIGKILL


def evaluate_local(items, *, tester, settings, transcripts=None, progress=None,
                   quiet=False, indexes=None, worker_url=None, worker_command=None,
                   oracle_host="127.0.0.1", oracle_port=0, problem=grade.PROBLEM,
                   worker_file=WORKER):
    """Grade `items` through a fresh oracle and a worker, and return the
    result dict: by default a fresh harness/worker.py running `tester`;
    with `worker_url` a worker already running there (the oracle then
    listens where it expects it: `oracle_host`, `oracle_port`); with
    `worker_command` a worker of any language started from it on free
    ports. A worker started here is gone when this returns. `problem` and
    `worker_file` are the engine's problem object and its worker: group
    testing's by default."""
    oracle = Oracle(check=problem.check_query, answer=problem.answer_query,
                    record=bool(transcripts), host=oracle_host, port=oracle_port,
                    idle_timeout=settings["instance_timeout_s"] + 5).start()
    proc = None
    home = tempfile.mkdtemp(prefix="worker-")       # the worker's cwd and TMPDIR
    start_timeout = settings["worker_start_timeout_s"]
    try:
        try:
            if worker_url is not None:
                url = worker_url
            elif worker_command is not None:
                proc, url = workers.start(worker_command, oracle_url=oracle.url,
                                          log=None if quiet else sys.stderr.fileno())
                pin(proc.pid, 0)
                workers.wait_listening(proc, url, timeout=start_timeout)
            else:
                proc, url = start_worker(oracle_url=oracle.url, tester=tester, quiet=quiet,
                                         timeout=start_timeout, cwd=home, worker=worker_file)
        except workers.WorkerError as e:
            return engine.summarize(problem, [], Failure("no_answer", str(e)))
        except Failure as failure:
            return engine.summarize(problem, [], failure)
        return engine.evaluate(items, problem=problem, oracle=oracle, worker=WorkerClient(url),
                              instance_timeout=settings["instance_timeout_s"],
                              run_timeout=settings["run_timeout_s"],
                              start_timeout=start_timeout,
                              transcripts=transcripts, progress=progress, indexes=indexes)
    finally:
        if proc is not None:
            stop_worker(proc)
        oracle.stop()
        shutil.rmtree(home, ignore_errors=True)


COMPARED = ("tests", "invalid_tests", "transcript")   # what --repeat compares, in order


def first_difference(runs):
    """The first difference between run 1 and another, earliest instance
    first, as a line to print; None if every run has the same instances with
    the same COMPARED values."""
    for entries in itertools.zip_longest(*(run["items"] for run in runs)):
        first = entries[0]
        for k, entry in enumerate(entries[1:], 2):
            if entry is None or first is None:
                return ("instance %d (graded in only one of runs 1 and %d)"
                        % ((first or entry)["index"], k))
            for key in COMPARED:
                if entry[key] != first[key]:
                    return ("instance %d (%s differ between runs 1 and %d: %s and %s)"
                            % (first["index"], key.replace("_", " "), k,
                               first[key], entry[key]))
    return None


def lock_output(folder):
    """Hold `folder`'s lock for this process's life; False if another run
    holds it."""
    os.makedirs(folder, exist_ok=True)
    fd = os.open(os.path.join(folder, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    grade.add_common_options(parser)
    parser.add_argument("--out", default=os.path.join(grade.ROOT, "result"),
                        help="folder for result.json (default: result/)")
    parser.add_argument("--tester", default=TESTER,
                        help="the tester file the worker imports (default: src/tester.py)")
    parser.add_argument("--start-timeout", type=grade.positive(float), metavar="SECONDS",
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
    parser.add_argument("--repeat", type=grade.positive(int), default=1, metavar="N",
                        help="run N times with fresh workers and compare the transcripts")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="backslashreplace")   # a console of any encoding
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pin(0, 1)
    try:
        locked = lock_output(args.out)
    except OSError as e:
        sys.stderr.write("local: cannot use %r for the result: %s\n" % (args.out, e.strerror))
        return 2
    if not locked:
        sys.stderr.write("local: another run is writing to %r; wait for it to end, or give "
                         "--out another folder\n" % args.out)
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

    def evaluate_with(items, settings, indexes):
        if args.start_timeout is not None:
            settings["worker_start_timeout_s"] = args.start_timeout
        for k in range(1, args.repeat + 1):
            folder = args.transcripts
            if folder and args.repeat > 1:
                folder = os.path.join(folder, "run-%d" % k)
            runs.append(evaluate_local(items, tester=args.tester, settings=dict(settings),
                                       transcripts=folder, indexes=indexes,
                                       worker_url=args.worker_url,
                                       worker_command=args.worker_command,
                                       oracle_host=args.oracle_host,
                                       oracle_port=oracle_port,
                                       progress=grade.progress_printer(len(items))))
        return runs[0]

    try:
        result, path = grade.run(args, evaluate_with=evaluate_with)
    except grade.UsageError as e:
        parser.error(str(e))
    except KeyboardInterrupt:
        sys.stderr.write("local: interrupted; the worker is stopped, no result written\n")
        return 130
    print("\n".join(grade.summary_lines(result)))
    print("result: %s\nreport: %s" % (report.display_path(path), report.command_for(path)))
    if args.repeat > 1 and len(runs) == args.repeat:
        differ = first_difference(runs)
        if differ is not None:
            print("nondeterministic: %s" % differ)
            return 1
        print("deterministic: %d runs, identical counts and transcripts" % args.repeat)
    if result["status"] == "valid":
        return 0
    return 2 if grade.exit_status(result) else 1


if __name__ == "__main__":
    sys.exit(main())
