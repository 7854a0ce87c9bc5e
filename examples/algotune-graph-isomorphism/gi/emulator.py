"""Run a solver under the counting emulator and return what it did.

    run({"solver.py": source}, problems, cap=10**9, timeout_s=600)

starts the pinned command: qemu-x86_64 (gi/qemu.py's, Haswell-noTSX, uname release
6.1.0, the guest tree of tree.py as -L, guest memory below GUEST_HI,
where the plugin's memory check draws the line) with the counting plugin
(plugin/), running the tree's Python 3.13 on driver.py, inside
Landlock walls (walls()); a fixed environment (env -i); a fresh PID
namespace, so the guest's pid is the same on every run (the pid enters
the count); the guest as user GUEST_UID with no capability, so it cannot
write the tree, the plugin or this folder; at most MEMORY_BYTES of
address space, and the first process the kernel kills when memory runs
out (OOM_SCORE_ADJ), never the grader. The host's address randomisation
does not reach the guest: qemu places every guest mapping itself, from a
fixed base, below GUEST_HI (the same counts with and without `setarch
-R`, measured). It then feeds the driver its items, each
only after the answer and the count of the one before: go (the solver's
import), each problem, end; all under one wall-clock deadline, timeout_s.

The solver folder, the problem file and the driver live at fixed paths
under RUN_DIR, the same on every run (paths enter the count). Runs on one
machine therefore take turns: each holds an exclusive lock on LOCK_FILE
from writing the files until the emulator is reaped.

The result is a Run. kind is None when every problem was answered, else:
    over_budget      an item passed `cap` instructions (the plugin ends it)
    threads          the solver started a thread or a process
    escape           it reached outside its memory (a load or store the
                     plugin saw land there, or one that faulted: the
                     emulator died of SIGSEGV or SIGBUS), touched the
                     report fd or /proc, exec'd, or broke the answer protocol
    solver_failed    Solver() or solve() raised, or the emulator died
    solver_timeout   the wall clock passed timeout_s
    output_too_large an answer over MAX_ANSWER_BYTES, or stdout/stderr
                     over MAX_OUTPUT_BYTES (gi/frames.py, the host's end
                     of the run, which feeds the items and reads them)
Whatever the guest does, run() returns a Run; the emulator's process group
is killed and reaped on every path.
"""

import dataclasses
import fcntl
import json
import os
import resource
import shutil
import signal
import subprocess
import time

from arh_grader import sandbox

from gi import frames, qemu, tree

RUN_DIR = tree.HOME + "/run"              # driver.py, problem.json, src/
SOLVER_DIR = RUN_DIR + "/src"             # the solver's files, read-only
PROBLEM_FILE = RUN_DIR + "/problem.json"
DRIVER_FILE = RUN_DIR + "/driver.py"
LOCK_FILE = tree.HOME + "/run.lock"
DRIVER_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "driver.py")
GUEST_HI = 0x500000000000                 # bytes, the top of the guest's memory (the plugin's hi)
GUEST_UID = 65534                         # the guest's uid and gid (nobody)
MEMORY_BYTES = 4 << 30                    # bytes of address space, the emulator's RLIMIT_AS
OOM_SCORE_ADJ = 1000                      # the emulator's oom_score_adj: killed first
ENVIRONMENT = {                           # the guest's whole environment
    "PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/nonexistent", "PYTHONHASHSEED": "0",
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
}
LAUNCHERS = ("env", "unshare", "setpriv", "sh")   # the command's programs beside qemu


def walls():
    """The Landlock walls the emulator runs in (arh_grader.sandbox.Walls):
    it reads the tree, the plugin, RUN_DIR, the programs of its command,
    /proc (the plugin's procguard keeps the guest off it) and the system's
    libraries, writes nothing, and connects nowhere. A solver that looks
    for the set or the grader's files on the disk is refused (EACCES).
    Without the SDK's seccomp filter: the emulator is a program of its own
    that makes its own namespace and limits (`unshare`, `setpriv`), and the
    plugin's syscall guard decides what the guest may call."""
    programs = [shutil.which(name) for name in LAUNCHERS]
    return sandbox.Walls(readable=[tree.TREE, tree.PLUGIN, qemu.ROOT, RUN_DIR, "/proc"]
                         + [p for p in programs if p], bind=False, syscalls=False)


@dataclasses.dataclass(frozen=True)
class Run:
    """What one emulator run did: see the module's docstring for kind."""
    kind: object                          # None, or one of the kinds above
    message: str                          # words for a person
    environment_instructions: object      # startup and environment (not the solver's)
    import_instructions: object           # go -> first problem: importing the solver
    counts: tuple                         # each answered problem's instructions
    answers: tuple                        # their parsed JSON answers, in order
    seconds: float                        # wall-clock time of the run


