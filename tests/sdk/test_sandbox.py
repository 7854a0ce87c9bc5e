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

import support
from arh_grader import sandbox

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
