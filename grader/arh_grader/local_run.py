"""A whole evaluation on this machine, without Docker: the problem's worker
and the oracle as two processes on loopback, as the platform runs them.

    result = local_run.evaluate_local(items, tester="src/tester.py",
                                      settings=settings, problem=PROBLEM)

The worker runs with the standard library only, in a fresh temporary
working directory (its TMPDIR and HOME too), and is killed with everything
it started when the evaluation ends, however it ends: its process group,
its session, and whatever left them and was handed to this process, the
subreaper of its workers' descendants (reaper.py: setsid daemons, double
forks). The worker also exits within a second of this process's death. A
worker that does not start is Failure `no_answer`. Each problem's local.py
is this module with its command line.

A wall the kernel refuses (sandbox.missing: no Landlock, or an older ABI;
no seccomp filter; no PID namespace) does not stop the run, but it is
never silent: the result gets "walls_missing", the list of them, and the
console a line `walls_missing: landlock, pid namespace` (mark_walls). A
run with every wall has neither, and its result.json is byte for byte
what it was before walls were reported.
"""

import fcntl
import itertools
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading

from . import cgroup, engine, reaper, sandbox, workers
from .client import WorkerClient
from .integrity import WARNING
from .result import Failure, write_json

LISTENING = "worker: listening on "
# before each line the worker and its tester print, on our stderr: a tester
# cannot print a line that reads as the summary's (`relative_tests: 0.1`)
OUTPUT_PREFIX = "worker| "
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


def start_worker(*, oracle_url, tester, timeout, worker, cwd, quiet=False, readable=(),
                 private=()):
    """Start `worker` (a harness/worker.py) on a free loopback port; (process, URL).

    The worker runs with the standard library only, as in its container
    (WORKER_FLAGS). Its stderr is forwarded to ours once it listens; its stdout
    (what the tester prints) goes to our stderr as well, keeping stdout for
    the summary, each line after OUTPUT_PREFIX. With `quiet` both are dropped: a failing tester's traceback
    is in the result's message anyway. Failure `no_answer` if it does not
    listen within `timeout`. The worker runs in `cwd`, a folder of its own
    that the caller removes (the only one it may write in), with TMPDIR
    and HOME set to it, and exits when this process dies; stop_worker ends
    it and everything it started (reaper.py).

    It runs inside walls (sandbox.py, where the kernel has Landlock): it
    reads Python, its own folder, its tester (sandbox.tester_reads, kept
    off every `private` path) and what `readable` names (a problem's data);
    it writes only in `cwd`; it connects only to the oracle's port; it can
    neither signal nor trace a process outside its own tree; and it is
    pid 1 of a PID namespace of its own, with no capability (pidns.py),
    so that no pid outside it, the judge's first, is one it can name.
    The process's `walls_missing` names those the kernel refused
    (sandbox.Walls.missing; [] when every one holds). Where this process
    can make a cgroup v2 of its own (cgroup.py), the worker enters one
    before exec, so that a comparison's freeze is the kernel's and
    everything it starts is killed with it.
    """
    walls = sandbox.Walls(
        readable=[os.path.dirname(os.path.abspath(worker)), *readable,
                  *sandbox.tester_reads(tester, private=private)],
        writable=[cwd], connect=[workers.address(oracle_url)[1]], namespace=True)
    env = dict(os.environ, AR_ORACLE_URL=oracle_url, AR_WORKER_HOST="127.0.0.1",
               AR_WORKER_PORT="0", AR_TESTER=os.path.abspath(tester), TMPDIR=cwd, HOME=cwd)
    if not walls.namespaced:        # else pidinit.py watches this process for the worker
        env["AR_PARENT_PID"] = str(os.getpid())

    # None where no cgroup v2 can be made: SIGSTOP freezes. Behind a namespace
    # the init enters the worker through an fd opened here (Landlock forbids
    # it the path) and stays out, its watch never frozen; else the child joins
    group = cgroup.Group.create()
    procs = group.open_procs() if group is not None and walls.namespaced else None
    joins = group is not None and procs is None

    def enter():                    # in the child: in its cgroup and pinned before it forks
        if joins:                   # a file write: before Landlock forbids it
            group.join()
        pin(0, 0)
        walls.enter()

    command = walls.command([sys.executable, *WORKER_FLAGS, worker], cgroup_fd=procs)
    try:
        proc = reaper.spawn(command, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL if quiet else subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, start_new_session=True,
                            preexec_fn=enter, pass_fds=(*walls.fds, *(
                                () if procs is None else (procs,))))
    except BaseException:
        if group is not None:
            group.destroy()
        raise
    finally:
        walls.close()
        if procs is not None:
            os.close(procs)
    proc.walls_missing = walls.missing()    # what the kernel refused of them (Contender)
    proc.cgroup = group             # reaper's freeze, thaw and reap use it
    lines = queue.Queue()

    def forward():
        with proc.stderr:
            for raw in proc.stderr:
                line = raw.decode("utf-8", "replace")
                if line.startswith(LISTENING):
                    lines.put(line[len(LISTENING):].strip())
                elif not quiet:
                    sys.stderr.write(OUTPUT_PREFIX + line)
        lines.put(None)

    def forward_stdout():
        with proc.stdout:
            for raw in proc.stdout:
                sys.stderr.write(OUTPUT_PREFIX + raw.decode("utf-8", "replace"))

    threading.Thread(target=forward, daemon=True).start()
    if not quiet:
        threading.Thread(target=forward_stdout, daemon=True).start()
    try:
        url = lines.get(timeout=timeout)
    except queue.Empty:
        url = None
    if url is None:
        stop_worker(proc)
        raise Failure("no_answer", "the worker did not start listening within %.0f s "
                      "(exit status %s); does %s import?" % (timeout, proc.poll(), tester))
    return proc, url


