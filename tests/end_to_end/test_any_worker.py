"""grader/local.py grades a worker it did not write: one already running
(--worker-url, with the oracle on --oracle-port) or one it starts from a
command (--worker-command, on free ports given in AR_ORACLE_URL,
AR_WORKER_HOST and AR_WORKER_PORT). With the reference worker, either gives
the very bytes of a plain run; so do workers frozen at contract 1.0, in
Python and in Node (binary splitting in JavaScript), which refuse the
`deadline` they never heard of: the grader sends them none. Such a
worker is the user's own program: at a URL it gets none of the walls of
arh_grader/sandbox.py, from a command only the PID namespace (a wall that
needs nothing of the program). Its result.json says which it went without
("walls_missing", and a line `walls_missing: ...` on the console), and is
otherwise those very bytes."""

import os
import shutil
import sys
import unittest

import support
from arh_grader import pidns, sandbox, workers
from arh_grader.result import json_bytes, strict_json

REFERENCE = support.REFERENCE
FROZEN = os.path.join(support.ROOT, "tests", "workers", "contract_1_0.py")   # contract 1.0
NODE_FROZEN = os.path.join(support.ROOT, "tests", "workers", "contract_1_0.js")   # and in Node
LIMIT = "5"             # instances of the sample graded in each run
AT_URL = list(sandbox.EVERY_WALL)                  # what a worker at a URL goes without
FROM_COMMAND = workers.walls_missing(namespace=True)   # and one started from a command


def unwalled(blob, missing=FROM_COMMAND):
    """The bytes a plain run's result.json `blob` has for a worker without
    the walls `missing`: the same, with them named in "walls_missing"."""
    return json_bytes(dict(strict_json(blob.decode("utf-8")), walls_missing=missing))


def said(missing):
    """The console's line for the walls `missing`."""
    return "walls_missing: %s\n" % ", ".join(missing)


# the reference worker, after one line with its pid (1 in a namespace of its own)
PID_WORKER = """import os, runpy, sys
sys.stderr.write("pid: %d\\n" % os.getpid())
sys.argv = sys.argv[1:]
sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
runpy.run_path(sys.argv[0], run_name="__main__")
"""


class AnyWorkerTest(unittest.TestCase):
    def run_local(self, *args):
        """local.py on the first instances of the sample: (status, stdout
        and stderr, the bytes of result.json or None)."""
        out = support.tmpdir(self)
        status, stdout, stderr = support.run_command(
            self, "grader/local.py", "--limit", LIMIT, "--out", out, *args)
        path = os.path.join(out, "result.json")
        return status, stdout + stderr, support.read_bytes(path) if os.path.exists(path) \
            else None

    def test_a_running_worker_at_a_url_gives_the_bytes_of_a_plain_run(self):
        url, port = support.reference_at_url(self)
        status, output, blob = self.run_local("--worker-url", url, "--oracle-port", str(port))
        self.assertEqual(status, 0, output)
        self.assertIn(said(AT_URL), output)
        plain = self.run_local()
        self.assertNotIn("walls_missing", support.lines_of(plain[1]))
        self.assertEqual(blob, unwalled(plain[2], AT_URL))

    def test_a_worker_command_gives_the_bytes_of_a_plain_run(self):
        status, output, blob = self.run_local("--worker-command", " ".join(REFERENCE))
        self.assertEqual(status, 0, output)
        self.assertIn(said(FROM_COMMAND), output)
        self.assertEqual(blob, unwalled(self.run_local()[2]))

    def test_a_worker_command_runs_as_pid_1_of_a_namespace_of_its_own(self):
        if not pidns.mode()[0]:
            self.skipTest("the kernel refuses a PID namespace here: %s" % pidns.mode()[1])
        self.assertEqual(FROM_COMMAND, ["landlock", "seccomp"])
        worker = support.write(self, "pid_worker.py", PID_WORKER)
        status, output, _ = self.run_local("--worker-command", "%s %s %s" % (
            sys.executable, worker, " ".join(REFERENCE[1:])))
        self.assertEqual(status, 0, output)
        self.assertIn("pid: 1", output.splitlines())        # its stderr, as it wrote it

    def test_a_worker_of_contract_1_0_is_valid_at_the_reference_s_very_score(self):
        status, output, blob = self.run_local("--worker-command",
                                              "%s %s" % (sys.executable, FROZEN))
        self.assertEqual(status, 0, output)
        self.assertEqual(support.lines_of(output)["status"], "valid")
        self.assertEqual(blob, unwalled(self.run_local()[2]))

    @unittest.skipUnless(shutil.which("node"), "no Node on this machine")
    def test_a_node_worker_of_contract_1_0_is_valid_at_binary_splitting_s_very_bytes(self):
        status, output, blob = self.run_local("--worker-command",
                                              "%s %s" % (shutil.which("node"), NODE_FROZEN))
        self.assertEqual(status, 0, output)
        self.assertEqual(support.lines_of(output)["status"], "valid")
        self.assertEqual(blob, unwalled(self.run_local("--tester", support.SPLITTING)[2]))

    def test_a_worker_command_that_never_listens_is_no_answer(self):
        command = "%s -c 'import sys; sys.exit(3)'" % sys.executable
        status, output, blob = self.run_local("--worker-command", command)
        self.assertEqual(status, 1, output)
        lines = support.lines_of(output)
        self.assertEqual(lines["kind"], "no_answer")
        self.assertIn("status 3", lines["message"])


if __name__ == "__main__":
    unittest.main()
