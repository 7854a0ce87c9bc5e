"""grader/compare.py: the command on the real testers by either test, a
failing tester, a tester past its deadline, and the rows of its results
file. Its state file is test_compare_state.py's, its stops and resumes
test_compare_stops.py's, its testers' walls test_compare_walls.py's.
Commands, the way these modules run the command, is here."""

import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: support
import support  # noqa: E402
from arh_grader.compare import betting, cost  # noqa: E402
from arh_grader.compare import state as compare_state  # noqa: E402
from group_testing import comparison, instances  # noqa: E402

def problem_cap(index):
    """The cap of instance `index` of SEED (a tester past its deadline scores it)."""
    return comparison.baseline_and_cap(SEED, index)[1]


CALIBRATION = os.path.join(support.GRADER, "group_testing", "calibration.py")
SEED = "compare-test"
with open(support.SPLITTING, encoding="utf-8") as _f:
    HONEST = _f.read().replace("def find(", "def honest(")
# Binary splitting that skips the first test, always positive, on instances of
# odd n: a sure win on half the instances, worth about 0.01 of the score.
NUDGE = HONEST + """
def find(n, priors, test):
    first = [n % 2 == 1]

    def skip_first(pool):
        if first[0]:
            first[0] = False
            return True
        return test(pool)

    return honest(n, priors, skip_first)
"""


class Commands:
    """How the comparison modules run grader/compare.py (a mixin of their
    TestCase)."""

    def compare(self, *args, state=None, challenger=CALIBRATION, incumbent=support.SPLITTING):
        """Run the command; (status, stdout lines as a dict, stderr, state path)."""
        state = state or os.path.join(support.tmpdir(self), "state.json")
        status, stdout, stderr = support.run_command(
            self, "grader/compare.py", "--challenger", challenger, "--incumbent", incumbent,
            "--state", state, *args, timeout=300)
        return status, support.lines_of(stdout), stderr, state


