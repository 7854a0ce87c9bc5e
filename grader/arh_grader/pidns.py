"""A PID namespace of its own for each worker, and no capability in it: the
judge, the other contender and every other process on the machine then
have no pid the tester can name.

    space = pidns.Namespace()          # decides here, once, what the kernel allows
    subprocess.Popen(space.command(["python3", "worker.py"]),
                     preexec_fn=space.enter)   # in the child: unshare, drop capabilities
    space.describe()                   # "pid namespace, no capabilities"

Why. Landlock (sandbox.py) scopes signals and ptrace, but not the calls that
act on a process named by its pid under the same uid: prlimit(2) on the
judge (RLIMIT_FSIZE 0: no result.json; RLIMIT_CPU: it dies), or on a frozen
incumbent (RLIMIT_NOFILE: it times out), setpriority, sched_setaffinity,
sched_setscheduler. Inside a namespace of its own the worker is pid 1 and
its parent is pid 0: every pid outside is ESRCH, whatever the tester tries.
A gain besides: when pid 1 dies the kernel kills every process of its
namespace, so nothing a tester starts outlives its worker.

How. unshare(CLONE_NEWPID) puts only the caller's children in the new
namespace, so something must fork after it. The child of Popen, between
fork and exec (`enter`, its preexec_fn), unshares and drops every
capability, then execs pidinit.py, a pure-Python init of a few lines that
forks the worker, pid 1 of the namespace, and waits for it, passing its
exit status on. Pure ctypes rather than util-linux's `unshare --pid --fork
--kill-child`: `unshare` needs CAP_SYS_ADMIN as it runs, so the
capabilities could only be dropped after it, by one more program
(`setpriv`), and an unprivileged grader needs --map-current-user, which
util-linux only has since 2.38; the init also watches this process (the
worker dies with it) the way harness/arh_worker.py's watch did before.
Where this process is root, CLONE_NEWPID alone; where it is not, a user
namespace too (CLONE_NEWUSER|CLONE_NEWPID), mapping its own uid and gid
and nothing else, so the worker's files and uid are the grader's. What the
kernel allows is tried once per process (`mode`, a forked child that
unshares and exits); where it refuses both, the worker starts without the
namespace and `describe` names the missing wall.

The capabilities, all sets empty, after the namespace is made (the one
step that needs one): the ambient set cleared (PR_CAP_AMBIENT_CLEAR_ALL),
each bounding capability up to /proc/sys/kernel/cap_last_cap dropped
(PR_CAPBSET_DROP), then effective, permitted and inheritable set to
nothing (capset). An exec cannot give them back: root's exec draws its
permitted set from the bounding set, now empty, and no_new_privs (set by
sandbox.Walls) forbids set-user-ID and file capabilities. The uid stays
the grader's: a distinct unprivileged uid could not even exec Python where
it lives under a 0700 home (pyenv under /root) or read a tester kept in a
0700 temporary folder; the namespace alone makes the judge unnameable.

Linux only; nothing runs at import. Elsewhere, `mode` is None and the
worker starts as it did.
"""

import ctypes
import errno
import os
import sys
import warnings

CLONE_NEWUSER, CLONE_NEWPID = 0x10000000, 0x20000000
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CAPABILITY_VERSION_3 = 0x20080522       # capset's header: version 3, two 32-bit words a set
CAP_LAST_CAP = "/proc/sys/kernel/cap_last_cap"
CAP_LAST_FALLBACK = 63                  # drop up to here when the file cannot be read
INIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pidinit.py")
INIT_FLAGS = ("-I", "-S", "-B")         # the init's Python: standard library only, no .pyc
LAUNCH = ("import sys; path = %r; space = {}\n"     # runs pidinit.py's main(sys.argv)
          "exec(compile(open(path).read(), path, 'exec'), space)\n"
          "sys.exit(space['main'](sys.argv))" % INIT)
REFUSED = 126                           # the exit status of a child that cannot take the walls

_state = {}                             # "mode": (flags, words), once tried


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def mode():
    """(flags, words): the unshare flags this process's workers get, tried
    once by a forked child (0 when the kernel refuses both), and what that
    means in words for `describe`."""
    if "mode" not in _state:
        _state["mode"] = _try_modes()
    return _state["mode"]


