"""Walls around a worker started on this machine, from Linux's Landlock: the
tester it runs reads only what Python and the worker need, writes only in
its own folder, connects only to the oracle's port, and cannot signal,
trace or read the memory of any process outside its own worker.

    walls = sandbox.Walls(readable=["harness/worker.py", "src/tester.py"],
                          writable=[home], connect=[oracle_port])
    subprocess.Popen(command, preexec_fn=walls.enter, pass_fds=walls.fds)
    walls.close()                      # in this process, once the child runs
    walls.describe()                   # "landlock abi 7: files, ...; seccomp: tcp sockets only, ..."
    walls.missing()                    # [] here; ["landlock", ...] on a poorer kernel

Without them a local tester could read the set's defectives or a
comparison's seed off the disk, rewrite the grader or the other tester's
file, kill the other tester's worker, or read the grader's memory through
/proc. In a container the platform's walls do the same (compose.yaml).

Landlock needs no privilege and no package: three system calls, made here
through ctypes. A ruleset is built in this process; the child, between its
fork and its exec, sets no_new_privs and restricts itself to it (two calls,
nothing else). What the kernel offers decides what is walled (Landlock's
ABI: files from Linux 5.13, TCP ports from 6.7, signals and abstract Unix
sockets from 6.12); `describe` says what is. On a kernel without Landlock,
or off Linux, Walls does nothing and says "none". UDP, Unix sockets on
paths, raw, packet and netlink sockets are not Landlock's to wall: a
seccomp filter (seccomp.py) refuses every socket but TCP, and the calls
that would set another process's limits or scheduling; the child installs
it after Landlock's walls. Where the machine has no seccomp filter that
wall is absent, and `describe` says so.

`missing` names, in EVERY_WALL's words, each wall a worker was promised
and the kernel refused: a local run prints them and its result.json
keeps them ("walls_missing"), and a comparison keeps nothing without
them (compare/log.py), since a tester outside a wall may have read or
changed what the wall keeps from it.
"""

import ctypes
import os
import signal
import struct
import sys
import sysconfig
import tempfile

from . import pidns, seccomp

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446   # x86-64 and arm64
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH, RULE_NET_PORT = 1, 2
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1         # prctl: the signal a process gets when its parent dies

# file rights, each with the ABI that brought it
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV   # the rights a file takes
READ_RIGHTS = EXECUTE | READ_FILE | READ_DIR
BIND_TCP, CONNECT_TCP = 1 << 0, 1 << 1                     # ABI 4
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1 << 0, 1 << 1         # ABI 6

# what Python itself reads beside its standard library: the shared libraries,
# the loader's cache, the time zones (never all of /usr, where a checkout may lie)
SYSTEM_READABLE = ("/lib", "/lib64", "/lib32", "/usr/lib", "/usr/lib64", "/usr/lib32",
                   "/usr/local/lib", "/etc/ld.so.cache", "/etc/localtime",
                   "/usr/share/zoneinfo")
DEVICES = ("/dev/null", "/dev/urandom", "/dev/random", "/dev/zero")


# the walls, as `missing` names them: Landlock whole (none on this kernel)
# or the part its ABI lacks, the seccomp filter, the PID namespace
LANDLOCK, SECCOMP, PID_NAMESPACE = "landlock", "seccomp", "pid namespace"
LANDLOCK_PORTS = "landlock tcp ports"                               # ABI 4
LANDLOCK_SCOPES = "landlock signals and abstract sockets"           # ABI 6
EVERY_WALL = (LANDLOCK, SECCOMP, PID_NAMESPACE)


def landlock_missing(version):
    """What Landlock ABI `version` lacks of the walls, in words: [LANDLOCK]
    for none at all, else the parts later ABIs brought."""
    if version < 1:
        return [LANDLOCK]
    return ([LANDLOCK_PORTS] if version < 4 else []) + \
        ([LANDLOCK_SCOPES] if version < 6 else [])


