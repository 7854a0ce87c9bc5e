"""The walls around a worker started on this machine (arh_grader/sandbox.py),
each tried by a real child process: what it may do, and what it may not.
Skipped, naming the reason, on a kernel without the Landlock ABI a wall
needs (files 1, TCP ports 4, signals 6)."""

import json
import os
import socket
import subprocess
import sys
import unittest
from unittest import mock

import support
from arh_grader import pidns, sandbox

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
        walls = sandbox.Walls(namespace=True)
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
                                           "abstract sockets" % version)

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
