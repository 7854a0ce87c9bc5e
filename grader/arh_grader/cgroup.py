"""A cgroup v2 of its own for each worker, so that freezing it is the
kernel's doing and nothing inside can undo it.

    if cgroup.usable():                       # decided once a process
        group = cgroup.Group.create()         # <mount>/<our cgroup>/arh-worker-<pid>-<n>
        subprocess.Popen(args, preexec_fn=group.join)   # the child enters before exec
        # or, behind pidinit.py: fd = group.open_procs(), pass_fds=(fd,), --cgroup-fd=fd
        group.freeze(deadline=5.0)            # True once cgroup.events says "frozen 1"
        group.frozen(); group.usage_usec()    # still frozen? CPU time of all it held
        group.thaw()
        group.destroy()                       # cgroup.kill, then rmdir once empty

Why. reaper.freeze stops a worker's tree with SIGSTOP, which a process
undoes for itself: a POSIX timer (timer_create, SIGEV_SIGNAL) armed with
SIGCONT fires while it is stopped and continues it. A frozen cgroup's
processes cannot run at all, whatever signal or timer they hold: the
kernel parks them until the cgroup is thawed, and only a fatal signal
(SIGKILL) gets through, to end them.

How. The cgroup2 mount is read from /proc/self/mounts (/sys/fs/cgroup on a
unified layout, /sys/fs/cgroup/unified on a hybrid one), this process's
cgroup from /proc/self/cgroup's "0::" line; each Group is a folder beneath
it. `usable` tries once, by making and removing a probe folder, whether
this process may create one, whether it has cgroup.freeze (Linux >= 5.2),
whether that file takes a write and whether a forked child can enter it
(`_try_join`). Where one fails (not root and no delegation, a container
with a read-only /sys/fs/cgroup, a kernel before 5.2, not Linux), the SDK
keeps SIGSTOP (reaper.py).

Who enters, and when. Behind a PID namespace (pidns.py) the judge opens
the Group's cgroup.procs (`open_procs`) and the child inherits it: its
init (pidinit.py --cgroup-fd) forks the worker, which writes "0" to it
before it execs, so the worker and every process it will ever start are
born inside, and no tester code has run. The init itself stays out: it is
never frozen, so when the judge dies, even by SIGKILL, its watch still
wakes (the SIGCONT of PR_SET_PDEATHSIG) and kills the frozen worker, whose
namespace then dies with it. An fd rather than the path, because the init
runs inside Landlock, which refuses to open the file. Without a namespace
the child of Popen enters (`join`, its preexec_fn) before anything else
of Walls.enter, while the file may still be written. Done by the judge
after Popen instead, the worker could fork first. Inside, the tester
cannot leave nor thaw its Group: Landlock gives it no write under
/sys/fs/cgroup, and the seccomp filter and the empty capabilities keep it
from mounting one.

The end. `destroy` writes "1" to cgroup.kill (Linux >= 5.14; before, it
SIGKILLs each pid of cgroup.procs until none is left), then removes the
folder once it is empty. reaper.reap calls it for a Popen that carries a
Group (its `cgroup` attribute), so every path that stops a worker ends
its Group: a normal end, a failed run, Ctrl-C and SIGTERM (stopping.py's
Stopped unwinds through Contender.__exit__). An atexit hook, set with the
first Group, ends any left. Only a grader killed by SIGKILL leaves its
Groups of workers started without a namespace behind, frozen (their own
parent watch cannot run): the next `Group.create` of any grader removes
the Groups whose grader pid no longer lives (`sweep`).

Linux only, standard library only; nothing runs at import.
"""

import atexit
import errno
import os
import re
import signal
import threading
import time
import warnings

MOUNTS = "/proc/self/mounts"
OWN = "/proc/self/cgroup"
PREFIX = "arh-worker-"
NAME = re.compile(r"^%s(\d+)-\d+$" % PREFIX)
POLL = 0.001                    # seconds between two looks at cgroup.events
DEADLINE = 5.0                  # seconds freeze and destroy wait, by default
REFUSED = 126                   # the exit status of a child that cannot enter its Group

_lock = threading.Lock()
_state = {"count": 0}           # "usable": (parent folder or None, words); "count"
_live = set()                   # the Groups created and not destroyed


def mount():
    """Where cgroup2 is mounted, or None."""
    try:
        with open(MOUNTS, encoding="utf-8") as f:
            for line in f:
                fields = line.split()
                if len(fields) > 2 and fields[2] == "cgroup2":
                    return fields[1].replace("\\040", " ")
    except OSError:
        pass
    return None


def own():
    """This process's cgroup v2 path ("/" at the root), or None."""
    try:
        with open(OWN, encoding="utf-8") as f:
            for line in f:
                if line.startswith("0::"):
                    return line[3:].strip() or "/"
    except OSError:
        pass
    return None


def usable():
    """(folder, words): the folder beneath which Groups are made, None
    when this process cannot make one that freezes; the words say which
    or why not. Tried once."""
    with _lock:
        if "usable" not in _state:
            _state["usable"] = _probe()
        return _state["usable"]


