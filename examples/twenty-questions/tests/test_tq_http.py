"""Twenty questions through the template's local run: the worker, the
counting oracle with this problem's policy and the engine, as real
processes over loopback (tq/local.py). The scores equal the in-process
run's (tq/direct.py), and each kind of tester gets its verdict."""

import concurrent.futures
import json
import os
import subprocess
import sys
import unittest

import tq_support
from arh_grader import local_run
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
        status, lines, result = run_local(self, "--limit", str(LIMIT),
                                          "--tester", tq_support.BASELINE)
        self.assertEqual((status, result["status"]), (0, "valid"))
        animals = [item["animal"] for item in sets.read_set(sets.DEV_FILE)[:LIMIT]]
        rounds = direct.run_set(direct.load_tester(tq_support.BASELINE).play, animals)
        self.assertEqual([(e["calls"], e["found"]) for e in result["items"]],
                         [(r.calls, r.found) for r in rounds])
        self.assertEqual(float(lines["mean_score"]), result["mean_score"])
        self.assertLessEqual(result["mean_score"], result["bound"])

    def test_each_tester_gets_its_verdict(self):
        """The four runs at once; only the tester that hangs gets a short
        deadline, so that a busy machine changes no other verdict."""
        cases = [("asks_forever", 0, "valid", None), ("raises", 1, "invalid", "no_answer"),
                 ("guesses_out_of_pool", 1, "invalid", "no_answer"),
                 ("hangs", 1, "invalid", "timeout")]

        def run(case):
            return run_local(self, "--limit", "3", "--instance-timeout",
                             "2" if case[0] == "hangs" else "60",
                             "--tester", tq_support.tester(case[0]))

        with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
            runs = list(pool.map(run, cases))
        for (name, code, status, kind), (got_code, lines, result) in zip(cases, runs):
            with self.subTest(tester=name):
                self.assertEqual((got_code, result["status"], result["kind"]),
                                 (code, status, kind))
                self.assertEqual(lines["kind"], kind or "none")


class BadOptionsTest(unittest.TestCase):
    def test_each_bad_value_is_refused_by_name(self):
        for option, value, words in (
                ("--limit", "0", "must be a number above 0, got '0'"),
                ("--instance-timeout", "-1", "must be a number above 0, got '-1'"),
                ("--only", "3,x", "must be instance indexes 0, 1, ... separated by commas, "
                                  "got '3,x'")):
            with self.subTest(option=option):
                done = subprocess.run([sys.executable, LOCAL, option, value,
                                       "--out", tq_support.tmpdir(self)],
                                      capture_output=True, text=True, timeout=60,
                                      stdin=subprocess.DEVNULL)
                self.assertEqual((done.returncode, done.stdout), (2, ""))
                self.assertEqual(done.stderr.splitlines()[-1],
                                 "local.py: error: argument %s: %s" % (option, words))