# SIGKILL to its process group and session, then to whatever it started
# that escaped them (reaper.reap), each reaped.
stop_worker = workers.stop


def evaluate_local(items, *, tester, settings, transcripts=None, progress=None,
                   quiet=False, indexes=None, worker_url=None, worker_command=None,
                   oracle_host="127.0.0.1", oracle_port=0, problem, worker_file=None):
    """Grade `items` through a fresh oracle and a worker, and return the
    result dict: by default a fresh harness/worker.py running `tester`;
    with `worker_url` a worker already running there (the oracle then
    listens where it expects it: `oracle_host`, `oracle_port`); with
    `worker_command` a worker of any language started from it on free
    ports. A worker started here is gone when this returns. `problem` is a
    problem.Problem; `worker_file` its worker unless another is given
    (problem.WORKER). The result names the walls its worker lacked
    (walls_missing), if any."""
    missing = walls_missing(worker_url=worker_url, worker_command=worker_command)
    result = _evaluate(items, tester=tester, settings=settings, transcripts=transcripts,
                       progress=progress, quiet=quiet, indexes=indexes,
                       worker_url=worker_url, worker_command=worker_command,
                       oracle_host=oracle_host, oracle_port=oracle_port, problem=problem,
                       worker_file=worker_file)
    if missing:
        result["walls_missing"] = missing
    return result


def walls_missing(*, worker_url=None, worker_command=None):
    """The walls a local run's worker goes without, in sandbox.EVERY_WALL's
    words: for harness/worker.py, those this kernel refuses
    (sandbox.missing); for a worker at `worker_url`, started by someone
    else, every one of them; for one started from `worker_command`,
    Landlock and the seccomp filter, and the PID namespace where the
    kernel refuses it (workers.walls_missing: the namespace needs nothing
    of what the program is, the others need its paths and its calls).

    Why the walls' own names, rather than a word of its own such as
    "worker command: no walls": such a worker is the user's own program,
    and a demanding user wants to know exactly which walls did not hold
    around it, as on a poorer kernel; a reader of result.json (compare.py's
    --sample-result, a script) asks one question of every run, "which
    walls did not hold?", and gets one vocabulary back. The console line
    says the same words; what the worker was is in the command the user
    typed."""
    if worker_url is not None:
        return list(sandbox.EVERY_WALL)
    if worker_command is not None:
        return workers.walls_missing(namespace=True)
    return sandbox.missing(namespace=True)


def mark_walls(result, *, stream=None):
    """Print `walls_missing: NAME, NAME` on `stream` (stdout) when the
    run's `result` names walls its worker lacked; nothing when every wall
    held. One line, before the summary, as mark_tampered's."""
    missing = result.get("walls_missing")
    if missing:
        (stream or sys.stdout).write("walls_missing: %s\n" % ", ".join(missing))


