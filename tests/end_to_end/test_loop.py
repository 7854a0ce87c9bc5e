"""The agents' daily loop through grader/local.py, as real processes: the
worker's standard library only, one chosen instance, a timeout that shows
where the tester was, and a one-line refusal of an old Python."""

import glob
import json
import os
import subprocess
import unittest

import support

NUMPY = "import numpy\n\ndef find(n, priors, test):\n    return []\n"
SPIN = ("def spin(x):\n    while True:\n        x += 1\n\n\n"
        "def find(n, priors, test):\n    return spin(0)\n")
COMMANDS = ("grader/local.py", "grader/grade.py", "grader/selfcheck.py", "grader/bench.py",
            "grader/compare.py", "grader/instances.py", "grader/mmi.py")


class LoopTest(unittest.TestCase):
    def local(self, source, *options):
        tester = support.write(self, "tester.py", source)
        out = os.path.join(os.path.dirname(tester), "out")
        status, stdout, stderr = support.run_command(
            self, "grader/local.py", "--tester", tester, "--out", out, *options)
        with open(os.path.join(out, "result.json")) as f:
            return status, stdout, stderr, json.load(f)

    def test_a_tester_that_imports_numpy_fails_as_in_the_container(self):
        status, stdout, _, result = self.local(NUMPY, "--limit", "1")
        self.assertEqual((status, result["kind"]), (1, "no_answer"))
        self.assertIn("ModuleNotFoundError: No module named 'numpy'", result["message"])
        self.assertIn("the worker has Python's standard library only, as in its container: "
                      "'numpy' is not part of it", result["message"])
        self.assertIn("standard library only", stdout)

    def test_only_grades_the_chosen_instances_under_their_own_indexes(self):
        transcripts = support.tmpdir(self)
        status, stdout, _, result = self.local(
            support.read_bytes(support.SHIPPED).decode(), "--only", "7,2", "--transcripts", transcripts)
        self.assertEqual((status, result["status"]), (0, "valid"))
        self.assertEqual([e["index"] for e in result["items"]], [2, 7])
        self.assertEqual(sorted(os.path.basename(p) for p in glob.glob(transcripts + "/*")),
                         ["instance-0002.jsonl", "instance-0007.jsonl"])
        self.assertEqual(support.lines_of(stdout)["instances"], "2")

    def test_only_names_the_failing_instance_by_its_own_index(self):
        status, stdout, _, result = self.local(SPIN, "--only", "7", "--instance-timeout", "1")
        self.assertEqual((status, result["kind"], result["index"]), (1, "timeout", 7))
        self.assertEqual(support.lines_of(stdout)["instance"], "7")

    def test_an_only_past_the_set_is_refused(self):
        status, _, stderr = support.run_command(self, "grader/local.py", "--only", "3,40",
                                                "--out", support.tmpdir(self))
        self.assertEqual(status, 2)
        self.assertIn("local.py: error: --only names instance 40, but ", stderr)
        self.assertIn(" has 40 (0..39)", stderr)

    def test_a_timeout_shows_the_function_it_was_in(self):
        status, stdout, stderr, result = self.local(SPIN, "--limit", "1",
                                                    "--instance-timeout", "2")
        self.assertEqual((status, result["kind"]), (1, "timeout"))
        self.assertIn("stack on its stderr", result["message"])
        self.assertRegex(stderr, r'File "[^"]*tester\.py", line [23] in spin\n')


def old_python():
    """A Python 3.10 from pyenv, or None."""
    found = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.10*/bin/python3")))
    return found[-1] if found else None


@unittest.skipIf(old_python() is None, "no Python 3.10 on this machine")
class OldPythonTest(unittest.TestCase):
    def test_each_command_says_in_one_line_that_it_needs_3_11(self):
        for command in COMMANDS + ("tests/run.py",):
            with self.subTest(command=command):
                done = subprocess.run([old_python(), *command.split()], cwd=support.ROOT,
                                      capture_output=True, text=True, timeout=60,
                                      stdin=subprocess.DEVNULL)
                self.assertNotEqual(done.returncode, 0)
                self.assertEqual(done.stdout, "")
                self.assertRegex(done.stderr, r"^the grader needs Python 3\.11 or newer; "
                                              r"this is Python 3\.10\.\d+\n$")


if __name__ == "__main__":
    unittest.main()
