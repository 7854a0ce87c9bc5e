"""A seccomp filter for a worker started on this machine: the sockets it may
open narrowed to what the contract needs, TCP, and no reach into another
process's limits or scheduling. sandbox.Walls installs it in the worker's
child, between fork and exec, beside Landlock; it holds for the worker and
everything the worker starts.

    syscalls = seccomp.Filter()        # built here: a short BPF program
    syscalls.available                 # False: no filter on this machine
    syscalls.install()                 # in the child: True once it holds
    syscalls.describe()                # "tcp sockets only, ..."

Why. Landlock (sandbox.py) walls the files, the TCP ports, signals and
abstract Unix sockets, but not UDP, not a Unix socket on a path (a
listener under /tmp is reached even in a folder the worker cannot read),
not raw, packet or netlink sockets: as root, an AF_PACKET socket reads
every loopback exchange, the other contender's oracle traffic included.
The worker needs TCP alone: to the oracle, and its own listening port
(Landlock already names those ports).

Which calls, which arguments. A classic BPF program sees each system call's
number, its ABI (seccomp_data.arch) and its six arguments (only the low
32 bits of each are read: the kernel reads an int argument so too):
  - socket(domain, type, protocol): allowed only for AF_INET or AF_INET6,
    SOCK_STREAM (type with SOCK_NONBLOCK and SOCK_CLOEXEC masked off),
    protocol 0 or IPPROTO_TCP (not SCTP or MPTCP, which Landlock's TCP
    ports would not cover). Everything else, AF_UNIX, UDP (SOCK_DGRAM),
    SOCK_RAW, AF_PACKET, AF_NETLINK, AF_VSOCK..., fails with EPERM
    (SECCOMP_RET_ERRNO, not a kill): Python raises PermissionError, which
    the tester sees as it sees Landlock's walls.
  - socketpair(domain, type, protocol): allowed only for AF_UNIX with
    SOCK_STREAM (an AF_INET pair does not exist). Such a pair has no name
    and reaches no one: connect(2) on it fails (EISCONN), a stream send
    takes no address; asyncio's event loop and multiprocessing.Pipe make
    one. A datagram pair could connect(2) again, to a path: refused.
  - io_uring_setup, io_uring_enter, io_uring_register: refused (EPERM).
    A ring opens and connects sockets itself (IORING_OP_SOCKET), past a
    filter on socket(2). Python never uses one.
  - prlimit64, sched_setparam, sched_setscheduler, sched_setaffinity,
    sched_setattr (first argument a pid), setpriority and ioprio_set
    (which, who): allowed only on the caller itself, pid 0 (who 0 with
    PRIO_PROCESS or IOPRIO_WHO_PROCESS). The kernel lets a process of the
    same user, and root any process, set these on another: the grader's
    or the other contender's CPU limit, nice value, CPU or I/O priority,
    out of the tester's reach through none of Landlock's walls. A PID
    namespace makes other processes unnameable; this is the second wall,
    and a cheap one. Its price: the same call naming the caller's own pid
    or a thread's id is refused too (os.sched_setaffinity(os.getpid(), s)
    fails, (0, s) works); Python and glibc name themselves by 0 (setrlimit
    is prlimit64(0, ...), nice is setpriority(PRIO_PROCESS, 0, ...)) and
    only read another thread's settings (sched_getaffinity), which stays
    allowed. `other_processes=False` leaves these calls alone.
  - the ABI: a call of any other ABI than the native one (x86-64 or
    arm64) kills the process: a 32-bit call (int 0x80 on x86-64, whose
    socketcall(2) would pass any socket by another number) or an x32 one
    (numbers from 0x40000000 on, the same socket(2) with a bit set).
Every other call is allowed, and the kernel learns so from the numbers
alone (its per-call cache): the filter costs only the calls it names.

Why a filter on socket(2) rather than a network namespace: a worker in a
namespace of its own has a loopback of its own, and the grader's oracle
listens on the host's loopback. The worker would reach nothing, the
oracle included, without a bridge the grader would have to build and run.

Needs Linux on x86-64 or arm64 with seccomp filters (3.5) and the
KILL_PROCESS action (4.14); elsewhere `available` is False and nothing is
installed. Standard library only (ctypes); nothing runs at import.
"""

