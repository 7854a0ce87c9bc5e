"""grader/compare.py: its in-process oracle against the HTTP pipeline's
counts, the command on the real testers, a failing tester, a state file that
does not fit, and a run killed with SIGKILL and resumed."""

import json
import os
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # also as tests.test_compare
import support  # noqa: E402
import compare  # noqa: E402
import instances  # noqa: E402
import sprt  # noqa: E402

CALIBRATION = os.path.join(support.GRADER, "calibration.py")
SEED = "compare-test"
HTTP_SETTINGS = {"instance_timeout_s": 10.0, "run_timeout_s": 60.0,
                 "worker_start_timeout_s": 10.0}
with open(support.SPLITTING, encoding="utf-8") as _f:
    HONEST = _f.read().replace("def find(", "def honest(")

# Valid in the end, but on the way: six pools the oracle answers 400, one body
# over max_body (413), two pools that are not JSON (never sent), a tuple pool
# (a list once sent), tuple pools throughout and a tuple answer.
ODD = HONEST + """
def find(n, priors, test):
    for pool in ([], [0, 0], [n], [True], [1.0], [float("nan")], [0] * (3 * n), {0},
                 (0, 1), range(2)):
        try:
            test(pool)
        except Exception:
            pass
    return tuple(honest(n, priors, lambda pool: test(tuple(pool))))
"""
OVER_CAP = HONEST + """
def find(n, priors, test):
    while True:
        try:
            test([0])
        except Exception:
            break
    return honest(n, priors, test)
"""


class CountingOracleTest(unittest.TestCase):
    def http_and_here(self, path, items):
        """(HTTP result, [(oracle, failure)] in process) for the tester at `path`."""
        result = support.local.evaluate_local(items, tester=path, settings=HTTP_SETTINGS)
        find = compare.load_tester(path, "challenger")
        return result, [compare.solve_one(find, item) for item in items]

    def test_counts_equal_the_http_oracles_exactly(self):
        items = instances.draw(6, "http-counts")
        odd = support.write(self, "odd.py", ODD)
        cases = [("splitting", support.SPLITTING, [17, 37, 35, 308, 56, 125], 0),
                 ("calibration", CALIBRATION, [17, 24, 30, 202, 35, 70], 0),
                 ("odd pools", odd, [17 + 8, 37 + 8, 35 + 8, 308 + 8, 56 + 8, 125 + 8], 6)]
        for name, path, tests, invalid in cases:
            with self.subTest(tester=name):
                result, here = self.http_and_here(path, items)
                self.assertEqual((result["status"], result["kind"]), ("valid", None))
                self.assertEqual([e["tests"] for e in result["items"]], tests)
                self.assertEqual([o.tests for o, _ in here], tests)
                self.assertEqual([e["invalid_tests"] for e in result["items"]], [invalid] * 6)
                self.assertEqual([o.invalid for o, _ in here], [invalid] * 6)
                self.assertEqual([f for _, f in here], [None] * 6)

    def test_the_cap_is_counted_and_failed_as_over_http(self):
        items = instances.draw(1, "http-counts")
        cap = support.problem.cap(items[0]["n"])
        result, [(oracle, failure)] = self.http_and_here(
            support.write(self, "over.py", OVER_CAP), items)
        self.assertEqual((result["kind"], result["index"]), ("oracle_cap", 0))
        self.assertEqual(result["items"][0]["tests"], cap + 2)
        self.assertEqual((oracle.tests, oracle.over_cap, failure.kind), (cap + 2, True,
                                                                         "oracle_cap"))

    def test_each_bad_answer_gets_the_graders_kind(self):
        item = instances.draw_instance("http-counts", 0)
        cases = [("missing", "return d[:-1]", "wrong", "is not the set of defectives"),
                 ("unsorted", "return d[::-1]", "wrong", "must be sorted and distinct"),
                 ("a set", "return set(d)", "schema", "find returned set, which is not JSON"),
                 ("booleans", "return [True for x in d]", "schema", "list of integers"),
                 ("raises", "raise KeyError('boom')", "no_answer", "KeyError: 'boom'"),
                 ("exits", "raise SystemExit(3)", "no_answer", "SystemExit: 3"),
                 ("a tuple", "return tuple(d)", None, None)]
        for name, body, kind, words in cases:
            with self.subTest(case=name):
                namespace = {}
                exec(HONEST + "\ndef find(n, priors, test):\n    d = honest(n, priors, test)\n"
                     "    " + body + "\n", namespace)
                oracle, failure = compare.solve_one(namespace["find"], item)
                self.assertEqual(oracle.tests, item["baseline"])
                if kind is None:
                    self.assertIsNone(failure)
                else:
                    self.assertEqual(failure.kind, kind)
                    self.assertIn(words, failure.message)