def _probe():
    root, path = mount(), own()
    if root is None or path is None:
        return None, "no cgroup v2 (SIGSTOP freezes)"
    parent = os.path.normpath(os.path.join(root, path.lstrip("/")))
    probe = os.path.join(parent, "arh-probe-%d" % os.getpid())
    try:
        os.mkdir(probe)
    except OSError as e:
        return None, "no cgroup v2 of our own (%s: %s; SIGSTOP freezes)" % (parent, e.strerror)
    try:
        _write(os.path.join(probe, "cgroup.freeze"), "0")
        if not os.path.exists(os.path.join(probe, "cgroup.events")):
            raise OSError(errno.ENOENT, "no cgroup.events")
    except OSError as e:
        return None, "no cgroup v2 freezer (Linux >= 5.2: %s; SIGSTOP freezes)" % e.strerror
    else:
        status = _try_join(os.path.join(probe, "cgroup.procs"))
        if status:
            return None, "no cgroup v2 a child can enter (%s; SIGSTOP freezes)" % (
                os.strerror(status) if status < REFUSED else "status %d" % status)
    finally:
        try:
            os.rmdir(probe)
        except OSError:
            pass
    return parent, "cgroup v2 freezer"


def _try_join(procs):
    """Whether a forked child can enter the cgroup of `procs` and exit:
    0, else the errno (or exit status) it failed with. A folder may be
    made where no process may enter it (a threaded or a foreign
    subtree): every worker would then die before it runs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)    # fork with threads
        pid = os.fork()
    if pid == 0:                # the child only writes, then _exits
        try:
            _write(procs, "0")
            os._exit(0)
        except OSError as e:
            os._exit(e.errno if 0 < e.errno < REFUSED else REFUSED)
        finally:
            os._exit(REFUSED)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _write(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode("ascii"))
    finally:
        os.close(fd)


def _read(path):
    with open(path, encoding="ascii") as f:
        return f.read()


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep(parent):
    """Destroy the Groups beneath `parent` left by a grader that is gone
    (its pid, in their name, names no process); the names removed."""
    removed = []
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    for name in names:
        found = NAME.match(name)
        if found and int(found.group(1)) != os.getpid() and not _alive(int(found.group(1))):
            if Group(os.path.join(parent, name)).destroy():
                removed.append(name)
    return removed


def destroy_all():
    """Destroy every Group this process created and has not destroyed."""
    with _lock:
        left = list(_live)
    for group in left:
        group.destroy()


class Group:
    """One worker's cgroup, the folder `path`."""

    def __init__(self, path):
        self.path = path
        self.procs = os.path.join(path, "cgroup.procs")

    @classmethod
    def create(cls):
        """A new Group beneath usable()'s folder; None where there is none
        or it cannot be made."""
        parent, _ = usable()
        if parent is None:
            return None
        with _lock:
            first = _state["count"] == 0
            _state["count"] += 1
            name = "%s%d-%d" % (PREFIX, os.getpid(), _state["count"])
        if first:
            sweep(parent)
            atexit.register(destroy_all)
        group = cls(os.path.join(parent, name))
        try:
            os.mkdir(group.path)
        except OSError:
            return None
        with _lock:
            _live.add(group)
        return group

    def join(self):
        """In the child, between fork and exec: enter this Group (the
        calling process, "0"). A refusal ends the child (status REFUSED):
        never a worker that could thaw itself."""
        try:
            _write(self.procs, "0")
        except OSError:
            os._exit(REFUSED)

    def open_procs(self):
        """cgroup.procs opened for writing (close-on-exec), for a child to
        inherit and write "0" to (pidinit.py's --cgroup-fd); None when
        it cannot be opened."""
        try:
            return os.open(self.procs, os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            return None

    def frozen(self):
        """Whether cgroup.events says the whole Group is frozen."""
        try:
            return "frozen 1" in _read(os.path.join(self.path, "cgroup.events")).splitlines()
        except OSError:
            return False

    def freeze(self, *, deadline=DEADLINE):
        """Freeze every process of the Group; True once the kernel says
        they all are, False when `deadline` seconds pass first or the
        Group is gone."""
        try:
            _write(os.path.join(self.path, "cgroup.freeze"), "1")
        except OSError:
            return False
        ended = time.monotonic() + deadline
        while not self.frozen():
            if time.monotonic() > ended:
                return False
            time.sleep(POLL)
        return True

    def thaw(self):
        """Let the Group's processes run again."""
        try:
            _write(os.path.join(self.path, "cgroup.freeze"), "0")
        except OSError:
            pass

    def pids(self):
        """The pids in the Group now."""
        try:
            return [int(word) for word in _read(self.procs).split()]
        except (OSError, ValueError):
            return []

    def usage_usec(self):
        """The CPU time, in microseconds, every process that was ever in
        the Group has used (cpu.stat's usage_usec), or None. A frozen
        Group's still moves a little: each signal sent to a frozen task
        wakes it in the kernel, which puts it straight back in the freezer
        without running a line of its code."""
        try:
            for line in _read(os.path.join(self.path, "cpu.stat")).splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value)
        except (OSError, ValueError):
            pass
        return None

    def destroy(self, *, deadline=DEADLINE):
        """Kill every process of the Group and remove it once empty: True
        when it is gone (or never was), False past `deadline` seconds."""
        ended = time.monotonic() + deadline
        while True:
            try:
                _write(os.path.join(self.path, "cgroup.kill"), "1")
            except FileNotFoundError:
                if not os.path.isdir(self.path):
                    break
                for pid in self.pids():         # before Linux 5.14
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            except OSError:
                pass
            try:
                os.rmdir(self.path)
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > ended:
                    return False
                time.sleep(POLL * 10)
        with _lock:
            _live.discard(self)
        return True

    def __repr__(self):
        return "Group(%r)" % self.path
