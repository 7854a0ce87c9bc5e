"""grader/local.py grades a worker it did not write: one already running
(--worker-url, with the oracle on --oracle-port) or one it starts from a
command (--worker-command, on free ports given in AR_ORACLE_URL,
AR_WORKER_HOST and AR_WORKER_PORT). With the reference worker, either gives
the very bytes of a plain run; so do workers frozen at contract 1.0, in
Python and in Node (binary splitting in JavaScript), which refuse the
`deadline` they never heard of: the grader sends them none. Such a
worker is the user's own program, which gets none of the walls of
arh_grader/sandbox.py: its result.json says so ("walls_missing": every
wall, and a line `walls_missing: ...` on the console), and is otherwise
those very bytes."""

import os
import shutil
import sys
import unittest

import support
from arh_grader import sandbox
from arh_grader.result import json_bytes, strict_json

REFERENCE = support.REFERENCE
FROZEN = os.path.join(support.ROOT, "tests", "workers", "contract_1_0.py")   # contract 1.0
NODE_FROZEN = os.path.join(support.ROOT, "tests", "workers", "contract_1_0.js")   # and in Node
LIMIT = "5"             # instances of the sample graded in each run
NO_WALLS = "walls_missing: " + ", ".join(sandbox.EVERY_WALL)     # the console's line


def unwalled(blob):
    """The bytes a plain run's result.json `blob` has for a worker with no
    walls: the same, with every wall named in "walls_missing"."""
    return json_bytes(dict(strict_json(blob.decode("utf-8")),
                           walls_missing=list(sandbox.EVERY_WALL)))


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
        self.assertIn(NO_WALLS + "\n", output)
        plain = self.run_local()
        self.assertNotIn("walls_missing", support.lines_of(plain[1]))
        self.assertEqual(blob, unwalled(plain[2]))

    def test_a_worker_command_gives_the_bytes_of_a_plain_run(self):
        status, output, blob = self.run_local("--worker-command", " ".join(REFERENCE))
        self.assertEqual(status, 0, output)
        self.assertIn(NO_WALLS + "\n", output)
        self.assertEqual(blob, unwalled(self.run_local()[2]))

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
