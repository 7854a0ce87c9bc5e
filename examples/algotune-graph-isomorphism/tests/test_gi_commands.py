"""Graph isomorphism's commands that read a result.json, without the
emulator: gi/report.py and gi/mmi.py, run as a person runs them, on a
result made by the problem's own entries and summary, print that result's
figures (the emulated runs that make real results are in tests/emulated/)."""

import json
import os
import subprocess
import sys
import unittest

import gi_support
from arh_grader import engine, stats
from gi.plugin import PROBLEM

SCORES = [0.25, 0.5, 0.75, 1.5]
REF = 24_000                           # each problem's ref; the import is 0


def write_result(case, scores=SCORES):
    """A valid result.json of len(scores) problems with these scores."""
    entries = [PROBLEM.entry_of(k, {"n": 140 + k, "seed": k, "instructions": REF},
                                int(score * REF) // 24, 0, 24)
               for k, score in enumerate(scores)]
    result = engine.summarize(PROBLEM, entries)
    result.update(PROBLEM.summary(entries, 0))
    path = os.path.join(gi_support.tmpdir(case), "result.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return path, result


def command(name, *args):
    done = subprocess.run([sys.executable, os.path.join(gi_support.PROJECT, "gi", name), *args],
                          capture_output=True, text=True, timeout=60)
    return done.returncode, dict(line.split(": ", 1) for line in done.stdout.splitlines()
                                 if ": " in line), done.stderr


class ResultCommandsTest(unittest.TestCase):
    def test_the_result_holds_the_scores_and_their_mean(self):
        _, result = write_result(self)
        self.assertEqual([e["score"] for e in result["items"]], SCORES)
        self.assertEqual(result["instruction_ratio"], 0.75)
        self.assertEqual(result["status"], "valid")

    def test_the_report_prints_the_result_s_figures(self):
        path, result = write_result(self)
        status, lines, err = command("report.py", path)
        self.assertEqual(status, 0, err)
        self.assertEqual((lines["status"], lines["instances"], lines["instruction_ratio"],
                          lines["floor"], lines["gap"]), ("valid", "4", "0.75", "0.0", "0.75"))

    def test_the_mmi_prints_the_bootstrap_s_floor_beside_the_mmi(self):
        path, _ = write_result(self)
        status, lines, err = command("mmi.py", path)
        self.assertEqual(status, 0, err)
        se = stats.bootstrap_se(SCORES, resamples=stats.RESAMPLES, seed=PROBLEM.RESAMPLING_SEED)
        self.assertEqual((lines["standard_error"], lines["floor"], lines["mmi"]),
                         ("%.4f" % se, "%.3f" % (2 * se), "0.02"))
        self.assertEqual(lines["floor_within_mmi"], "false")

    def test_a_file_that_is_not_a_result_is_refused_by_both(self):
        path = os.path.join(gi_support.tmpdir(self), "result.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write("[]")
        for name in ("report.py", "mmi.py"):
            with self.subTest(command=name):
                status, _, err = command(name, path)
                self.assertEqual(status, 2, err)
                self.assertIn(path, err)


if __name__ == "__main__":
    unittest.main()