class RepeatTest(unittest.TestCase):
    def run_repeated(self, tester):
        done = subprocess.run([sys.executable, LOCAL, "--repeat", "2", "--limit", "3",
                               "--tester", tester, "--out", tq_support.tmpdir(self)],
                              capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        return done.returncode, done.stdout.splitlines()[-1]

    def test_the_baseline_is_deterministic(self):
        self.assertEqual(self.run_repeated(tq_support.BASELINE),
                         (0, "deterministic: 2 runs, identical counts and transcripts"))

    def test_a_nondeterministic_tester_is_named_with_its_first_round(self):
        status, line = self.run_repeated(tq_support.tester("nondeterministic"))
        self.assertEqual(status, 1)
        self.assertRegex(line, r"^nondeterministic: instance 0 \((calls|found|transcript) "
                               r"differ between runs 1 and 2: ")

    def test_a_second_run_on_the_same_folder_refuses(self):
        out = tq_support.tmpdir(self)
        self.assertTrue(local_run.lock_output(out))      # held for this process's life
        done = subprocess.run([sys.executable, LOCAL, "--limit", "1", "--out", out],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        self.assertEqual((done.returncode, done.stdout), (2, ""))
        self.assertEqual(done.stderr, "local: another run is writing to %r; wait for it to "
                                      "end, or give --out another folder\n" % out)


class ToolsTest(unittest.TestCase):
    """The template's self-check and sequential test, for this problem."""

    def command(self, name, *args):
        if name == "compare.py":    # a state file of its own, and the figures' seed
            args += ("--state", os.path.join(tq_support.tmpdir(self), "state.json"),
                     "--seed", "twenty-questions")
        done = subprocess.run([sys.executable, os.path.join(tq_support.PROJECT, "tq", name),
                               *args], capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        return done.returncode, done.stdout

    def test_the_self_check_gives_every_case_its_verdict(self):
        status, out = self.command("selfcheck.py")
        self.assertEqual(status, 0, out)
        self.assertIn("selfcheck: 8/8 cases as expected", out)
        self.assertIn("case: reads_set              expected: suspect          got: suspect", out)

    def test_a_tester_that_is_not_a_file_is_refused_by_name(self):
        done = subprocess.run([sys.executable, os.path.join(tq_support.PROJECT, "tq",
                                                            "compare.py"),
                               "--challenger", "no/such.py", "--incumbent", tq_support.BASELINE,
                               "--state", os.path.join(tq_support.tmpdir(self), "s.json")],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        self.assertEqual((done.returncode, done.stdout), (2, ""))
        self.assertEqual(done.stderr.splitlines()[-1],
                         "compare.py: error: --challenger 'no/such.py' is not a file")

    def test_a_tester_past_its_deadline_three_times_in_a_row_is_rejected(self):
        status, out = self.command("compare.py", "--challenger", tq_support.tester("hangs"),
                                   "--incumbent", tq_support.tester("gives_up"),
                                   "--instance-timeout", "1", "--test", "sign")
        lines = dict(line.split(": ", 1) for line in out.splitlines())
        self.assertEqual((status, lines["decision"], lines["reason"], lines["comparisons"],
                          lines["W/L/D"], lines["score_difference"], lines["timeouts"]),
                         (0, "reject", "timeouts: the challenger passed its deadline on 3 "
                          "comparisons in a row", "3", "0/3/0",
                          "0.0000 (99% confidence sequence -1.0000 to 1.0000, 3 comparisons)",
                          "challenger 3, incumbent 0"))

    def test_the_baseline_beats_the_fixed_order_and_not_the_reverse(self):
        weaker = tq_support.tester("fixed_order")
        cases = [(tq_support.BASELINE, weaker, "accept", "28", "23/5/0",
                  "0.3143 (99% confidence sequence -0.0491 to 0.9323, 28 comparisons)"),
                 (weaker, tq_support.BASELINE, "reject", "23", "5/18/0",
                  "-0.3078 (99% confidence sequence -1.0000 to 0.1829, 23 comparisons)")]
        for challenger, incumbent, decision, comparisons, counts, difference in cases:
            with self.subTest(decision=decision):
                status, out = self.command("compare.py", "--challenger", challenger,
                                           "--incumbent", incumbent, "--test", "sign")
                lines = dict(line.split(": ", 1) for line in out.splitlines())
                self.assertEqual((status, lines["decision"], lines["comparisons"],
                                  lines["W/L/D"], lines["score_difference"]),
                                 (0, decision, comparisons, counts, difference))
    def test_the_mean_test_decides_on_the_round_scores(self):
        weaker, baseline = tq_support.tester("fixed_order"), tq_support.BASELINE
        cases = [(baseline, weaker, (), ("accept", "accept_bound", "22", "17/5/0")),
                 (weaker, baseline, (), ("reject", "reject_bound", "22", "5/17/0")),
                 (baseline, baseline, ("--delta", "0.05"),
                  ("reject", "reject_bound", "102", "0/0/102"))]
        for challenger, incumbent, options, expected in cases:
            with self.subTest(expected=expected):
                status, out = self.command("compare.py", "--challenger", challenger,
                                           "--incumbent", incumbent, *options)
                lines = dict(line.split(": ", 1) for line in out.splitlines())
                self.assertEqual((status, lines["test"]), (0, "mean"))
                self.assertEqual((lines["decision"], lines["reason"], lines["comparisons"],
                                  lines["W/L/D"]), expected)