def _evaluate(items, *, tester, settings, transcripts, progress, quiet, indexes, worker_url,
              worker_command, oracle_host, oracle_port, problem, worker_file):
    """evaluate_local's run, before the walls are said."""
    with engine.serving(settings=settings, record=bool(transcripts), host=oracle_host,
                        port=oracle_port) as oracle:
        proc = None
        home = tempfile.mkdtemp(prefix="worker-")       # the worker's cwd, TMPDIR and HOME
        start_timeout = settings.worker_start_timeout_s
        try:
            try:
                if worker_url is not None:
                    url = worker_url
                elif worker_command is not None:
                    proc, url = workers.start(worker_command, oracle_url=oracle.url,
                                              log=None if quiet else sys.stderr.fileno(),
                                              namespace=True, core=0)
                    workers.wait_listening(proc, url, timeout=start_timeout)
                else:
                    proc, url = start_worker(oracle_url=oracle.url, tester=tester, quiet=quiet,
                                             timeout=start_timeout, cwd=home,
                                             worker=worker_file or problem.WORKER,
                                             readable=problem.WORKER_READS)
            except workers.WorkerError as e:
                return engine.summarize(problem, [], Failure("no_answer", str(e)))
            except Failure as failure:
                return engine.summarize(problem, [], failure)
            return problem.evaluate(items, oracle=oracle, worker=WorkerClient(url),
                                    settings=settings, transcripts=transcripts,
                                    progress=progress, indexes=indexes)
        finally:
            if proc is not None:
                stop_worker(proc)
            shutil.rmtree(home, ignore_errors=True)


def evaluate_runs(items, *, repeat, settings, transcripts=None, **options):
    """evaluate_local `repeat` times, each with a fresh worker in a fresh
    working directory; the list of results. With `transcripts` and more
    than one run, run K's transcripts go to TRANSCRIPTS/run-K."""
    runs = []
    for k in range(1, repeat + 1):
        folder = transcripts
        if folder and repeat > 1:
            folder = os.path.join(folder, "run-%d" % k)
        runs.append(evaluate_local(items, settings=settings, transcripts=folder,
                                   **options))
    return runs


def exit_status(result, runs, *, keys, stream=sys.stdout):
    """A local run's exit status from its result and its runs
    (evaluate_runs; none when the set failed), once its summary is printed:
    0 for a valid run, 1 for the tester's fault, 2 for the set's or the
    grader's. With more than one run it first prints
    "deterministic: N runs, identical counts and transcripts", or
    "nondeterministic: " and the first difference (exit status 1)."""
    if len(runs) > 1:
        differ = first_difference(runs, keys=keys)
        if differ is not None:
            stream.write("nondeterministic: %s\n" % differ)
            return 1
        stream.write("deterministic: %d runs, identical counts and transcripts\n" % len(runs))
    if result["status"] == "valid":
        return 0
    return 2 if engine.exit_status(result) else 1


def first_difference(runs, *, keys):
    """The first difference between run 1 and another, earliest instance
    first, as a line to print; None if every run has the same instances with
    the same values of `keys`, in their order (the problem's REPEATED: its
    counts and the transcript)."""
    for entries in itertools.zip_longest(*(run["items"] for run in runs)):
        first = entries[0]
        for k, entry in enumerate(entries[1:], 2):
            if entry is None or first is None:
                return ("instance %d (graded in only one of runs 1 and %d)"
                        % ((first or entry)["index"], k))
            for key in keys:
                if entry[key] != first[key]:
                    return ("instance %d (%s differ between runs 1 and %d: %s and %s)"
                            % (first["index"], key.replace("_", " "), k,
                               first[key], entry[key]))
    return None


def mark_tampered(result, path, tampered, *, stream=None):
    """When `tampered` (integrity.changes after the run) names files: add
    them to `result` as "tampered", write it again to `path` (its
    result.json), and print "tampered: PATH, PATH..." and the WARNING line
    on `stream` (default stdout), before the summary, whose own `warning`
    (a suspect run's) then comes last. A run with nothing tampered is left
    as it is."""
    if not tampered:
        return
    stream = stream or sys.stdout
    result["tampered"] = list(tampered)
    try:
        write_json(path, result)
    except OSError as e:
        stream.write("local: cannot write %r: %s\n" % (path, e.strerror or e))
    stream.write("tampered: %s\n%s\n" % (", ".join(tampered), WARNING))


def claim_output(folder):
    """lock_output, said for the console: None once this process holds
    `folder`, else the line that says why it cannot (exit status 2)."""
    try:
        if lock_output(folder):
            return None
    except OSError as e:
        return "local: cannot use %r for the result: %s\n" % (folder, e.strerror)
    return ("local: another run is writing to %r; wait for it to end, or give --out "
            "another folder\n" % folder)


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
