"""The walls around a worker started on this machine (arh_grader/sandbox.py),
each tried by a real child process: what it may do, and what it may not.
Skipped, naming the reason, on a kernel without the Landlock ABI a wall
needs (files 1, TCP ports 4, signals 6), or, for the sockets and the calls
on other processes, on a machine without seccomp filters (seccomp.py)."""

import json
import os
import signal
import socket
import subprocess
import sys
import unittest
from unittest import mock

import support
from arh_grader import pidns, sandbox, seccomp

# Each attempt prints "NAME allowed" or "NAME denied"; the child runs
# python -I -S, as a worker does.
ATTEMPTS = r'''
import json, os, socket, sys
paths = json.loads(sys.argv[1])
def attempt(name, action):
    try:
        action()
        print(name, "allowed")
    except OSError:
        print(name, "denied")
attempt("read_readable", lambda: open(paths["readable"]).read())
attempt("read_private", lambda: open(paths["private"]).read())
attempt("write_home", lambda: open(os.path.join(paths["home"], "x"), "w").write("x"))
attempt("write_beside_readable", lambda: open(paths["readable"] + ".new", "w").write("x"))
attempt("connect_allowed", lambda: socket.create_connection(("127.0.0.1", paths["port"])).close())
attempt("connect_other", lambda: socket.create_connection(("127.0.0.1", paths["other"])).close())
attempt("signal_parent", lambda: os.kill(os.getppid(), 0))
attempt("parent_memory", lambda: open("/proc/%d/mem" % os.getppid(), "rb").close())
attempt("import_stdlib", lambda: __import__("http.server"))
'''


# What a worker behind Walls(namespace=True) sees of itself and of this
# process (argv[1], its pid): its pid and its parent's, each capability set
# (prctl PR_CAPBSET_READ, capget, PR_CAP_AMBIENT_IS_SET: /proc is walled
# off), and what prlimit, setpriority, sched_setaffinity, sched_setscheduler
# and kill do to this process and to every pid from 2 to 4096.
INSIDE = r'''
import ctypes, errno, json, os, resource, sys
libc = ctypes.CDLL(None, use_errno=True)
judge = int(sys.argv[1])
def error(action):
    try:
        action()
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
header, data = (ctypes.c_uint32 * 2)(0x20080522, 0), (ctypes.c_uint32 * 6)()
calls = {
    "prlimit": lambda p: resource.prlimit(p, resource.RLIMIT_FSIZE, (0, 0)),
    "setpriority": lambda p: os.setpriority(os.PRIO_PROCESS, p, 19),
    "sched_setaffinity": lambda p: os.sched_setaffinity(p, {0}),
    "sched_setscheduler": lambda p: os.sched_setscheduler(p, os.SCHED_IDLE, os.sched_param(0)),
    "kill": lambda p: os.kill(p, 0)}
print(json.dumps({
    "pid": os.getpid(), "ppid": os.getppid(),
    "bounding": [c for c in range(64) if libc.prctl(23, c, 0, 0, 0) == 1],
    "capget": [libc.capget(header, data), list(data)],
    "ambient": [c for c in range(64) if libc.prctl(47, 1, c, 0, 0) == 1],
    "judge": {name: error(lambda: call(judge)) for name, call in calls.items()},
    "scan": sorted({error(lambda: call(p)) for p in range(2, 4097) for call in calls.values()}),
}))
'''