class CommandTest(unittest.TestCase):
    def compare(self, *args, state=None, challenger=CALIBRATION, incumbent=support.SPLITTING):
        """Run the command; (status, stdout lines as a dict, stderr, state path)."""
        state = state or os.path.join(support.tmpdir(self), "state.json")
        status, stdout, stderr = support.run_command(
            self, "grader/compare.py", "--challenger", challenger, "--incumbent", incumbent,
            "--state", state, *args, timeout=120)
        return status, support.lines_of(stdout), stderr, state

    def test_the_real_testers(self):
        cases = [  # challenger, incumbent, decision, reason, W/L/D
            ("splitting vs splitting", support.SPLITTING, support.SPLITTING,
             "reject", "draw_ceiling", "0/0/30"),
            ("calibration vs splitting", CALIBRATION, support.SPLITTING,
             "accept", "upper_bound", "18/1/1"),
            ("splitting vs calibration", support.SPLITTING, CALIBRATION,
             "reject", "lower_bound", "1/15/1")]
        for name, challenger, incumbent, decision, reason, counts in cases:
            with self.subTest(case=name):
                status, out, err, _ = self.compare("--seed", SEED, challenger=challenger,
                                                   incumbent=incumbent)
                self.assertEqual(status, 0, err)
                self.assertEqual((out["decision"], out["reason"], out["W/L/D"]),
                                 (decision, reason, counts))
                total = sum(int(x) for x in counts.split("/"))
                self.assertEqual(out["comparisons"], str(total))
                self.assertLessEqual(total, 40)
                self.assertEqual((out["fixed_sample"], out["saved"]), ("266", str(266 - total)))
                progress = [line for line in err.splitlines() if line.startswith("comparison: ")]
                self.assertEqual(len(progress), total)
                self.assertIn("W/L/D: %s llr: %s bounds: -2.944/2.944" % (counts, out["llr"]),
                              progress[-1])
                print("\n%s: %s after %s comparisons (W/L/D %s), fixed sample 266"
                      % (name, decision, total, counts))

    def test_a_wrong_answer_ends_the_run_naming_the_instance(self):
        wrong = support.write(self, "wrong.py", HONEST + """
CALLS = [0]

def find(n, priors, test):
    CALLS[0] += 1
    d = honest(n, priors, test)
    return d[:-1] if CALLS[0] == 3 else d
""")
        status, out, err, state = self.compare("--seed", SEED, challenger=wrong)
        self.assertEqual(status, 1, err)
        self.assertIn("wrong: comparison 3 (instance index 2 of seed 'compare-test', n=",
                      out["error"])
        self.assertIn("the challenger failed: the answer", out["error"])
        self.assertEqual(out["comparisons"], "2")
        saved = sprt.load_json(state)
        self.assertEqual((saved["next_comparison"], saved["record"]["decision"]), (3, "continue"))

    def test_a_decided_state_runs_nothing_and_a_misfit_one_is_refused(self):
        status, out, err, state = self.compare("--seed", SEED, "--min-sample", "5",
                                               challenger=support.SPLITTING)
        self.assertEqual((status, out["reason"], out["comparisons"]), (0, "draw_ceiling", "5"))
        before = support.read_bytes(state)
        status, again, err, _ = self.compare(state=state, challenger=support.SPLITTING)
        self.assertEqual((status, again, support.read_bytes(state)), (0, out, before))
        self.assertNotIn("comparison: ", err)
        changed = support.write(self, "tester.py", HONEST.replace("def honest(", "def find(")
                                + "# edited\n")
        cases = [(("--alpha", "0.1"), support.SPLITTING, "--alpha 0.1 differs from 0.05 saved"),
                 (("--min-sample", "30"), support.SPLITTING, "--min-sample 30 differs from 5"),
                 (("--seed", "other"), support.SPLITTING,
                  "--seed 'other' differs from 'compare-test' saved"),
                 ((), CALIBRATION, "the challenger '%s' is not the file" % CALIBRATION),
                 ((), changed, "the challenger '%s' is not the file" % changed)]
        for args, challenger, words in cases:
            with self.subTest(args=args, challenger=challenger):
                status, out, err, _ = self.compare(*args, state=state, challenger=challenger)
                self.assertEqual((status, out), (2, {}))
                self.assertIn(words, err)
        self.assertEqual(support.read_bytes(state), before)

    def test_bad_usage_and_bad_state_files_exit_2(self):
        folder = support.tmpdir(self)
        garbage = support.write(self, "state.json", "{not json")
        good = {"format": 1, "settings": sprt.Settings().to_dict(), "seed": "s",
                "testers": {"challenger": "x", "incumbent": "y"}, "next_comparison": 1,
                "record": sprt.WinRecord().to_dict()}
        skipped = support.write(self, "state.json", json.dumps(dict(good, next_comparison=4)))
        cases = [((), garbage, "is not JSON"),
                 ((), skipped, "next_comparison is 4 but the record holds 0 comparisons"),
                 (("--delta", "0.7"), os.path.join(folder, "s.json"),
                  "delta must be in (0, 0.5), got 0.7"),
                 ((), os.path.join(folder, "missing", "s.json"), "is not in an existing folder")]
        for args, state, words in cases:
            with self.subTest(words=words):
                status, _, err, _ = self.compare(*args, state=state)
                self.assertEqual(status, 2, err)
                self.assertIn(words, err)
        status, _, err, _ = self.compare(challenger=os.path.join(folder, "none.py"))
        self.assertEqual(status, 2)
        self.assertIn("--challenger '%s' is not a file" % os.path.join(folder, "none.py"), err)

    def start_slow(self, *, stderr=subprocess.DEVNULL):
        """compare.py in a real process on copies of the calibration and the
        frozen binary splitting that sleep 0.05 s a call while a marker file exists;
        (process, its arguments but --state, state path, marker path)."""
        folder = support.tmpdir(self)
        marker = os.path.join(folder, "slow")
        open(marker, "w").close()
        slow = "import os, time\n\nSLOW = %r\n\n%s\n\ndef find(n, priors, test):\n" \
               "    if os.path.exists(SLOW):\n        time.sleep(0.05)\n" \
               "    return fast(n, priors, test)\n"
        with open(CALIBRATION, encoding="utf-8") as f:
            challenger = support.write(self, "challenger.py",
                                       slow % (marker, f.read().replace("def find(", "def fast(")))
        incumbent = support.write(self, "incumbent.py",
                                  slow % (marker, HONEST.replace("def honest(", "def fast(")))
        state = os.path.join(folder, "state.json")
        args = ["grader/compare.py", "--challenger", challenger, "--incumbent", incumbent,
                "--seed", SEED]
        proc = subprocess.Popen([sys.executable, *args, "--state", state], cwd=support.ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=stderr, text=True)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        return proc, args, state, marker

    def signal_after(self, proc, state, comparisons, signum):
        """Send `signum` to `proc` once `state` holds `comparisons`."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            data = sprt.load_json(state) if os.path.exists(state) else None
            if data and data["next_comparison"] > comparisons:
                proc.send_signal(signum)
                return
            time.sleep(0.01)
        self.fail("%s never held %d comparisons" % (state, comparisons))

    def test_sigterm_stops_a_run_cleanly(self):
        proc, _, state, _ = self.start_slow(stderr=subprocess.PIPE)
        self.signal_after(proc, state, 1, signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        self.assertEqual(proc.returncode, 143, err)
        self.assertIn("compare: stopped by SIGTERM; the state file resumes the run", err)
        saved = sprt.load_json(state)
        self.assertEqual(saved["record"]["decision"], "continue")
        self.assertEqual(saved["next_comparison"] - 1, err.count("comparison: "))
        self.assertEqual(sorted(os.listdir(os.path.dirname(state))), ["slow", "state.json"])

    def test_a_killed_run_resumes_without_counting_a_comparison_twice(self):
        proc, args, state, marker = self.start_slow()
        self.signal_after(proc, state, 3, signal.SIGKILL)
        self.assertEqual(proc.wait(timeout=10), -signal.SIGKILL)
        saved = sprt.load_json(state)["record"]
        done = sum(saved[k] for k in ("wins", "losses", "draws"))
        self.assertGreaterEqual(done, 3)
        self.assertEqual(saved["decision"], "continue")
        os.unlink(marker)

        status, stdout, stderr = support.run_command(self, *args, "--state", state)
        self.assertEqual(status, 0, stderr)
        self.assertIn("compare: resuming %s at comparison %d, W/L/D %d/%d/%d"
                      % (state, done + 1, saved["wins"], saved["losses"], saved["draws"]),
                      stderr)
        numbers = [int(line.split()[1]) for line in stderr.splitlines()
                   if line.startswith("comparison: ")]
        out = support.lines_of(stdout)
        total = int(out["comparisons"])
        self.assertEqual(numbers, list(range(done + 1, total + 1)))
        # the same seed without the kill: the same comparisons, the same counts
        status, fresh, _, _ = self.compare("--seed", SEED)
        self.assertEqual(status, 0)
        self.assertEqual((out["decision"], out["W/L/D"], out["comparisons"]),
                         (fresh["decision"], fresh["W/L/D"], fresh["comparisons"]))
        self.assertEqual((out["decision"], out["W/L/D"]), ("accept", "18/1/1"))
        print("\nkilled after %d comparisons (W/L/D %d/%d/%d), resumed to %s after %d"
              % (done, saved["wins"], saved["losses"], saved["draws"], out["decision"], total))


if __name__ == "__main__":
    unittest.main()