import ctypes
import errno
import os
import sys

PR_SET_NO_NEW_PRIVS = 38
SYS_SECCOMP = {"x86_64": 317, "aarch64": 277}
SECCOMP_SET_MODE_FILTER, SECCOMP_GET_ACTION_AVAIL = 1, 2
SECCOMP_FILTER_FLAG_SPEC_ALLOW = 1 << 2       # Linux 4.17: no speculation mitigation forced
RET_KILL_PROCESS, RET_ERRNO, RET_ALLOW = 0x80000000, 0x00050000, 0x7FFF0000
X32_SYSCALL_BIT = 0x40000000

# classic BPF: load a word of seccomp_data, jump on a constant, and, return
LD_ABS, JEQ, JGE, AND, RET = 0x20, 0x15, 0x35, 0x54, 0x06
NR_AT, ARCH_AT, ARGS_AT = 0, 4, 16            # offsets in struct seccomp_data

AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
SOCK_STREAM = 1
TYPE_FLAGS = 0o4000 | 0o2000000               # SOCK_NONBLOCK | SOCK_CLOEXEC
IPPROTO_TCP = 6
PRIO_PROCESS, IOPRIO_WHO_PROCESS = 0, 1

# Each machine's ABI (seccomp_data.arch) and its numbers for the calls named.
MACHINES = {
    "x86_64": dict(arch=0xC000003E, x32=True, socket=41, socketpair=53,
                   io_uring_setup=425, io_uring_enter=426, io_uring_register=427,
                   prlimit64=302, sched_setparam=142, sched_setscheduler=144,
                   sched_setaffinity=203, sched_setattr=314, setpriority=141,
                   ioprio_set=251),
    "aarch64": dict(arch=0xC00000B7, x32=False, socket=198, socketpair=199,
                    io_uring_setup=425, io_uring_enter=426, io_uring_register=427,
                    prlimit64=261, sched_setparam=118, sched_setscheduler=119,
                    sched_setaffinity=122, sched_setattr=274, setpriority=140,
                    ioprio_set=30),
}

# The calls narrowed: name -> the conditions that allow it, each (argument,
# mask or None, allowed values); () refuses it whatever its arguments.
SOCKETS = (
    ("socket", ((0, None, (AF_INET, AF_INET6)), (1, ~TYPE_FLAGS & 0xFFFFFFFF, (SOCK_STREAM,)),
                (2, None, (0, IPPROTO_TCP)))),
    ("socketpair", ((0, None, (AF_UNIX,)), (1, ~TYPE_FLAGS & 0xFFFFFFFF, (SOCK_STREAM,)),
                    (2, None, (0,)))),
    ("io_uring_setup", ()), ("io_uring_enter", ()), ("io_uring_register", ()),
)
ITSELF = ((0, None, (0,)),)                   # the first argument, a pid, is 0
OTHER_PROCESSES = (
    ("prlimit64", ITSELF), ("sched_setparam", ITSELF), ("sched_setscheduler", ITSELF),
    ("sched_setaffinity", ITSELF), ("sched_setattr", ITSELF),
    ("setpriority", ((0, None, (PRIO_PROCESS,)), (1, None, (0,)))),
    ("ioprio_set", ((0, None, (IOPRIO_WHO_PROCESS,)), (1, None, (0,)))),
)


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


def machine():
    """This machine's name in MACHINES, or None when it has no filter here."""
    if not sys.platform.startswith("linux"):
        return None
    name = {"arm64": "aarch64", "amd64": "x86_64"}.get(os.uname().machine, os.uname().machine)
    return name if name in MACHINES else None


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def actions_available(libc, name):
    """Whether this kernel filters and takes the actions the program returns."""
    for action in (RET_KILL_PROCESS, RET_ERRNO, RET_ALLOW):
        value = ctypes.c_uint32(action)
        if libc.syscall(SYS_SECCOMP[name], SECCOMP_GET_ACTION_AVAIL, 0,
                        ctypes.byref(value)) != 0:
            return False
    return True