class NamespaceTest(unittest.TestCase):
    """Walls(namespace=True): the child is pid 1 of a PID namespace of its
    own (arh_grader/pidns.py), with every capability set empty."""

    def test_no_pid_outside_and_no_capability(self):
        walls = sandbox.Walls(namespace=True, syscalls=False)   # the namespace alone
        if not walls.namespaced:
            self.skipTest(walls.describe())
        try:
            done = subprocess.run(walls.command([sys.executable, "-I", "-S", "-c", INSIDE,
                                                 str(os.getpid())]),
                                  preexec_fn=walls.enter, pass_fds=walls.fds,
                                  capture_output=True, text=True, timeout=60)
        finally:
            walls.close()
        self.assertEqual(done.returncode, 0, done.stderr)
        got = json.loads(done.stdout)
        self.assertEqual((got["pid"], got["ppid"]), (1, 0))
        self.assertEqual((got["bounding"], got["capget"], got["ambient"]),
                         ([], [0, [0] * 6], []))
        self.assertEqual(got["judge"], dict.fromkeys(
            ("prlimit", "setpriority", "sched_setaffinity", "sched_setscheduler", "kill"),
            "ESRCH"))
        self.assertEqual(got["scan"], ["ESRCH"])
        self.assertRegex(walls.describe(), r"; pid namespace( in a user namespace)?, "
                                           r"no capabilities$")

    def test_an_exit_status_and_a_signal_pass_through_the_init(self):
        walls = sandbox.Walls(namespace=True)
        if not walls.namespaced:
            self.skipTest(walls.describe())
        try:
            for code, expected in (("raise SystemExit(7)", 7),
                                   ("import ctypes; ctypes.string_at(0)", -11)):
                done = subprocess.run(walls.command([sys.executable, "-I", "-S", "-c", code]),
                                      preexec_fn=walls.enter, pass_fds=walls.fds,
                                      capture_output=True, timeout=60)
                self.assertEqual(done.returncode, expected, done.stderr)
        finally:
            walls.close()

    def test_a_refused_namespace_is_named(self):
        refused = (0, "no pid namespace (the kernel refused: Operation not permitted)")
        with mock.patch.object(pidns, "mode", return_value=refused):
            walls = sandbox.Walls(namespace=True)
            walls.close()
        self.assertFalse(walls.namespaced)
        self.assertEqual(walls.command(["a", "b"]), ["a", "b"])
        self.assertTrue(walls.describe().endswith("; " + refused[1]), walls.describe())
# Each attempt prints "NAME allowed" or "NAME ERRNO" (the errno's name).
SOCKET_ATTEMPTS = r'''
import asyncio, ctypes, errno, json, os, socket, sys
paths = json.loads(sys.argv[1])
def attempt(name, action):
    try:
        action()
        print(name, "allowed")
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))
def udp(family, host):
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        s.sendto(b"udp", (host, paths["udp"]))
def unix_path():
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(paths["unix"])
        s.sendall(b"unix")
def pair(kind):
    a, b = socket.socketpair(socket.AF_UNIX, kind)
    a.close(), b.close()
def opened(*args):
    socket.socket(*args).close()
def ring():                                 # io_uring_setup, 425 on x86-64 and arm64
    fd = ctypes.CDLL(None, use_errno=True).syscall(425, 1, ctypes.create_string_buffer(120))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "io_uring_setup")
    os.close(fd)
attempt("udp", lambda: udp(socket.AF_INET, "127.0.0.1"))
attempt("udp6", lambda: udp(socket.AF_INET6, "::1"))
attempt("unix_path", unix_path)
attempt("unix_dgram", lambda: opened(socket.AF_UNIX, socket.SOCK_DGRAM))
attempt("socketpair_dgram", lambda: pair(socket.SOCK_DGRAM))
attempt("socketpair_seqpacket", lambda: pair(socket.SOCK_SEQPACKET))
attempt("packet", lambda: opened(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3)))
attempt("netlink", lambda: opened(socket.AF_NETLINK, socket.SOCK_RAW, 0))
attempt("raw", lambda: opened(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))
attempt("raw6", lambda: opened(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6))
attempt("vsock", lambda: opened(40, socket.SOCK_STREAM))           # AF_VSOCK
attempt("sctp", lambda: opened(socket.AF_INET, socket.SOCK_STREAM, 132))
attempt("mptcp", lambda: opened(socket.AF_INET, socket.SOCK_STREAM, 262))
attempt("io_uring", ring)
attempt("tcp_connect", lambda: socket.create_connection(("127.0.0.1", paths["port"])).close())
attempt("tcp6", lambda: opened(socket.AF_INET6, socket.SOCK_STREAM | socket.SOCK_NONBLOCK))
attempt("socketpair_stream", lambda: pair(socket.SOCK_STREAM))
attempt("asyncio", lambda: asyncio.run(asyncio.sleep(0)))
'''

