"""Run a whole evaluation on this machine, without Docker: the worker and
the grader as two processes on loopback, as the platform runs them.

    python3 grader/local.py                      # the public sample
    python3 grader/local.py --limit 5 --instance-timeout 30
    python3 grader/local.py --tester grader/calibration.py --items set.jsonl
    python3 grader/local.py --repeat 2 --transcripts /tmp/t   # deterministic?

Progress goes to stderr, the summary to stdout as `key: value` lines, the
result to result/result.json. Exit status: 0 for a valid run, 1 for an
invalid one (the tester's fault: its kind and instance are printed), 2 when
the set or the grader failed. The worker runs on core 0 and this process on
core 1 where the machine has two; the worker and anything it started are
killed when the run ends, however it ends.

With --repeat N the evaluation runs N times, each with a fresh worker, and
the last line says "deterministic: N runs, identical transcripts" or names
the first instance whose transcripts differ ("nondeterministic: instance I
(transcripts differ between runs 1 and K)", exit status 1); with
--transcripts DIR as well, run K's transcripts go to DIR/run-K to compare.
"""

import argparse
import itertools
import os
import queue
import signal
import subprocess
import sys
import threading

import grade
import problem
import report
from arh_grader import Failure, Oracle, WorkerClient

WORKER = os.path.join(grade.ROOT, "harness", "worker.py")
TESTER = os.path.join(grade.ROOT, "src", "tester.py")
LISTENING = "worker: listening on "


def pin(pid, core):
    """Keep process `pid` (0: this one) on `core`, where there is one."""
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > core:
        try:
            os.sched_setaffinity(pid, {core})
        except OSError:
            pass


def start_worker(*, oracle_url, tester, timeout, quiet=False):
    """Start harness/worker.py on a free loopback port; (process, URL).

    The worker's stderr is forwarded to ours once it listens; its stdout
    (what the tester prints) goes to our stderr as well, keeping stdout for
    the summary. With `quiet` both are dropped: a failing tester's traceback
    is in the result's message anyway. Failure `no_answer` if it does not
    listen within `timeout`.
    """
    env = dict(os.environ, AR_ORACLE_URL=oracle_url, AR_WORKER_HOST="127.0.0.1",
               AR_WORKER_PORT="0", AR_TESTER=os.path.abspath(tester),
               PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.Popen([sys.executable, "-u", WORKER], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL if quiet else sys.stderr.fileno(),
                            stderr=subprocess.PIPE,
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


def stop_worker(proc):
    """Kill the worker's whole process group and reap it: SIGTERM, then
    SIGKILL for whatever of the group is left (a tester's child that ignores
    SIGTERM). The worker's stderr is closed by the thread reading it, at its
    end: a process that left the group may hold it open."""
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass


def evaluate_local(items, *, tester, settings, transcripts=None, progress=None,
                   quiet=False):
    """Grade `items` with `tester` through a fresh worker process and oracle;
    return the result dict. The worker is gone when this returns."""
    oracle = Oracle(check=problem.check_query, answer=problem.answer_query,
                    record=bool(transcripts),
                    idle_timeout=settings["instance_timeout_s"] + 5).start()
    proc = None
    try:
        try:
            proc, url = start_worker(oracle_url=oracle.url, tester=tester, quiet=quiet,
                                     timeout=settings["worker_start_timeout_s"])
        except Failure as failure:
            return grade.summarize([], failure)
        return grade.evaluate(items, oracle=oracle, worker=WorkerClient(url),
                              instance_timeout=settings["instance_timeout_s"],
                              run_timeout=settings["run_timeout_s"],
                              start_timeout=settings["worker_start_timeout_s"],
                              transcripts=transcripts, progress=progress)
    finally:
        if proc is not None:
            stop_worker(proc)
        oracle.stop()


def first_difference(runs):
    """(instance index, run number) of the first transcript that differs
    from run 1's, earliest instance first; None if all are identical."""
    for entries in itertools.zip_longest(*(run["items"] for run in runs)):
        for k, entry in enumerate(entries[1:], 2):
            if entry is None or entries[0] is None or \
                    entry["transcript"] != entries[0]["transcript"]:
                return (entries[0] or entry)["index"], k
    return None


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
    parser.add_argument("--repeat", type=grade.positive(int), default=1, metavar="N",
                        help="run N times with fresh workers and compare the transcripts")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pin(0, 1)

    runs = []

    def evaluate_with(items, settings):
        if args.start_timeout is not None:
            settings["worker_start_timeout_s"] = args.start_timeout
        for k in range(1, args.repeat + 1):
            folder = args.transcripts
            if folder and args.repeat > 1:
                folder = os.path.join(folder, "run-%d" % k)
            runs.append(evaluate_local(items, tester=args.tester, settings=dict(settings),
                                       transcripts=folder,
                                       progress=grade.progress_printer(len(items))))
        return runs[0]

    try:
        result, path = grade.run(args, evaluate_with=evaluate_with)
    except KeyboardInterrupt:
        sys.stderr.write("local: interrupted; the worker is stopped, no result written\n")
        return 130
    print("\n".join(grade.summary_lines(result)))
    print("result: %s\nreport: %s" % (report.display_path(path), report.command_for(path)))
    if args.repeat > 1 and len(runs) == args.repeat:
        differ = first_difference(runs)
        if differ is not None:
            print("nondeterministic: instance %d (transcripts differ between runs 1 and %d)"
                  % differ)
            return 1
        print("deterministic: %d runs, identical transcripts" % args.repeat)
    if result["status"] == "valid":
        return 0
    return 2 if grade.exit_status(result) else 1


if __name__ == "__main__":
    sys.exit(main())