def _try_modes():
    libc = _libc()
    if libc is None:
        return 0, "no pid namespace (not Linux)"
    refusals = []
    for flags in (CLONE_NEWPID, CLONE_NEWUSER | CLONE_NEWPID):
        status = _try(libc, flags)
        if status == 0:
            return flags, "pid namespace%s, no capabilities" % (
                " in a user namespace" if flags & CLONE_NEWUSER else "")
        refusals.append(os.strerror(status) if 0 < status < 126 else "status %d" % status)
    return 0, "no pid namespace (the kernel refused: %s)" % "; ".join(refusals)


def _try(libc, flags):
    """Whether a child of this process can unshare `flags` and map its ids:
    0, else the errno (or exit status) it failed with."""
    ids = os.getuid(), os.getgid()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)    # fork with threads: see below
        pid = os.fork()
    if pid == 0:                # the child only makes system calls, then _exits
        try:
            os._exit(_unshare(libc, flags, ids))
        finally:
            os._exit(REFUSED)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _unshare(libc, flags, ids):
    """unshare(`flags`) and, with a user namespace, map `ids` (uid, gid) to
    themselves; 0, or the errno of the first refusal."""
    if libc.unshare(flags) != 0:
        return ctypes.get_errno() or errno.EPERM
    if flags & CLONE_NEWUSER:
        uid, gid = ids
        for name, text in (("setgroups", "deny"), ("uid_map", "%d %d 1" % (uid, uid)),
                           ("gid_map", "%d %d 1" % (gid, gid))):
            try:
                fd = os.open("/proc/self/" + name, os.O_WRONLY)
                try:
                    os.write(fd, text.encode())
                finally:
                    os.close(fd)
            except OSError as e:
                return e.errno or errno.EPERM
    return 0


def last_cap():
    """The highest capability number this kernel knows."""
    try:
        with open(CAP_LAST_CAP, encoding="ascii") as f:
            return int(f.read())
    except (OSError, ValueError):
        return CAP_LAST_FALLBACK


def drop_capabilities(libc, *, last):
    """Empty every capability set of this process: ambient, bounding (0 to
    `last`), then inheritable, permitted and effective. True when all
    took; the bounding set cannot be dropped without CAP_SETPCAP (an
    unprivileged process outside a user namespace), which gives nothing
    to a process with no_new_privs and an empty permitted set."""
    done = libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0
    for cap in range(last + 1):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != errno.EINVAL:
            done = False
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()      # two of (effective, permitted, inheritable), all 0
    return libc.capset(header, data) == 0 and done


class Namespace:
    """The PID namespace and the empty capabilities of one worker: `enter`
    in the child (preexec_fn), `command` for its command line."""

    def __init__(self):
        self.flags, self.words = mode()
        self.parent = os.getpid()
        self.ids = os.getuid(), os.getgid()
        self.last = last_cap()
        self._libc = _libc()

    @property
    def active(self):
        """Whether the worker gets a namespace of its own."""
        return bool(self.flags)

    def command(self, args, *, cgroup_fd=None):
        """The command that runs `args` as pid 1 of the namespace: pidinit.py
        before it; `args` as they are without a namespace. With `cgroup_fd`
        (an fd of a cgroup.procs the child inherits), the init puts the
        worker in that cgroup and stays out of it (pidinit.py)."""
        if not self.active:
            return list(args)
        extra = [] if cgroup_fd is None else ["--cgroup-fd=%d" % cgroup_fd]
        return [sys.executable, *INIT_FLAGS, "-c", LAUNCH, str(self.parent), *extra, *args]

    def reads(self):
        """What the walls must let the worker read: the init's file."""
        return [INIT] if self.active else []

    def enter(self):
        """In the child, between fork and exec: unshare, then drop every
        capability. A namespace `mode` promised but refused now ends the
        child (status REFUSED): never a tester without its walls."""
        if self._libc is None:
            return
        if self.active and _unshare(self._libc, self.flags, self.ids) != 0:
            os._exit(REFUSED)
        if not drop_capabilities(self._libc, last=self.last) and self.active:
            os._exit(REFUSED)

    def describe(self):
        """The wall in words: "pid namespace, no capabilities", or the one
        missing and why."""
        return self.words
