"""Run a whole evaluation on this machine, without Docker: the worker and
the grader as two processes on loopback, as the platform runs them.

    python3 grader/local.py                      # the public sample
    python3 grader/local.py --limit 5 --instance-timeout 30
    python3 grader/local.py --tester grader/calibration.py --items set.jsonl

Progress goes to stderr, the summary to stdout as `key: value` lines, the
result to result/result.json. Exit status: 0 for a valid run, 1 for an
invalid one (the tester's fault: its kind and instance are printed), 2 when
the set or the grader failed. The worker runs on core 0 and this process on
core 1 where the machine has two; the worker and anything it started are
killed when the run ends, however it ends.
"""

import argparse
import os
import queue
import signal
import subprocess
import sys
import threading

import grade
import problem
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


def start_worker(*, oracle_url, tester, timeout):
    """Start harness/worker.py on a free loopback port; (process, URL).

    The worker's stderr is forwarded to ours once it listens; its stdout
    (what the tester prints) goes to our stderr as well, keeping stdout for
    the summary. Failure `no_answer` if it does not listen within `timeout`.
    """
    env = dict(os.environ, AR_ORACLE_URL=oracle_url, AR_WORKER_HOST="127.0.0.1",
               AR_WORKER_PORT="0", AR_TESTER=os.path.abspath(tester),
               PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.Popen([sys.executable, "-u", WORKER], env=env, stdin=subprocess.DEVNULL,
                            stdout=sys.stderr.fileno(), stderr=subprocess.PIPE,
                            start_new_session=True)
    pin(proc.pid, 0)
    lines = queue.Queue()

    def forward():
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace")
            if line.startswith(LISTENING):
                lines.put(line[len(LISTENING):].strip())
            else:
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
    """Kill the worker's whole process group and reap it."""
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    if proc.stderr:
        proc.stderr.close()


def evaluate_local(items, *, tester, settings, transcripts=None, progress=None):
    """Grade `items` with `tester` through a fresh worker process and oracle;
    return the result dict. The worker is gone when this returns."""
    oracle = Oracle(check=problem.check_query, answer=problem.answer_query,
                    record=bool(transcripts),
                    idle_timeout=settings["instance_timeout_s"] + 5).start()
    proc = None
    try:
        try:
            proc, url = start_worker(oracle_url=oracle.url, tester=tester,
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    grade.add_common_options(parser)
    parser.add_argument("--out", default=os.path.join(grade.ROOT, "result"),
                        help="folder for result.json (default: result/)")
    parser.add_argument("--tester", default=TESTER,
                        help="the tester file the worker imports (default: src/tester.py)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pin(0, 1)

    def evaluate_with(items, settings):
        return evaluate_local(items, tester=args.tester, settings=settings,
                              transcripts=args.transcripts,
                              progress=grade.progress_printer(len(items)))

    try:
        result, path = grade.run(args, evaluate_with=evaluate_with)
    except KeyboardInterrupt:
        sys.stderr.write("local: interrupted; the worker is stopped, no result written\n")
        return 130
    print("\n".join(grade.summary_lines(result)))
    print("result: %s" % path)
    if result["status"] == "valid":
        return 0
    return 2 if grade.exit_status(result) else 1


if __name__ == "__main__":
    sys.exit(main())
