"""Run a solver under the counting emulator and return what it did.

    run({"solver.py": source}, problems, cap=10**9, timeout_s=600)

starts the pinned command: qemu-x86_64 (gi/qemu.py's, Haswell-noTSX, uname release
6.1.0, the guest tree of tree.py as -L, guest memory below GUEST_HI,
where the plugin's memory check draws the line) with the counting plugin
(plugin/count.c), running the tree's Python 3.13 on driver.py, inside
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
                     over MAX_OUTPUT_BYTES
Whatever the guest does, run() returns a Run; the emulator's process group
is killed and reaped on every path.
"""

import dataclasses
import fcntl
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import time

from arh_grader import sandbox

from gi import qemu, tree

RUN_DIR = tree.HOME + "/run"              # driver.py, problem.json, src/
SOLVER_DIR = RUN_DIR + "/src"             # the solver's files, read-only
PROBLEM_FILE = RUN_DIR + "/problem.json"
DRIVER_FILE = RUN_DIR + "/driver.py"
LOCK_FILE = tree.HOME + "/run.lock"
DRIVER_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "driver.py")
MAX_ANSWER_BYTES = 1 << 20                # bytes, one answer line
MAX_OUTPUT_BYTES = 1 << 20                # bytes, the guest's stdout and stderr, each
GUEST_HI = 0x500000000000                 # bytes, the top of the guest's memory (the plugin's hi)
GUEST_UID = 65534                         # the guest's uid and gid (nobody)
MEMORY_BYTES = 4 << 30                    # bytes of address space, the emulator's RLIMIT_AS
OOM_SCORE_ADJ = 1000                      # the emulator's oom_score_adj: killed first
EXIT_GRACE_S = 2.0                        # seconds the driver gets to exit after "end"
ENVIRONMENT = {                           # the guest's whole environment
    "PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/nonexistent", "PYTHONHASHSEED": "0",
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
}
PLUGIN_KINDS = ("over_budget", "threads", "escape")
FAULTS = {128 + signal.SIGSEGV, 128 + signal.SIGBUS,   # the exit statuses of a memory fault:
          -signal.SIGSEGV, -signal.SIGBUS}            # through sh (as root), or qemu's own
LAUNCHERS = ("env", "unshare", "setpriv", "sh")   # the command's programs beside qemu


def walls():
    """The Landlock walls the emulator runs in (arh_grader.sandbox.Walls):
    it reads the tree, the plugin, RUN_DIR, the programs of its command,
    /proc (the plugin's procguard keeps the guest off it) and the system's
    libraries, writes nothing, and connects nowhere. A solver that looks
    for the set or the grader's files on the disk is refused (EACCES)."""
    programs = [shutil.which(name) for name in LAUNCHERS]
    return sandbox.Walls(readable=[tree.TREE, tree.PLUGIN, qemu.ROOT, RUN_DIR, "/proc"]
                         + [p for p in programs if p], bind=False)


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


