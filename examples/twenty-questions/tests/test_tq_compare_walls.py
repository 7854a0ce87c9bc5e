"""Twenty questions' comparison keeps each tester in a worker of its own,
inside walls: a tester that looks for the hidden animal through the
closures of ask and guess, or that counts its rounds in a file and draws
the comparison's order itself, finds nothing and is rejected. With the
walls taken away (a kernel without Landlock, stood in for by a patched
sandbox.abi: no such kernel runs here), the counter wins every round and
is rejected as suspect, never accepted, and the run names the wall it went
without (`walls_missing: landlock`), as tq/local.py does on such a kernel:
one line, and "walls_missing" in result.json, which a run with every wall
lacks."""

import contextlib
import io
import json
import os
import subprocess
import sys
import unittest
from unittest import mock

import tq_support
from arh_grader import sandbox
from arh_grader.commands import compare as sdk_compare
from tq import compare


LOCAL = os.path.join(tq_support.PROJECT, "tq", "local.py")
# tq/local.py in a child, on a kernel without Landlock (a patched sandbox.abi)
WITHOUT_LANDLOCK = """import runpy, sys
from unittest import mock
sys.path[:0] = [%r, %r, %r]
from arh_grader import sandbox
sys.argv = sys.argv[1:]
with mock.patch.object(sandbox, "abi", return_value=0):
    runpy.run_path(sys.argv[0], run_name="__main__")
""" % (os.path.join(tq_support.ROOT, "grader"), tq_support.PROJECT, os.path.dirname(LOCAL))
SEED = "twenty-questions"     # the seed tests/testers/counts_rounds.py draws the order with


def lines_of(text):
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


class CompareWallsTest(unittest.TestCase):
    def command(self, challenger, **env):
        done = subprocess.run([sys.executable, os.path.join(tq_support.PROJECT, "tq",
                                                            "compare.py"),
                               "--challenger", challenger, "--incumbent", tq_support.BASELINE,
                               "--test", "sign", "--seed", SEED,
                               "--state", os.path.join(tq_support.tmpdir(self), "s.json")],
                              capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL, env=dict(os.environ, **env))
        return done.returncode, lines_of(done.stdout)

    def test_readers_find_nothing_and_are_rejected(self):
        rounds = os.path.join(tq_support.tmpdir(self), "rounds")
        for name, env in (("closure_reader", {}), ("counts_rounds", {"GT_ROUND_FILE": rounds})):
            with self.subTest(tester=name):
                status, out = self.command(tq_support.tester(name), **env)
                self.assertEqual((status, out["decision"], out["reason"], out["W/L/D"]),
                                 (0, "reject", "lower_bound", "0/14/0"))
        self.assertFalse(os.path.exists(rounds))

    def test_without_walls_the_counter_is_rejected_as_suspect(self):
        rounds = os.path.join(tq_support.tmpdir(self), "rounds")
        out, progress = io.StringIO(), io.StringIO()
        with mock.patch.object(sandbox, "abi", return_value=0), \
                mock.patch.dict(os.environ, {"GT_ROUND_FILE": rounds}), \
                mock.patch.dict(sdk_compare.compare.__kwdefaults__, {"stream": progress}), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(progress):
            status = compare.main(["--challenger", tq_support.tester("counts_rounds"),
                                   "--incumbent", tq_support.BASELINE, "--test", "sign",
                                   "--seed", SEED,
                                   "--state", os.path.join(tq_support.tmpdir(self), "s.json")])
        lines = lines_of(out.getvalue())
        self.assertEqual((status, lines["decision"], lines["W/L/D"]), (0, "reject", "3/0/0"))
        self.assertTrue(lines["reason"].startswith("suspect: the challenger saved 2"),
                        lines["reason"])
        self.assertEqual(lines["walls_missing"], "landlock")


class LocalWallsTest(unittest.TestCase):
    def run_local(self, *command):
        """tq/local.py on five rounds: (stdout's lines, result.json's bytes)."""
        out = tq_support.tmpdir(self)
        done = subprocess.run([sys.executable, *command, LOCAL, "--out", out, "--limit", "5",
                               "--tester", tq_support.BASELINE], capture_output=True,
                              text=True, timeout=300, stdin=subprocess.DEVNULL)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        with open(os.path.join(out, "result.json"), "rb") as f:
            return done.stdout.splitlines(), f.read()

    def test_a_missing_wall_is_named_and_only_that_key_differs(self):
        lines, blob = self.run_local()
        self.assertFalse([line for line in lines if line.startswith("walls_missing")])
        self.assertNotIn("walls_missing", json.loads(blob))
        lines, poorer = self.run_local("-c", WITHOUT_LANDLOCK)
        self.assertEqual([line for line in lines if line.startswith("walls_missing")],
                         ["walls_missing: landlock"])
        result = json.loads(poorer)
        self.assertEqual(result.pop("walls_missing"), ["landlock"])
        self.assertEqual(json.dumps(result, indent=1, sort_keys=True).encode() + b"\n", blob)


if __name__ == "__main__":
    unittest.main()
