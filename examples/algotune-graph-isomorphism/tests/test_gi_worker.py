"""Graph isomorphism's worker (harness/worker.py), run for real: it hands
over every file of its src/ folder, runs none of them, and names a
folder that breaks the rules instead of handing it over."""

import base64
import json
import os
import subprocess
import sys
import unittest
import urllib.request

import gi_support
from arh_grader import local_run, workers


def start(case, folder):
    """The worker on `folder`/solver.py, on a free port: its URL."""
    port = workers.free_port()
    env = dict(os.environ, AR_TESTER=os.path.join(folder, "solver.py"),
               AR_WORKER_HOST="127.0.0.1", AR_WORKER_PORT=str(port),
               AR_ORACLE_URL="http://127.0.0.1:1/")
    proc = subprocess.Popen([sys.executable, *local_run.WORKER_FLAGS, gi_support.WORKER], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    case.addCleanup(proc.wait)
    case.addCleanup(proc.kill)
    url = "http://127.0.0.1:%d" % port
    workers.wait_listening(proc, url, timeout=30)
    return url


def solve(url):
    request = urllib.request.Request(url + "/solve", data=b'{"token": "t"}', method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.load(reply)["answer"]


def write(folder, files):
    for path, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
        with open(os.path.join(folder, path), "wb") as f:
            f.write(data)


class WorkerTest(unittest.TestCase):
    def test_it_hands_over_the_files_and_runs_none(self):
        folder = gi_support.tmpdir(self)
        files = {"solver.py": b"raise SystemExit('never run')\n", "lib/helper.py": b"\x00\xff",
                 "__pycache__/solver.cpython-313.pyc": b"left out"}
        write(folder, files)
        answer = solve(start(self, folder))
        self.assertEqual({p: base64.b64decode(t) for p, t in answer["files"].items()},
                         {"solver.py": files["solver.py"], "lib/helper.py": b"\x00\xff"})

    def test_a_folder_that_breaks_the_rules_is_named(self):
        cases = [({"helper.py": b""}, "holds no solver.py"),
                 ({"solver.py": b"x" * (1024 * 1024 + 1)}, "more than 1048576 bytes"),
                 (dict({"f%02d.py" % k: b"" for k in range(64)}, **{"solver.py": b""}),
                  "more than 64 files")]
        for files, words in cases:
            with self.subTest(words=words):
                folder = gi_support.tmpdir(self)
                write(folder, files)
                answer = solve(start(self, folder))
                self.assertEqual(list(answer), ["error"])
                self.assertIn(words, answer["error"])

    def test_a_link_is_refused(self):
        folder = gi_support.tmpdir(self)
        write(folder, {"solver.py": b""})
        os.symlink("/etc/passwd", os.path.join(folder, "passwd"))
        answer = solve(start(self, folder))
        self.assertIn("passwd is not a regular file", answer["error"])


if __name__ == "__main__":
    unittest.main()
