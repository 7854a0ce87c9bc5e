"""Everything a worker started is gone once the worker is stopped, whatever
it did: a daemon that left the worker's process group and session
(setsid), a double fork, a daemon that keeps forking or hops from pid to pid.

    proc = reaper.spawn([sys.executable, "worker.py"], start_new_session=True)
    ...
    os.killpg(proc.pid, signal.SIGKILL); proc.wait()
    reaper.reap(proc)            # kills and reaps what escaped; the pids killed

A worker can also be frozen (freeze()) and thawed (thaw()), so that of
two workers kept for a comparison only the one whose turn it is runs.
A worker started in a cgroup of its own (cgroup.Group, kept as the Popen's
`cgroup` attribute by local_run.start_worker) is frozen by the kernel
(cgroup.freeze): nothing inside can thaw it, and reap() kills the cgroup
and removes it. Elsewhere freeze() sends SIGSTOP to every process of its
tree (the orphans killed) and thaw() SIGCONT; a process can undo that for
itself (a POSIX timer that sends it SIGCONT), so stopped() tells whether
the tree is still stopped, and the comparison looks again at the end of
the other contender's turn (contender.Contender.check_frozen).

How. The first spawn() makes this process the child subreaper of its
descendants (prctl(PR_SET_CHILD_SUBREAPER, 1) through ctypes, once, never at
import): a process whose parent dies is then handed to this process rather
than to init, so nothing a worker started can leave this process's tree.
reap() kills (SIGKILL) and reaps what came back, looking again until none
is left or REAP_DEADLINE passes: a daemon that forks on is caught too, each
child handed here when its parent is killed.

Which children are orphans. A worker is started by spawn() in a session of
its own; spawn() keeps its pid in a registry until reap(). Every process a
worker started is in the worker's session or, after setsid, in a session
its own descendants made: never in this process's session, which no
process can join. So a child of this process is a worker's orphan when it
is not a registered worker and its session is not this process's. Its
whole session is killed with it; so is the stopped worker's session, even
its members whose parent still lives. The children this process starts
otherwise (subprocess.run of git, a command under test) stay in its session
and are left alone. An orphan in the session of a worker still registered
is that worker's and is left to its own reap(); an orphan in a session of
its own cannot be traced to its worker, and any reap() ends it: with two
workers live at once, stopping one ends the other's setsid daemons too.
Not covered: a child this process started in a new session other than
through spawn() (it would be taken for an orphan), a process started for
the tester by another service (at, systemd, ssh), and the case where this
process itself is killed by SIGKILL (its workers' daemons then go to init;
the worker itself still ends with its group, harness/worker.py's watch).

Linux only, where /proc and prctl exist; elsewhere spawn() is Popen with
the registry and reap() does nothing, killing the worker's group being all
there is (workers.stop).
"""

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

PR_SET_CHILD_SUBREAPER = 36      # prctl's option number (linux/prctl.h)
REAP_DEADLINE = 5.0              # seconds reap() goes on finding and killing, at most
REAP_POLL = 0.01                 # seconds between two looks at the processes
PROC = "/proc"

_lock = threading.RLock()        # held while a worker starts and while orphans are chosen
_workers = set()                 # pids of the workers spawn() started, until reap()
_state = {"subreaper": None}     # None: not tried yet; then whether prctl took it


def linux():
    """Whether this is Linux with /proc: where the reaper works."""
    return sys.platform.startswith("linux") and os.path.isdir(PROC)


def become_subreaper():
    """Make this process the child subreaper of its descendants, once;
    whether it is one. False off Linux, or when prctl refuses."""
    with _lock:
        if _state["subreaper"] is None:
            _state["subreaper"] = _prctl_subreaper()
        return _state["subreaper"]


def _prctl_subreaper():
    if not linux():
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def spawn(args, **popen_options):
    """subprocess.Popen(args, **popen_options) for a worker, which should
    get start_new_session=True: this process becomes a subreaper first, and
    the worker's pid is registered until reap(). OSError as Popen's."""
    become_subreaper()
    with _lock:
        proc = subprocess.Popen(args, **popen_options)
        _workers.add(proc.pid)
    return proc


def registered():
    """The pids of the workers started by spawn() and not yet reaped."""
    with _lock:
        return set(_workers)


def processes():
    """{pid: (parent pid, process group, session, state letter)} of every
    process /proc shows; {} off Linux."""
    found = {}
    try:
        names = os.listdir(PROC)
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(os.path.join(PROC, name, "stat"), "rb") as f:
                text = f.read()
            fields = text[text.rindex(b")") + 2:].split()
            found[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]),
                                fields[0].decode("ascii", "replace"))
        except (OSError, ValueError, IndexError):
            continue            # gone meanwhile
    return found