# The calls that set a process's limits or scheduling, on the child itself
# and on its parent (this test's process: each sets what is already set).
PROCESS_ATTEMPTS = r'''
import ctypes, errno, os, resource, sys
parent, numbers = os.getppid(), {"x86_64": (251, 252), "aarch64": (30, 31)}[sys.argv[1]]
libc = ctypes.CDLL(None, use_errno=True)
def attempt(name, action):
    try:
        action()
        print(name, "allowed")
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))
def ioprio(pid):
    now = libc.syscall(numbers[1], 1, pid)
    if now < 0 or libc.syscall(numbers[0], 1, pid, now) != 0:
        raise OSError(ctypes.get_errno(), "ioprio")
CORE = resource.RLIMIT_CORE
attempt("rlimit_itself", lambda: resource.setrlimit(CORE, resource.getrlimit(CORE)))
attempt("prlimit_parent", lambda: resource.prlimit(parent, CORE, resource.getrlimit(CORE)))
attempt("nice_itself", lambda: os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0)))
attempt("nice_parent", lambda: os.setpriority(os.PRIO_PROCESS, parent,
                                              os.getpriority(os.PRIO_PROCESS, parent)))
attempt("affinity_itself", lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)))
attempt("affinity_parent", lambda: os.sched_setaffinity(parent, os.sched_getaffinity(parent)))
attempt("affinity_read_parent", lambda: os.sched_getaffinity(parent))
attempt("scheduler_parent", lambda: os.sched_setscheduler(parent, os.sched_getscheduler(parent),
                                                          os.sched_getparam(parent)))
attempt("param_parent", lambda: os.sched_setparam(parent, os.sched_getparam(parent)))
attempt("ioprio_itself", lambda: ioprio(0))
attempt("ioprio_parent", lambda: ioprio(parent))
'''

# A system call of the i386 ABI (int 0x80: getpid, 20) from a 64-bit process.
I386_CALL = r'''
import ctypes, mmap
code = b"\xb8\x14\x00\x00\x00\xcd\x80\xc3"         # mov eax, 20; int 0x80; ret
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(code)
print(ctypes.CFUNCTYPE(ctypes.c_long)(ctypes.addressof(ctypes.c_char.from_buffer(m)))())
'''


def run_walled(walls, source, *args):
    """`source` run by a child python -I -S inside `walls`, as a worker runs."""
    try:
        return subprocess.run([sys.executable, "-I", "-S", "-c", source, *args],
                              preexec_fn=walls.enter, pass_fds=walls.fds, capture_output=True,
                              text=True, timeout=60)
    finally:
        walls.close()