def command(*, cap=None, memory_check=True):
    """The emulator's command line (a list), for these options."""
    plugin = "%s,fd=3,out=4,detrand=on,dettime=on,normstat=on,lprefix=%s" % (
        tree.PLUGIN, tree.TREE)
    if memory_check:
        plugin += ",mem=on,lo=0,hi=%#x" % GUEST_HI
    if cap:
        plugin += ",cap=%d" % cap
    cmd = []
    if os.geteuid() == 0:
        cmd += ["unshare", "--pid", "--fork",
                "setpriv", "--reuid=%d" % GUEST_UID, "--regid=%d" % GUEST_UID, "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all",   # then sh as pid 1, so that
                "sh", "-c", '"$@"; exit $?', "sh"]           # qemu, pid 2, can die of a signal
    cmd += ["env", "-i"] + ["%s=%s" % kv for kv in sorted(ENVIRONMENT.items())]
    cmd += [*qemu.COMMAND, "-cpu", tree.CPU, "-r", "6.1.0",
            "-L", tree.TREE, "-plugin", plugin,
            tree.PYTHON, "-s", "-S", "-B", "-P", DRIVER_FILE, tree.SITE]
    return cmd


def _write_files(files):
    """Empty SOLVER_DIR and write `files` into it, read-only."""
    if os.path.lexists(SOLVER_DIR):
        for dirpath, dirnames, _ in os.walk(SOLVER_DIR):
            os.chmod(dirpath, 0o755)
        shutil.rmtree(SOLVER_DIR)
    os.makedirs(SOLVER_DIR)
    for rel, data in sorted(files.items()):
        parts = rel.split("/")
        if (not isinstance(rel, str) or not rel or rel.startswith("/")
                or any(p in ("", ".", "..") for p in parts)):
            raise ValueError("a solver file's path must be relative and plain, got %r" % (rel,))
        if not isinstance(data, bytes):
            raise ValueError("the contents of %r must be bytes, got %r" % (rel, type(data)))
        path = os.path.join(SOLVER_DIR, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o444)
    for dirpath, _, _ in sorted(os.walk(SOLVER_DIR), reverse=True):
        os.chmod(dirpath, 0o555)


def _write_problem(problem):
    tmp = PROBLEM_FILE + ".new"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(problem, f, separators=(",", ":"))
    os.chmod(tmp, 0o444)
    os.replace(tmp, PROBLEM_FILE)


def _child_fds(frame_r, report_w, answer_w, wall):
    def place():                          # in the child: limits, walls, then fds 3, 4, 5
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))     # no core file of the guest
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("%d\n" % OOM_SCORE_ADJ)
        wall.enter()
        for i, fd in enumerate((frame_r, report_w, answer_w)):
            os.dup2(fd, 100 + i)
        for i in range(3):
            os.dup2(100 + i, 3 + i)
            os.close(100 + i)
    return place


def run(files, problems, *, cap, timeout_s, memory_check=True):
    """Run the solver `files` ({relative path: bytes}) on `problems` (a list
    of problem dicts) under the counting emulator; cap is each item's budget
    of instructions (None or 0 for none), timeout_s the wall-clock deadline
    of the whole run. Returns a Run."""
    if not os.path.exists(tree.MANIFEST) or not os.path.exists(tree.PLUGIN):
        raise RuntimeError("the guest tree is not built (no %r or %r): run gi/setup.py"
                           % (tree.MANIFEST, tree.PLUGIN))
    if cap is not None and (type(cap) is not int or cap < 0):
        raise ValueError("cap must be a non-negative integer or None, got %r" % (cap,))
    if not isinstance(timeout_s, (int, float)) or timeout_s <= 0:
        raise ValueError("timeout_s must be a positive number, got %r" % (timeout_s,))
    os.makedirs(RUN_DIR, exist_ok=True)
    with open(LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            _write_files(files)
            shutil.copyfile(DRIVER_SOURCE, DRIVER_FILE)
            if os.path.exists(PROBLEM_FILE):
                os.unlink(PROBLEM_FILE)
            return _run_locked(problems, cap, timeout_s, memory_check)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _run_locked(problems, cap, timeout_s, memory_check):
    t0 = time.monotonic()
    frame_r, frame_w = os.pipe()
    report_r, report_w = os.pipe()
    answer_r, answer_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    proc = None
    wall = walls()
    try:
        proc = subprocess.Popen(
            command(cap=cap, memory_check=memory_check), cwd=SOLVER_DIR,
            stdin=subprocess.DEVNULL, stdout=out_w, stderr=err_w, close_fds=True,
            pass_fds=(3, 4, 5) + wall.fds, start_new_session=True,
            preexec_fn=_child_fds(frame_r, report_w, answer_w, wall))
        wall.close()
        for fd in (frame_r, report_w, answer_w, out_w, err_w):
            os.close(fd)
        frame_r = report_w = answer_w = out_w = err_w = None
        session = frames.Session(proc, (frame_w, report_r, answer_r, out_r, err_r),
                                 t0 + timeout_s)
        try:
            kind, message, env, imported, counts, answers = frames.drive(
                session, problems, cap, write_problem=_write_problem)
        except OSError as e:              # a pipe the guest closed under us
            kind, message, env, imported, counts, answers = (
                "solver_failed", "the emulator's pipes failed: %s" % e, None, None, [], [])
        if kind is None:
            end = time.monotonic() + frames.EXIT_GRACE_S
            while proc.poll() is None and time.monotonic() < end and session.open:
                session.pump(0.05)
        return Run(kind=kind, message=message, environment_instructions=env,
                   import_instructions=imported, counts=tuple(counts), answers=tuple(answers),
                   seconds=round(time.monotonic() - t0, 3))
    finally:
        wall.close()
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait()
        for fd in (frame_r, frame_w, report_r, report_w, answer_r, answer_w,
                   out_r, out_w, err_r, err_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