def missing(*, syscalls=True, namespace=True):
    """The walls this kernel would refuse a worker asking for them (as
    Walls(syscalls=, namespace=) would), without building any: a list in
    EVERY_WALL's order, empty when every one holds. The namespace's answer
    is pidns.mode's, tried once per process."""
    lost = landlock_missing(abi())
    if syscalls and (_libc() is None or not seccomp.Filter().available):
        lost.append(SECCOMP)
    if namespace and not pidns.mode()[0]:
        lost.append(PID_NAMESPACE)
    return lost


SDK_HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # grader/


def tester_reads(tester, *, private=()):
    """What a worker may read of its tester: the tester's folder (as in the
    container, which holds src/ whole), unless that folder is shared with
    the judge: the repository's, the system's temporary folder, or one that
    holds a `private` path (a comparison's state file, its log, a result
    folder). Then the tester file alone."""
    tester = os.path.realpath(tester)
    folder = os.path.dirname(tester)
    shared = [os.path.dirname(SDK_HOME), SDK_HOME, os.path.realpath(
        tempfile.gettempdir()), os.path.realpath(os.path.expanduser("~")), "/"]
    inside = [os.path.realpath(path) for path in private if path]
    if folder in shared or any(path == folder or path.startswith(folder + os.sep)
                               for path in inside):
        return [tester]
    return [folder]


class SandboxError(OSError):
    """The kernel refused a rule it claims to support."""


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def abi():
    """The kernel's Landlock ABI version, 0 when it has none."""
    libc = _libc()
    if libc is None:
        return 0
    version = libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                           ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(version, 0)


def python_reads():
    """The paths this Python needs to run: its executable, its standard
    library and its prefix's lib/ (libpython)."""
    paths = sysconfig.get_paths()
    return [os.path.realpath(sys.executable), paths["stdlib"], paths["platstdlib"],
            os.path.join(sys.base_prefix, "lib")]


def _fs_rights(version):
    return FS_BY_ABI[max(k for k in FS_BY_ABI if k <= version)]


