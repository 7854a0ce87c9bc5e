"""Twenty questions through the template's local run: the worker, the
counting oracle with this problem's policy and the engine, as real
processes over loopback (tq/local.py). The scores equal the in-process
run's (tq/direct.py), and each kind of tester gets its verdict."""

import json
import os
import subprocess
import sys
import unittest

import tq_support
from tq import direct, sets

LOCAL = os.path.join(tq_support.PROJECT, "tq", "local.py")
LIMIT = 30              # rounds of the dev set each run grades


def run_local(case, *options):
    """tq/local.py in a real process: (exit status, summary as a dict, result)."""
    out = tq_support.tmpdir(case)
    done = subprocess.run([sys.executable, LOCAL, "--out", out, *options],
                          capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    with open(os.path.join(out, "result.json")) as f:
        result = json.load(f)
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    return done.returncode, lines, result


class HttpRouteTest(unittest.TestCase):
    def test_the_baseline_scores_as_in_process(self):
        status, lines, result = run_local(self, "--limit", str(LIMIT))
        self.assertEqual((status, result["status"]), (0, "valid"))
        animals = [item["animal"] for item in sets.read_set(sets.DEV_FILE)[:LIMIT]]
        rounds = direct.run_set(direct.load_tester(tq_support.BASELINE).play, animals)
        self.assertEqual([(e["calls"], e["found"]) for e in result["items"]],
                         [(r.calls, r.found) for r in rounds])
        self.assertEqual(float(lines["mean_score"]), result["mean_score"])
        self.assertLessEqual(result["mean_score"], result["bound"])

    def test_each_tester_gets_its_verdict(self):
        cases = [("asks_forever", 0, "valid", None), ("raises", 1, "invalid", "no_answer"),
                 ("guesses_out_of_pool", 1, "invalid", "no_answer"),
                 ("hangs", 1, "invalid", "timeout")]
        for name, code, status, kind in cases:
            with self.subTest(tester=name):
                got_code, lines, result = run_local(
                    self, "--limit", "3", "--instance-timeout", "2",
                    "--tester", tq_support.tester(name))
                self.assertEqual((got_code, result["status"], result["kind"]),
                                 (code, status, kind))
                self.assertEqual(lines["kind"], kind or "none")