class CommandTest(Commands, unittest.TestCase):
    def test_a_failed_sample_run_is_a_crash_row_and_nothing_compared(self):
        folder = support.tmpdir(self)
        log, result = os.path.join(folder, "results.tsv"), os.path.join(folder, "result.json")
        with open(result, "w", encoding="utf-8") as f:
            json.dump({"status": "invalid", "kind": "no_answer", "relative_tests": None}, f)
        status, out, err, state = self.compare("--log", log, "--sample-result", result,
                                               "--description", "crashes")
        self.assertEqual(status, 1, err)
        self.assertEqual(out, {"error": "the sample result %s is invalid (kind: no_answer): "
                                        "nothing compared" % result, "comparisons": "0"})
        self.assertFalse(os.path.exists(state))
        with open(log, encoding="utf-8") as f:
            row = f.read().splitlines()[1].split("\t")
        self.assertEqual(row[1:], ["error", "0", "-", "-", "crash", "-", "-", "crashes"])

    def test_the_real_testers_by_the_mean(self):
        zeros = betting.run(betting.Settings(delta=0.1), [0.0] * 1000).comparisons
        cases = [  # challenger, incumbent, options, decision, reason, W/L/D, most comparisons
            ("splitting vs splitting", support.SPLITTING, support.SPLITTING, ("--delta", "0.1"),
             "reject", "reject_bound", "0/0/%d" % zeros, 60),
            ("calibration vs splitting", CALIBRATION, support.SPLITTING, (),
             "accept", "accept_bound", "21/1/0", 60),
            ("splitting vs calibration", support.SPLITTING, CALIBRATION, (),
             "reject", "reject_bound", "1/21/0", 60)]
        for name, challenger, incumbent, options, decision, reason, counts, most in cases:
            with self.subTest(case=name):
                status, out, err, _ = self.compare("--seed", SEED, *options,
                                                   challenger=challenger, incumbent=incumbent)
                self.assertEqual(status, 0, err)
                self.assertEqual((out["decision"], out["reason"], out["W/L/D"], out["test"]),
                                 (decision, reason, counts, "mean"))
                total = sum(int(x) for x in counts.split("/"))
                self.assertEqual(out["comparisons"], str(total))
                self.assertLessEqual(total, most)
                progress = [line for line in err.splitlines() if line.startswith("comparison: ")]
                self.assertEqual(len(progress), total)
                self.assertRegex(progress[-1], r"W/L/D: %s e_accept: \S+ e_reject: \S+ "
                                 r"bounds: 20/20$" % counts)
                self.assertRegex(out["score_difference"], r"^-?\d\.\d{4} \(99%% confidence "
                                 r"sequence -?\d\.\d{4} to -?\d\.\d{4}, %d comparisons\)$"
                                 % total)
                diff = float(out["score_difference"].split()[0])
                self.assertTrue(diff < -0.05 if decision == "accept" else diff >= 0, diff)
                support.show("\n%s: %s after %s comparisons (W/L/D %s), score difference %s"
                             % (name, decision, total, counts, out["score_difference"]))

    def test_a_near_zero_reject_says_what_deciding_it_would_cost(self):
        """The nudge (a gain of about 0.01) cut short at 30 comparisons with
        --delta 0.01: a reject by the maximum whose mean difference is within
        2 x delta of 0, so the `cost_to_decide` lines follow the summary, the
        very lines of cost.lines on the run's differences; identical testers
        (mean 0) get the one line that says no delta helps; an accept and a
        far reject get none."""
        nudge = support.write(self, "nudge.py", NUDGE)
        status, out, err, state = self.compare("--seed", SEED, "--delta", "0.01",
                                               "--max-comparisons", "30", challenger=nudge)
        self.assertEqual(status, 0, err)
        self.assertEqual((out["decision"], out["reason"]), ("reject", "max_comparisons"))
        saved = compare_state.load_json(state)
        values = [compare_state.difference(entry, problem_cap(k)) for k, entry
                  in enumerate(saved["comparisons"])]
        record = betting.run(betting.Settings(delta=0.01, max_comparisons=30), values)
        expected = cost.lines(record, values)
        self.assertEqual(len(expected), 4)
        self.assertEqual([out[line.split(": ", 1)[0]] for line in expected],
                         [line.split(": ", 1)[1] for line in expected])
        self.assertTrue(out["cost_to_decide.option"].startswith("--delta 0.01 "
                                                               "--max-comparisons "), out)
        _, again, _, _ = self.compare("--delta", "0.01", "--max-comparisons", "30",
                                      state=state, challenger=nudge)    # decided already
        self.assertEqual(again, out)
        status, same, err, _ = self.compare("--seed", SEED, "--delta", "0.1",
                                            "--max-comparisons", "20",
                                            challenger=support.SPLITTING)
        self.assertEqual(status, 0, err)
        self.assertTrue(same["cost_to_decide"].startswith("none: the mean difference +0.0000 "),
                        same)
        for name, challenger, incumbent in (("accept", CALIBRATION, support.SPLITTING),
                                            ("far reject", support.SPLITTING, CALIBRATION)):
            with self.subTest(case=name):
                status, out, err, _ = self.compare("--seed", SEED, challenger=challenger,
                                                   incumbent=incumbent)
                self.assertEqual(status, 0, err)
                self.assertEqual([key for key in out if key.startswith("cost_to_decide")], [])

    def test_the_real_testers(self):
        cases = [  # challenger, incumbent, decision, reason, W/L/D, most comparisons
            ("splitting vs splitting", support.SPLITTING, support.SPLITTING,
             "reject", "draw_ceiling", "0/0/58", 60),
            ("calibration vs splitting", CALIBRATION, support.SPLITTING,
             "accept", "upper_bound", "18/1/0", 40),
            ("splitting vs calibration", support.SPLITTING, CALIBRATION,
             "reject", "lower_bound", "1/15/0", 40)]
        for name, challenger, incumbent, decision, reason, counts, most in cases:
            with self.subTest(case=name):
                status, out, err, _ = self.compare("--seed", SEED, "--test", "sign",
                                                   challenger=challenger, incumbent=incumbent)
                self.assertEqual(status, 0, err)
                self.assertEqual((out["decision"], out["reason"], out["W/L/D"]),
                                 (decision, reason, counts))
                total = sum(int(x) for x in counts.split("/"))
                self.assertEqual(out["comparisons"], str(total))
                self.assertLessEqual(total, most)
                decisive = total - int(counts.split("/")[2])
                self.assertEqual((out["decisive"], out["fixed_sample"]), (str(decisive), "268"))
                self.assertEqual(out["of_fixed_sample"], "-" if reason == "draw_ceiling"
                                 else "%.2f" % (decisive / 268))
                progress = [line for line in err.splitlines() if line.startswith("comparison: ")]
                self.assertEqual(len(progress), total)
                self.assertIn("W/L/D: %s llr: %s bounds: -2.944/2.944" % (counts, out["llr"]),
                              progress[-1])
                diff = float(out["score_difference"].split()[0])
                self.assertEqual(out["timeouts"], "challenger 0, incumbent 0")
                self.assertRegex(out["score_difference"], r"^-?\d\.\d{4} \(99%% confidence sequence "
                                 r"-?\d\.\d{4} to -?\d\.\d{4}, %d comparisons\)$" % total)
                self.assertEqual(out["mmi"], "0.02")
                self.assertTrue(diff < -0.05 if decision == "accept" else diff >= 0, diff)
                support.show("\n%s: %s after %s comparisons (W/L/D %s), fixed sample 268, score "
                             "difference %s" % (name, decision, total, counts, out["score_difference"]))

    def test_a_wrong_answer_ends_the_run_naming_the_instance(self):
        third = instances.draw_instance(SEED, 2)["n"]
        self.assertNotIn(third, [instances.draw_instance(SEED, k)["n"] for k in (0, 1)])
        wrong = support.write(self, "wrong.py", HONEST + """
def find(n, priors, test):
    d = honest(n, priors, test)
    return d[:-1] if n == %d else d
""" % third)
        log = os.path.join(support.tmpdir(self), "results.tsv")
        status, out, err, state = self.compare("--seed", SEED, "--log", log, "--description",
                                               "drops an item", challenger=wrong)
        self.assertEqual(status, 1, err)
        with open(log, encoding="utf-8") as f:
            self.assertEqual(f.read().splitlines()[1].split("\t")[1:],
                             ["error", "2", "%.4f [%.4f, %.4f]"
                              % betting.confidence_sequence([0.0, 0.0]), "-", "crash",
                              "%.4f [%.4f, %.4f]" % betting.confidence_sequence([0.0, 0.0]),
                              "binary splitting", "drops an item"])
        self.assertIn("wrong: comparison 3 (instance index 2 of seed 'compare-test', n=",
                      out["error"])
        self.assertIn("the challenger failed: the answer", out["error"])
        self.assertEqual(out["comparisons"], "2")
        saved = compare_state.load_json(state)
        self.assertEqual((saved["next_comparison"], saved["record"]["decision"]), (3, "continue"))
        self.assertEqual(len(saved["comparisons"]), 2)

    def test_a_tester_past_the_deadline_loses_that_comparison(self):
        spin = instances.draw_instance(SEED, 1)["n"]
        self.assertNotIn(spin, [instances.draw_instance(SEED, k)["n"] for k in (0, 2, 3, 4)])
        with open(CALIBRATION, encoding="utf-8") as f:
            grouping = f.read().replace("def find(", "def honest(")
        looping = support.write(self, "looping.py", grouping + """
def spin():
    while True:
        pass


def find(n, priors, test):
    if n == %d:
        spin()
    return honest(n, priors, test)
""" % spin)
        status, out, err, state = self.compare("--seed", SEED, "--instance-timeout", "4",
                                               "--test", "sign", challenger=looping)
        self.assertEqual(status, 0, err)
        self.assertIn("comparison: 2 instance: 1 challenger: timeout incumbent: ", err)
        lines = [line for line in err.splitlines() if line.startswith("comparison: ")]
        self.assertIn("outcome: loss", lines[1])
        self.assertRegex(err, r"looping\.py\", line \d+ in spin")  # the worker's stacks
        self.assertEqual(out["timeouts"], "challenger 1, incumbent 0")
        self.assertEqual((out["decision"], out["reason"], out["W/L/D"]),
                         ("accept", "upper_bound", "19/2/0"))
        self.assertEqual(compare_state.load_json(state)["comparisons"][1][0], None)
        # taken up again, the entry past the deadline is not run again
        status, again, err, _ = self.compare("--instance-timeout", "4", "--test", "sign",
                                             state=state, challenger=looping)
        self.assertEqual((status, again), (0, out), err)
        self.assertNotIn("comparisons 2,", err)

    def test_log_rows_are_appended_and_read_back(self):
        folder = support.tmpdir(self)
        log, result = os.path.join(folder, "results.tsv"), os.path.join(folder, "result.json")
        with open(result, "w", encoding="utf-8") as f:
            json.dump({"status": "valid", "relative_tests": 0.799636}, f)
        nudge = support.write(self, "nudge.py", NUDGE)
        status, out, err, _ = self.compare("--seed", SEED, "--log", log, "--description",
                                           "groups by prior mass\tand splits", "--sample-result",
                                           result)
        self.assertEqual(status, 0, err)
        status, small, err, _ = self.compare("--seed", SEED, "--log", log, "--description",
                                             "skips one test", "--test", "sign",
                                             challenger=nudge)
        self.assertEqual(status, 0, err)
        self.assertTrue(small["decision"].startswith("accept (below the MMI: the mean score "
                                                     "falls by 0.0"), small["decision"])
        with open(log, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        self.assertEqual(rows[0], ["commit", "decision", "comparisons", "score_difference",
                                   "relative_tests", "status", "total_gain", "reference",
                                   "description"])
        self.assertEqual(len(rows), 3)
        done = subprocess.run(["git", "-C", support.ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True)
        commit = done.stdout.strip() if done.returncode == 0 else "-"
        mean, low, high = (float(x) for x in out["score_difference"].replace("(99% confidence sequence",
                           "").replace("to", "").replace(",", " ").split()[:3])
        cell = "%.4f [%.4f, %.4f]" % (mean, low, high)
        self.assertEqual(rows[1], [commit, "accept", "22", cell, "0.799636", "keep", cell,
                                   "binary splitting", "groups by prior mass and splits"])
        self.assertEqual(out["total_gain"], "%s against binary splitting (99%% confidence "
                         "sequence, 22 comparisons)" % cell)    # the incumbent is splitting
        self.assertEqual(rows[2][0], "-")                 # a tester outside any repository
        self.assertEqual(rows[2][1:3], ["accept_below_mmi", small["comparisons"]])
        self.assertEqual(rows[2][4:6] + rows[2][7:], ["-", "discard", "binary splitting",
                                                      "skips one test"])
        self.assertEqual(rows[2][6], rows[2][3])
        support.show("\n%s" % "\n".join("\t".join(row) for row in rows))


if __name__ == "__main__":
    unittest.main()