class Walls:
    """A Landlock ruleset for one worker: `readable` paths (files or folders,
    with what they hold), `writable` folders (anything inside them), and
    the TCP ports it may `connect` to; `bind` says whether it may listen on
    a port the kernel picks (a worker started on port 0 must). `syscalls`
    adds the seccomp filter (seccomp.Filter: TCP sockets only, no reach
    into another process's limits or scheduling) where the machine has it.
    With `namespace`, the worker is pid 1 of a PID namespace of its own and
    has no capability (pidns.py): run `command(args)`, not `args`."""

    def __init__(self, *, readable=(), writable=(), connect=(), bind=True, syscalls=True,
                 namespace=False):
        self.version = abi()
        self.fd = None
        self._libc = _libc()
        self.syscalls = seccomp.Filter() if syscalls and self._libc is not None else None
        self.asked_syscalls = syscalls
        self.namespace = pidns.Namespace() if namespace else None
        readable = [*readable, *self.namespace.reads()] if namespace else readable
        if self.version < 1:
            return
        fs = _fs_rights(self.version)
        net = BIND_TCP | CONNECT_TCP if self.version >= 4 else 0
        scoped = SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL if self.version >= 6 else 0
        attr = struct.pack("=QQQ", fs, net, scoped)
        size = 24 if self.version >= 6 else 16
        buffer = ctypes.create_string_buffer(attr[:size], size)
        fd = self._libc.syscall(SYS_CREATE_RULESET, buffer, ctypes.c_size_t(size),
                                ctypes.c_uint32(0))
        if fd < 0:
            raise SandboxError(ctypes.get_errno(), "landlock_create_ruleset failed")
        self.fd = fd
        self.scoped = scoped
        self.net = net
        try:
            for path in sorted(set(SYSTEM_READABLE) | set(python_reads()) | set(readable)):
                self._path(path, READ_RIGHTS & fs)
            for path in DEVICES:
                self._path(path, (READ_FILE | WRITE_FILE) & fs)
            for path in writable:
                self._path(path, fs, must=True)
            if net:
                for port in sorted(set(connect)):
                    self._port(port, CONNECT_TCP)
                if bind:
                    self._port(0, BIND_TCP)
        except BaseException:
            self.close()
            raise

    def _path(self, path, rights, *, must=False):
        """Allow `rights` beneath `path` (a file gets only a file's rights)."""
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            if must:
                raise
            return              # a system path this machine does not have
        try:
            if not os.path.isdir(path):
                rights &= FILE_RIGHTS
            rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
            if self._libc.syscall(SYS_ADD_RULE, self.fd, RULE_PATH_BENEATH, rule,
                                  ctypes.c_uint32(0)) < 0:
                raise SandboxError(ctypes.get_errno(), "landlock_add_rule refused %r" % path)
        finally:
            os.close(fd)

    def _port(self, port, rights):
        rule = ctypes.create_string_buffer(struct.pack("=QQ", rights, port), 16)
        if self._libc.syscall(SYS_ADD_RULE, self.fd, RULE_NET_PORT, rule,
                              ctypes.c_uint32(0)) < 0:
            raise SandboxError(ctypes.get_errno(), "landlock_add_rule refused port %d" % port)

    @property
    def fds(self):
        """The file descriptors the child must keep until it enters."""
        return () if self.fd is None else (self.fd,)

    def enter(self):
        """In the child, between fork and exec: take the walls for good.
        A few system calls and nothing else (it runs in a forked child):
        the death signal, no_new_privs, Landlock's restrict_self, and the
        seccomp filter (seccomp.Filter.install: prctl, then seccomp(2)).

        The first asks the kernel to send the worker SIGCONT when this
        process dies (PR_SET_PDEATHSIG): a comparison freezes a worker
        (SIGSTOP) while the other plays, a stopped process runs no thread,
        and the woken worker's parent watch then ends its group. SIGCONT
        does nothing to a process that runs."""
        if self._libc is not None:
            self._libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGCONT), 0, 0, 0)
        self._enter_namespace()
        if self.fd is not None:
            if self._libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
                    self._libc.syscall(SYS_RESTRICT_SELF, self.fd, ctypes.c_uint32(0)) != 0:
                os._exit(126)   # never run the tester without the walls it was promised
            os.close(self.fd)
        if self.syscalls is not None and self.syscalls.available and \
                not self.syscalls.install():
            os._exit(126)

    def _enter_namespace(self):
        """With `namespace`: unshare and drop every capability (pidns.py),
        before the Landlock walls (the namespace needs a capability)."""
        if self.namespace is not None:
            self.namespace.enter()

    def command(self, args, *, cgroup_fd=None):
        """The command line that runs `args` inside these walls: with
        `namespace`, behind pidns.py's init, which makes `args` pid 1 (and
        puts it in the cgroup whose cgroup.procs is `cgroup_fd`)."""
        if self.namespace is None:
            return list(args)
        return self.namespace.command(args, cgroup_fd=cgroup_fd)

    @property
    def namespaced(self):
        """Whether the worker gets a PID namespace of its own."""
        return self.namespace is not None and self.namespace.active

    def close(self):
        """Close the ruleset in this process (the child holds its own)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def missing(self):
        """The walls these lack, as the module's `missing` names them: the
        Landlock this kernel lacks, the seccomp filter when asked for and
        not available, the namespace when asked for and refused."""
        lost = landlock_missing(self.version)
        if self.asked_syscalls and (self.syscalls is None or not self.syscalls.available):
            lost.append(SECCOMP)
        if self.namespace is not None and not self.namespace.active:
            lost.append(PID_NAMESPACE)
        return lost

    def describe(self):
        """What is walled, in words: "landlock abi 7: files, tcp ports,
        ...; seccomp: tcp sockets only, ...", then with `namespace` "; pid
        namespace, no capabilities"; each part "none (why)" where this
        machine lacks it."""
        if self.version < 1:
            landlock = "landlock: none (this kernel has no Landlock)"
        else:
            parts = ["files"]
            if self.version >= 4:
                parts.append("tcp ports")
            if self.version >= 6:
                parts.append("signals and abstract sockets")
            landlock = "landlock abi %d: %s" % (self.version, ", ".join(parts))
        if self._libc is None:
            return "none (not Linux)"
        filtered = "none (not asked for)" if self.syscalls is None else self.syscalls.describe()
        extra = "" if self.namespace is None else "; " + self.namespace.describe()
        return "%s; seccomp: %s%s" % (landlock, filtered, extra)