def program(name, *, sockets=True, other_processes=True):
    """The filter for machine `name`, as a list of (code, jt, jf, k)."""
    numbers = MACHINES[name]
    rules = (SOCKETS if sockets else ()) + (OTHER_PROCESSES if other_processes else ())
    code = [(LD_ABS, 0, 0, ARCH_AT), (JEQ, 1, 0, numbers["arch"]), (RET, 0, 0, RET_KILL_PROCESS),
            (LD_ABS, 0, 0, NR_AT)]
    if numbers["x32"]:
        code += [(JGE, 0, 1, X32_SYSCALL_BIT), (RET, 0, 0, RET_KILL_PROCESS)]
    code += [(JEQ, "rule %s" % call, 0, numbers[call]) for call, _ in rules]
    code.append((RET, 0, 0, RET_ALLOW))                     # every call not named
    for call, conditions in rules:
        code.append("rule %s" % call)
        if not conditions:
            code.append((JEQ, "deny", "deny", 0))          # an unconditional jump
        for i, (arg, mask, values) in enumerate(conditions):
            following = "rule %s %d" % (call, i + 1) if i + 1 < len(conditions) else "allow"
            code.append((LD_ABS, 0, 0, ARGS_AT + 8 * arg))   # the low word: little-endian
            if mask is not None:
                code.append((AND, 0, 0, mask))
            for j, value in enumerate(values):
                code.append((JEQ, following, 0 if j + 1 < len(values) else "deny", value))
            if i + 1 < len(conditions):
                code.append(following)
    code += ["allow", (RET, 0, 0, RET_ALLOW), "deny", (RET, 0, 0, RET_ERRNO | errno.EPERM)]
    return _resolve(code)              # classic BPF jumps only forward: the returns last


def _resolve(code):
    """Labels (strings in `code`) turned into the jumps' relative offsets."""
    where, at = {}, 0
    for item in code:
        if isinstance(item, str):
            where[item] = at
        else:
            at += 1
    out = []
    for item in code:
        if isinstance(item, str):
            continue
        op, jt, jf, k = item
        here = len(out) + 1
        jt, jf = (where[j] - here if isinstance(j, str) else j for j in (jt, jf))
        if not (0 <= jt <= 255 and 0 <= jf <= 255):     # forward, within a byte
            raise ValueError("a jump of the filter is out of reach")
        out.append((op, jt, jf, k))
    return out


class Filter:
    """The seccomp filter for one worker, built in this process so that the
    child only installs it (no_new_privs and seccomp(2), nothing else, after its fork).
    `sockets` narrows socket(2) and its kin, `other_processes` the calls on
    another process's limits and scheduling; each can be turned off."""

    def __init__(self, *, sockets=True, other_processes=True):
        self.machine = machine()
        self.sockets, self.other_processes = sockets, other_processes
        self._libc = _libc() if self.machine else None
        self.available = bool(self._libc is not None and (sockets or other_processes)
                              and actions_available(self._libc, self.machine))
        self.instructions = program(self.machine, sockets=sockets,
                                    other_processes=other_processes) if self.available else []
        self._array = (SockFilter * len(self.instructions))(*self.instructions)
        self._prog = SockFprog(len(self.instructions), self._array)

    def install(self):
        """In the child: set no_new_privs (a filter needs it without
        CAP_SYS_ADMIN) and take the filter for good. True once it holds;
        False when it is not available or the kernel refused it.

        SPEC_ALLOW: a kernel before 5.16 (spec_store_bypass_disable=seccomp,
        its default then) would otherwise turn on the speculative store
        bypass mitigation for a filtered process, slowing the tester's own
        code; the filter is no sandbox within the process, so it needs none.
        A kernel without the flag (before 4.17) takes the filter without it."""
        if not self.available or self._libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        call, prog = SYS_SECCOMP[self.machine], ctypes.byref(self._prog)
        return any(self._libc.syscall(call, SECCOMP_SET_MODE_FILTER, flags, prog) == 0
                   for flags in (SECCOMP_FILTER_FLAG_SPEC_ALLOW, 0))

    def describe(self):
        """What is filtered, in words."""
        if not self.available:
            return "none (no seccomp filter on this machine)"
        parts = []
        if self.sockets:
            parts.append("tcp sockets only")
        if self.other_processes:
            parts.append("limits and scheduling of itself only")
        return ", ".join(parts)