class WallsTest(unittest.TestCase):
    def listener(self):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        self.addCleanup(sock.close)
        return sock.getsockname()[1]

    def test_each_wall(self):
        version = sandbox.abi()
        if version < 6:
            self.skipTest("this kernel's Landlock ABI is %d; the walls need 6" % version)
        folder, home = support.tmpdir(self), support.tmpdir(self)
        readable = support.write(self, "tester.py", "x = 1\n")
        private = os.path.join(folder, "state.json")
        with open(private, "w") as f:
            f.write("{}")
        paths = {"readable": readable, "private": private, "home": home,
                 "port": self.listener(), "other": self.listener()}
        walls = sandbox.Walls(readable=[readable], writable=[home], connect=[paths["port"]])
        try:
            done = subprocess.run([sys.executable, "-I", "-S", "-c", ATTEMPTS,
                                   json.dumps(paths)], preexec_fn=walls.enter,
                                  pass_fds=walls.fds, capture_output=True, text=True,
                                  timeout=60)
        finally:
            walls.close()
        self.assertEqual(done.returncode, 0, done.stderr)
        got = dict(line.split() for line in done.stdout.splitlines())
        self.assertEqual(got, {"read_readable": "allowed", "read_private": "denied",
                               "write_home": "allowed", "write_beside_readable": "denied",
                               "connect_allowed": "allowed", "connect_other": "denied",
                               "signal_parent": "denied", "parent_memory": "denied",
                               "import_stdlib": "allowed"})
        self.assertEqual(walls.describe(), "landlock abi %d: files, tcp ports, signals and "
                                           "abstract sockets; seccomp: tcp sockets only, "
                                           "limits and scheduling of itself only" % version)

    def test_only_tcp_sockets_open(self):
        """UDP, Unix sockets (on a path, the listener under a folder the
        child cannot read), raw, packet, netlink, vsock, SCTP and MPTCP
        sockets, and an io_uring (which opens sockets itself) are refused with EPERM; TCP, and a stream socketpair (asyncio's),
        work; the listeners hear nothing."""
        if not seccomp.Filter().available:
            self.skipTest("this machine has no seccomp filter (%s)" % os.uname().machine)
        folder = support.tmpdir(self)
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.addCleanup(unix.close)
        unix.bind(os.path.join(folder, "listener"))
        unix.listen()
        unix.setblocking(False)
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.addCleanup(udp.close)
        udp.bind(("127.0.0.1", 0))
        udp.setblocking(False)
        paths = {"port": self.listener(), "unix": unix.getsockname(),
                 "udp": udp.getsockname()[1]}
        done = run_walled(sandbox.Walls(connect=[paths["port"]]), SOCKET_ATTEMPTS,
                          json.dumps(paths))
        self.assertEqual(done.returncode, 0, done.stderr)
        got = dict(line.split() for line in done.stdout.splitlines())
        allowed = ("tcp_connect", "tcp6", "socketpair_stream", "asyncio")
        self.assertEqual(got, {name: "allowed" if name in allowed else "EPERM" for name in got})
        self.assertEqual(len(got), 18, done.stdout)
        self.assertRaises(BlockingIOError, unix.accept)
        self.assertRaises(BlockingIOError, udp.recv, 16)

    def test_no_reach_into_another_process_s_limits_or_scheduling(self):
        """prlimit64, setpriority, sched_set* and ioprio_set on the parent
        are refused with EPERM; on the child itself (pid 0), allowed."""
        if not seccomp.Filter().available:
            self.skipTest("this machine has no seccomp filter (%s)" % os.uname().machine)
        done = run_walled(sandbox.Walls(), PROCESS_ATTEMPTS, seccomp.machine())
        self.assertEqual(done.returncode, 0, done.stderr)
        got = dict(line.split() for line in done.stdout.splitlines())
        self.assertEqual(got, {name: "allowed" if name.endswith("itself") or "read" in name
                               else "EPERM" for name in got})
        self.assertEqual(len(got), 11, done.stdout)

    def test_a_call_of_another_abi_kills(self):
        """An i386 call (int 0x80) from the 64-bit child: SIGSYS, at once."""
        if seccomp.machine() != "x86_64" or not seccomp.Filter().available:
            self.skipTest("the i386 ABI is x86-64's; this machine is %s" % os.uname().machine)
        unwalled = subprocess.run([sys.executable, "-I", "-S", "-c", I386_CALL],
                                  capture_output=True, timeout=60)
        if unwalled.returncode != 0:
            self.skipTest("this kernel runs no i386 call (status %d)" % unwalled.returncode)
        done = run_walled(sandbox.Walls(), I386_CALL)
        self.assertEqual((done.returncode, done.stdout), (-signal.SIGSYS, ""), done.stderr)

    def test_a_folder_the_grader_shares_is_not_given(self):
        tester = support.write(self, "tester.py", "")
        folder = os.path.dirname(tester)
        cases = [("its own folder", tester, (), [folder]),
                 ("a folder holding the state", tester, (os.path.join(folder, "s.json"),),
                  [tester]),
                 ("the repository's root", os.path.join(support.ROOT, "tester.py"), (),
                  [os.path.join(support.ROOT, "tester.py")])]
        for name, path, private, expected in cases:
            with self.subTest(case=name):
                self.assertEqual(sandbox.tester_reads(path, private=private),
                                 [os.path.realpath(p) for p in expected])


if __name__ == "__main__":
    unittest.main()
