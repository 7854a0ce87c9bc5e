"""A wall the kernel refuses is never silent. No kernel without a wall runs
here, so each is stood in for by a patch in a child process that runs
local.py (sandbox.abi 0: no Landlock, 5: no signal scoping; pidns.mode
refused: no PID namespace; seccomp.actions_available False: no filter).
The run then prints one line `walls_missing: ...` before its summary, and
its result.json names them ("walls_missing"); with every wall there is
neither, and the bytes of the result are those of the poorer run without
that key. A comparison on such a kernel keeps nothing (test_compare_walls
and KeepRuleTest there, for the row)."""

import json
import os
import subprocess
import sys
import unittest

import support
from arh_grader.result import json_bytes

LIMIT = "2"             # instances of the sample graded in each run

# local.main in a child, with the walls named in sys.argv[1] taken away
WITHOUT = """import sys
sys.path.insert(0, "grader")
from unittest import mock
from arh_grader import pidns, sandbox, seccomp
import local
taken = sys.argv[1].split(",")
with mock.patch.object(sandbox, "abi", return_value=0 if "landlock" in taken else
                       5 if "scopes" in taken else sandbox.abi()), \\
        mock.patch.object(pidns, "mode", return_value=(0, "no pid namespace (a test)")
                          if "pidns" in taken else pidns.mode()), \\
        mock.patch.object(seccomp, "actions_available",
                          return_value=False if "seccomp" in taken else True):
    sys.exit(local.main(sys.argv[2:]))
"""


class LocalRunTest(unittest.TestCase):
    def run_local(self, taken=None):
        """local.py on the sample's first instances, without the walls
        `taken` (None: as it is): (status, stdout, result.json's bytes)."""
        out = support.tmpdir(self)
        args = ["grader/local.py"] if taken is None else ["-c", WITHOUT, ",".join(taken)]
        status, stdout, stderr = support.run_command(
            self, *args, "--limit", LIMIT, "--out", out)
        self.assertEqual(status, 0, stdout + stderr)
        return status, stdout, support.read_bytes(os.path.join(out, "result.json"))

    def test_every_wall_no_line_no_key(self):
        _, stdout, blob = self.run_local()
        self.assertNotIn("walls_missing", support.lines_of(stdout))
        self.assertNotIn("walls_missing", json.loads(blob))

    def test_each_missing_wall_is_named_and_only_the_key_differs(self):
        plain = self.run_local()[2]
        cases = [(["landlock", "pidns"], ["landlock", "pid namespace"]),
                 (["seccomp"], ["seccomp"]),
                 (["scopes"], ["landlock signals and abstract sockets"])]
        for taken, named in cases:
            with self.subTest(taken=taken):
                _, stdout, blob = self.run_local(taken)
                lines = stdout.splitlines()
                self.assertEqual([line for line in lines if line.startswith("walls_missing")],
                                 ["walls_missing: " + ", ".join(named)])
                self.assertLess(lines.index("walls_missing: " + ", ".join(named)),
                                lines.index("status: valid"))     # before the summary
                result = json.loads(blob)
                self.assertEqual(result.pop("walls_missing"), named)
                self.assertEqual(json_bytes(result), plain)


if __name__ == "__main__":
    unittest.main()