class _Session:
    """The host's end of one emulator run: its pipes, buffers and deadline."""

    def __init__(self, proc, fds, deadline):
        self.proc, self.deadline = proc, deadline
        self.frame_w, self.report_r, self.answer_r, self.out_r, self.err_r = fds
        self.reports, self.report_buf, self.answer_buf = [], b"", b""
        self.output = {self.out_r: 0, self.err_r: 0}
        self.err_tail = b""
        self.open = {self.report_r, self.answer_r, self.out_r, self.err_r}

    def pump(self, timeout):
        """Read what is ready; return a (kind, message) that ends the run, or None."""
        ready, _, _ = select.select(sorted(self.open), [], [], max(0.0, timeout))
        for fd in ready:
            data = os.read(fd, 1 << 16)
            if not data:
                self.open.discard(fd)
                continue
            if fd == self.report_r:
                self.report_buf += data
                *lines, self.report_buf = self.report_buf.split(b"\n")
                self.reports.extend(line.decode(errors="replace").split() for line in lines)
            elif fd == self.answer_r:
                self.answer_buf += data
                if len(self.answer_buf.split(b"\n")[-1]) > MAX_ANSWER_BYTES:
                    return "output_too_large", "an answer line is over %d bytes" % MAX_ANSWER_BYTES
            else:
                self.output[fd] += len(data)
                if fd == self.err_r:
                    self.err_tail = (self.err_tail + data)[-2000:]
                if self.output[fd] > MAX_OUTPUT_BYTES:
                    which = "stdout" if fd == self.out_r else "stderr"
                    return "output_too_large", "the solver wrote over %d bytes on %s" % (
                        MAX_OUTPUT_BYTES, which)
        return None

    def next_report(self):
        """Wait for the plugin's next report line: ("r", count) at a framing
        read, or (kind, message) when the run ends."""
        while not self.reports:
            left = self.deadline - time.monotonic()
            if self.report_r in self.open:
                if left <= 0:
                    return "solver_timeout", "the run passed its deadline"
                ended = self.pump(left)
                if ended:
                    return ended
            else:                         # the plugin's end closed: the emulator is gone
                code = self.proc.poll()
                if code is None:
                    try:
                        code = self.proc.wait(timeout=min(1.0, max(0.0, left)))
                    except subprocess.TimeoutExpired:
                        code = "unknown"
                tail = self.err_tail.decode(errors="replace").strip().splitlines()[-3:]
                if code in FAULTS:
                    return "escape", ("the emulator died of a memory fault (status %r): a load or"
                                      " store where the guest holds no memory" % code)
                return "solver_failed", "the emulator exited (status %r): %s" % (
                    code, " | ".join(tail) or "no message")
        line = self.reports.pop(0)
        if len(line) >= 2 and line[0] == "r" and line[1].isdigit():
            return "r", int(line[1])
        if line and line[0] in PLUGIN_KINDS:
            return line[0], " ".join(line[2:]) or line[0]
        tail = self.err_tail.decode(errors="replace").strip().splitlines()[-3:]
        return "solver_failed", "the run ended (%s): %s" % (" ".join(line), " | ".join(tail))

    def next_answer(self):
        """Wait for the driver's next answer line: ("answer", line), or
        (kind, message) when the run ends first."""
        while b"\n" not in self.answer_buf:
            if self.reports:              # no item is pending: no read may return
                tag, value = self.next_report()
                if tag == "r":
                    return "escape", "a framing read the host did not feed"
                return tag, value
            left = self.deadline - time.monotonic()
            if left <= 0:
                return "solver_timeout", "the run passed its deadline"
            ended = self.pump(min(left, 0.5))
            if ended:
                return ended
            if self.answer_r not in self.open or self.report_r not in self.open:
                tag, value = self.next_report()
                if tag == "r":
                    return "escape", "a framing read the host did not feed"
                return tag, value
        line, _, self.answer_buf = self.answer_buf.partition(b"\n")
        return "answer", line.decode("utf-8", errors="replace")


def _item(session, token, what):
    """Start the next item by sending its token; returns the count at the
    read that took it, or (kind, message)."""
    if session.answer_buf:
        return None, ("escape", "%s: more than one answer line for one item" % what)
    os.write(session.frame_w, token)
    tag, value = session.next_report()
    if tag != "r":
        return None, (tag, "%s: %s" % (what, value))
    return value, None


def _drive(session, problems, cap):
    """Feed the items; return (kind, message, env, import, counts, answers).
    An item's count is known when the next item's token is read, so each
    token goes only after the answer before it."""
    counts, answers = [], []
    names = ["the solver's import"] + ["problem %d" % k for k in range(len(problems))]
    tokens = [b"g"] + [b"p"] * len(problems) + [b"e"]
    env = imported = last = None
    for k, token in enumerate(tokens):
        what = names[k] if k < len(names) else "the end"
        if token == b"p":
            _write_problem(problems[k - 1])
        at, ended = _item(session, token, names[k - 1] if k else "startup")
        if ended:
            return ended[0], ended[1], env, imported, counts, answers
        if k == 0:
            env = at
        else:
            count = at - last
            if cap and count > cap:
                return ("over_budget", "%s passed %d instructions" % (names[k - 1], cap),
                        env, imported, counts, answers)
            if k == 1:
                imported = count
            else:
                counts.append(count)
                answers.append(pending)
        last = at
        if token == b"e":
            break
        tag, line = session.next_answer()
        if tag != "answer":
            return tag, "%s: %s" % (what, line), env, imported, counts, answers
        if k == 0:
            if line != "ready":
                return ("solver_failed", "the solver's import raised: %s" % _raised_text(line),
                        env, None, counts, answers)
            continue
        if not line.startswith("ok "):
            return ("solver_failed", "%s: solve raised: %s" % (what, _raised_text(line)),
                    env, imported, counts, answers)
        try:
            pending = json.loads(line[3:])
        except ValueError:
            return "escape", "%s: the answer is not JSON" % what, env, imported, counts, answers
    return None, "answered %d problems" % len(problems), env, imported, counts, answers


def _raised_text(line):
    if line.startswith("raised "):
        try:
            text = json.loads(line[7:])
            return str(text).strip().splitlines()[-1]
        except (ValueError, IndexError):
            pass
    return "unexpected answer %r" % line[:200]


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
        session = _Session(proc, (frame_w, report_r, answer_r, out_r, err_r), t0 + timeout_s)
        try:
            kind, message, env, imported, counts, answers = _drive(session, problems, cap)
        except OSError as e:              # a pipe the guest closed under us
            kind, message, env, imported, counts, answers = (
                "solver_failed", "the emulator's pipes failed: %s" % e, None, None, [], [])
        if kind is None:
            end = time.monotonic() + EXIT_GRACE_S
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