def doomed(table, *, sessions=()):
    """The pids of `table` (processes()) to kill: this process's children
    that are workers' orphans (see the module's docstring), and every
    member of their sessions and of `sessions`, never this process or a
    member of its session, nor of a registered worker's session."""
    me, mine = os.getpid(), os.getsid(0)
    live = registered()
    chosen = {s for s in sessions if s not in live}
    for pid, (parent, _, session, _) in table.items():
        if parent == me and pid not in live and session not in live:
            chosen.add(session)
    chosen.discard(mine)
    chosen.discard(0)
    return sorted(pid for pid, (_, _, session, _) in table.items()
                  if session in chosen and pid != me)


def reap(proc, *, deadline=REAP_DEADLINE):
    """Unregister the worker `proc` (a Popen, or its pid), already killed,
    then kill (SIGKILL) its session and every orphan of a worker among this
    process's children with their sessions, reap those that are this
    process's children, and look again until none is left or `deadline`
    seconds pass. The pids killed or reaped, sorted; [] off Linux."""
    pid = getattr(proc, "pid", proc)
    with _lock:
        _workers.discard(pid)
    group = getattr(proc, "cgroup", None)
    if group is not None:
        group.destroy(deadline=deadline)
    if not linux():
        return []
    ended = time.monotonic() + deadline
    me, seen = os.getpid(), set()
    while True:
        table = processes()
        with _lock:
            targets = doomed(table, sessions=(pid,))
        for target in targets:
            parent, _, _, state = table[target]
            if state != "Z":
                try:
                    os.kill(target, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            if parent == me:
                _reap_child(target)
        seen.update(targets)
        if not targets or time.monotonic() > ended:
            return sorted(seen)
        time.sleep(REAP_POLL)


def _reap_child(pid):
    """Collect child `pid` if it has ended; leave it to the next look if not."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def tree(pid, table):
    """Worker `pid`'s processes in `table` (processes()): its session's
    members and every descendant by parentage, `pid` itself included."""
    session = table[pid][2] if pid in table else pid
    found = {p for p, (_, _, s, _) in table.items() if s == session} | {pid}
    while True:
        more = {p for p, (parent, _, _, _) in table.items() if parent in found} - found
        if not more:
            return found
        found |= more


def freeze(proc, *, deadline=REAP_DEADLINE):
    """Stop (SIGSTOP) every process of the worker `proc` (a Popen, or its
    pid) and kill the orphans of any worker, looking again until nothing
    of it runs: a process stopped cannot fork, so each look finds fewer.
    False when `deadline` seconds pass first, or off Linux. A worker in a
    cgroup of its own (`proc.cgroup`) is frozen by its cgroup instead:
    True once the kernel says every process of it is; False when it
    holds no process any more."""
    pid = getattr(proc, "pid", proc)
    group = getattr(proc, "cgroup", None)
    if group is not None:
        return group.freeze(deadline=deadline) and bool(group.pids())
    if not linux():
        return False
    ended = time.monotonic() + deadline
    while time.monotonic() <= ended:
        table = processes()
        if pid not in table:
            return False
        running = [p for p in tree(pid, table) if table[p][3] not in "TtZX"]
        with _lock:
            orphans = doomed(table)
        for target in orphans:
            _signal(target, signal.SIGKILL)
            if table[target][0] == os.getpid():
                _reap_child(target)
        if not running and not orphans:
            return True
        for target in running:
            _signal(target, signal.SIGSTOP)
        time.sleep(REAP_POLL / 10)
    return False


def stopped(proc):
    """Whether the worker `proc`, frozen by freeze(), still is: its cgroup
    says so, or (without one) no process of its tree runs. False off Linux."""
    group = getattr(proc, "cgroup", None)
    if group is not None:
        return group.frozen()
    pid = getattr(proc, "pid", proc)
    if not linux():
        return False
    table = processes()
    return pid in table and all(table[p][3] in "TtZX" for p in tree(pid, table))


def thaw(proc):
    """Let every process of the worker `proc` run again (its cgroup
    thawed, or SIGCONT to each process of its tree)."""
    group = getattr(proc, "cgroup", None)
    if group is not None:
        group.thaw()
        return
    pid = getattr(proc, "pid", proc)
    table = processes()
    for target in sorted(tree(pid, table)):
        _signal(target, signal.SIGCONT)


def _signal(pid, signum):
    try:
        os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass

