"""grader/compare.py: the command on the real testers, a failing tester, a
state file that does not fit, and a run killed with SIGKILL and resumed.
Its testers run in workers of their own (test_compare_walls.py)."""

import contextlib
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
from arh_grader.compare import betting  # noqa: E402
from arh_grader.compare import log as compare_log  # noqa: E402
from arh_grader.compare import sprt  # noqa: E402
from arh_grader.compare import state as compare_state  # noqa: E402
from group_testing import instances  # noqa: E402

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



def state_of(pid):
    """The state letter of process `pid` (R, S, T, Z...), None when gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rpartition(")")[2].split()[0]
    except OSError:
        return None


def workers_of(pid):
    """{pid: state} of the harness workers whose parent is `pid`."""
    found = {}
    for name in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % name) as f:
                ppid = int(f.read().rpartition(")")[2].split()[1])
            with open("/proc/%s/cmdline" % name, "rb") as f:
                command = f.read()
        except (OSError, ValueError):
            continue
        if ppid == pid and b"harness/worker.py" in command:
            found[int(name)] = state_of(int(name))
    return found


class CommandTest(unittest.TestCase):
    def compare(self, *args, state=None, challenger=CALIBRATION, incumbent=support.SPLITTING):
        """Run the command; (status, stdout lines as a dict, stderr, state path)."""
        state = state or os.path.join(support.tmpdir(self), "state.json")
        status, stdout, stderr = support.run_command(
            self, "grader/compare.py", "--challenger", challenger, "--incumbent", incumbent,
            "--state", state, *args, timeout=300)
        return status, support.lines_of(stdout), stderr, state

    def test_the_real_testers_by_the_mean(self):
        zeros = betting.run(betting.Settings(delta=0.05), [0.0] * 1000).comparisons
        cases = [  # challenger, incumbent, options, decision, reason, W/L/D, most comparisons
            ("splitting vs splitting", support.SPLITTING, support.SPLITTING, ("--delta", "0.05"),
             "reject", "reject_bound", "0/0/%d" % zeros, 150),
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
        status, out, err, state = self.compare("--seed", SEED, "--instance-timeout", "2",
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
        status, again, err, _ = self.compare("--instance-timeout", "2", "--test", "sign",
                                             state=state, challenger=looping)
        self.assertEqual((status, again), (0, out), err)
        self.assertNotIn("comparisons 2,", err)

    def test_a_decided_state_runs_nothing_and_a_misfit_one_is_refused(self):
        options = ("--test", "sign", "--min-sample", "5", "--draw-ceiling", "0.5",
                   "--draw-alpha", "0.2")
        status, out, err, state = self.compare("--seed", SEED, *options,
                                               challenger=support.SPLITTING)
        self.assertEqual((status, out["reason"], out["comparisons"]), (0, "draw_ceiling", "5"))
        before = support.read_bytes(state)
        status, again, err, _ = self.compare(*options, state=state, challenger=support.SPLITTING)
        self.assertEqual((status, again, support.read_bytes(state)), (0, out, before))
        self.assertNotIn("comparison: ", err)
        self.assertIn("%s had decided already" % state, err)
        changed = support.write(self, "tester.py", HONEST.replace("def honest(", "def find(")
                                + "# edited\n")
        cases = [(("--alpha", "0.1") + options, support.SPLITTING,
                  "alpha is 0.05 there and 0.1 in this run; give --alpha 0.05 to go on with it"),
                 (("--test", "sign"), support.SPLITTING,
                  "draw_ceiling is 0.5 there and 0.85 in this run"),
                 ((), support.SPLITTING, "the test is 'sign' there and 'mean' in this run; "
                  "give --test sign to go on with it"),
                 (("--seed", "other") + options, support.SPLITTING,
                  "--seed 'other' differs from 'compare-test' saved there"),
                 (options, CALIBRATION, "the challenger is another version than the one this "
                  "state file was started with"),
                 (options, changed, "a new version of a tester needs a new state file, for "
                  "example --state compare-")]
        for args, challenger, words in cases:
            with self.subTest(args=args, challenger=challenger):
                status, out, err, _ = self.compare(*args, state=state, challenger=challenger)
                self.assertEqual((status, out), (2, {}))
                self.assertIn(words, err)
                self.assertIn(state, err)
        self.assertEqual(support.read_bytes(state), before)
        self.assertEqual(sorted(os.listdir(os.path.dirname(state))), ["state.json"])

    def test_bad_usage_exits_2_naming_the_value(self):
        folder = support.tmpdir(self)
        garbage = support.write(self, "state.json", "{not json")
        older = support.write(self, "state.json", json.dumps({"format": 1, "seed": "s"}))
        cases = [((), garbage, "is not JSON"),
                 ((), older, "format 1, where this compare.py reads 3; start a new state file"),
                 (("--delta", "0.7"), os.path.join(folder, "s.json"),
                  "delta must be in (0, 0.1], got 0.7"),
                 (("--test", "sign", "--delta", "0.7"), os.path.join(folder, "s.json"),
                  "delta must be in [0.01, 0.5), got 0.7"),
                 (("--instance-timeout", "-1"), os.path.join(folder, "s.json"),
                  "--instance-timeout must be a positive number of seconds, got -1.0"),
                 (("--sample-result", garbage), os.path.join(folder, "s.json"),
                  "--sample-result %r is not a result.json of grader/local.py" % garbage),
                 (("--log", "/nonexistent/r.tsv"), os.path.join(folder, "s.json"),
                  "--log '/nonexistent/r.tsv' is not in an existing folder"),
                 ((), os.path.join(folder, "missing", "s.json"), "is not in an existing folder")]
        for args, state, words in cases:
            with self.subTest(words=words):
                status, _, err, _ = self.compare(*args, state=state)
                self.assertEqual(status, 2, err)
                self.assertIn(words, err)
        status, _, err, _ = self.compare(challenger=os.path.join(folder, "none.py"))
        self.assertEqual(status, 2)
        self.assertIn("--challenger '%s' is not a file" % os.path.join(folder, "none.py"), err)
        self.assertEqual(sorted(os.listdir(folder)), [])

    def test_a_state_changed_by_hand_or_forged_is_refused(self):
        status, out, err, state = self.compare("--seed", SEED, "--test", "sign",
                                               "--max-decisive", "3")
        self.assertEqual((status, out["reason"], out["W/L/D"]), (0, "max_decisive", "2/1/0"), err)
        real = compare_state.load_json(state)
        self.assertEqual(real["digest"], compare_state.digest(real))

        def forged(change, *, seal):
            data = json.loads(json.dumps(real))
            change(data)
            if seal:
                data["digest"] = compare_state.digest(data)
            return support.write(self, "state.json", json.dumps(data))

        def settings(data, **values):
            data["settings"].update(values)

        def extend(data):                 # the file goes on past the decision
            data["comparisons"].append([1, 2, instances.draw_instance(SEED, 3)["baseline"]])
            data["record"] = dict(data["record"], wins=4)
            data["next_comparison"] = 5

        def seventeen(data):              # 17 wins nobody played, on the seed's instances
            data["settings"]["max_decisive"] = 536
            data["comparisons"] = [[1, 2, instances.draw_instance(SEED, k)["baseline"]]
                                   for k in range(17)]
            data["record"] = {"wins": 17, "losses": 0, "draws": 0, "decision": "accept",
                              "reason": "upper_bound"}
            data["next_comparison"] = 18

        sign3 = ("--test", "sign", "--max-decisive", "3")
        cases = [
            (lambda d: settings(d, alpha=0.2), False, (),
             "its content does not match its digest: it was changed after compare.py wrote it"),
            (lambda d: settings(d, alpha=0.2), True, sign3,
             "alpha is 0.2 there and 0.05 in this run"),
            (lambda d: d.update(seed="another"), True, sign3,
             "comparison 1, [%d, %d, %d], is not one of instance 0 of the seed 'another'"
             % tuple(real["comparisons"][0])),
            (lambda d: d["record"].update(wins=17, decision="accept", reason="upper_bound"),
             True, sign3, "is not the one its 3 comparisons give"),
            (extend, True, sign3,
             "the test had decided (accept) at comparison 3, yet the file holds 4"),
            (seventeen, True, ("--test", "sign"),
             "does not come out again: the challenger makes ")]
        for change, seal, args, words in cases:
            with self.subTest(words=words):
                path = forged(change, seal=seal)
                before = support.read_bytes(path)
                status, out, err, _ = self.compare(*args, state=path)
                self.assertEqual((status, out), (2, {}), err)
                self.assertIn(words, err)
                self.assertIn(path, err)
                self.assertEqual(support.read_bytes(path), before)

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

    def start_slow(self, *, stderr=subprocess.DEVNULL, hold=False):
        """compare.py in a real process on copies of the calibration and the
        shipped tester that sleep 0.05 s a call while a marker file exists
        (with `hold`, on every instance but the first, for as long as it
        exists);
        (process, its arguments but --state, state path, marker path)."""
        folder = support.tmpdir(self)
        marker = os.path.join(folder, "slow")
        open(marker, "w").close()
        first = instances.draw_instance(SEED, 0)["n"]
        wait = ("    while os.path.exists(SLOW) and n != %d:\n        time.sleep(0.01)\n" % first
                if hold else "    if os.path.exists(SLOW):\n        time.sleep(0.05)\n")
        slow = "import os, time\n\nSLOW = %r\n\n%s\n\ndef find(n, priors, test):\n" + \
               wait.replace("%", "%%") + "    return fast(n, priors, test)\n"
        with open(CALIBRATION, encoding="utf-8") as f:
            challenger = support.write(self, "challenger.py",
                                       slow % (marker, f.read().replace("def find(", "def fast(")))
        incumbent = support.write(self, "incumbent.py",
                                  slow % (marker, HONEST.replace("def honest(", "def fast(")))
        state = os.path.join(folder, "state.json")
        args = ["grader/compare.py", "--challenger", challenger, "--incumbent", incumbent,
                "--seed", SEED, "--instance-timeout", "600"]
        proc = subprocess.Popen([sys.executable, *args, "--state", state], cwd=support.ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=stderr, text=True)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        return proc, args, state, marker

    def wait_for(self, state, comparisons):
        """Return once `state` holds `comparisons` comparisons."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with contextlib.suppress(sprt.StateError):
                data = compare_state.load_json(state)
                if data and len(data["comparisons"]) >= comparisons:
                    return
            time.sleep(0.01)
        self.fail("%s never held %d comparisons" % (state, comparisons))

    def test_a_second_run_on_a_state_file_in_use_refuses(self):
        proc, args, state, marker = self.start_slow(hold=True)
        self.wait_for(state, 1)
        status, stdout, stderr = support.run_command(self, *args, "--state", state)
        self.assertEqual((status, stdout), (2, ""), stderr)
        self.assertIn("compare: %s is in use by another compare.py run (process %d holds "
                      "%s.lock)" % (state, proc.pid, state), stderr)
        os.unlink(marker)
        self.assertEqual(proc.wait(timeout=120), 0)
        self.assertEqual(sorted(os.listdir(os.path.dirname(state))), ["state.json"])
        self.assertEqual(compare_state.load_json(state)["record"]["decision"], "accept")

    def test_sigterm_and_ctrl_c_stop_a_run_with_one_line(self):
        for signum, name, code in ((signal.SIGTERM, "SIGTERM", 143),
                                   (signal.SIGINT, "Ctrl-C", 130)):
            with self.subTest(signal=name):
                proc, _, state, _ = self.start_slow(stderr=subprocess.PIPE)
                self.wait_for(state, 1)
                proc.send_signal(signum)
                _, err = proc.communicate(timeout=60)
                self.assertEqual(proc.returncode, code, err)
                saved = compare_state.load_json(state)
                done = len(saved["comparisons"])
                self.assertEqual(err.splitlines()[-1],
                                 "compare: stopped by %s; %s keeps %d comparisons, and the same "
                                 "command resumes from there" % (name, state, done))
                self.assertNotIn("Traceback", err)
                self.assertEqual(saved["record"]["decision"], "continue")
                self.assertEqual(done, err.count("comparison: "))
                self.assertEqual(sorted(os.listdir(os.path.dirname(state))),
                                 ["slow", "state.json"])

    def test_a_stop_before_the_state_is_written_says_there_is_none(self):
        folder = support.tmpdir(self)
        hold = os.path.join(folder, "hold")
        open(hold, "w").close()
        blocking = support.write(self, "blocking.py", "import os, time\nprint('started')\n"
                                 "while os.path.exists(%r):\n    time.sleep(0.01)\n\n"
                                 "def find(n, priors, test):\n    return []\n" % hold)
        state = os.path.join(folder, "state.json")
        proc = subprocess.Popen([sys.executable, "grader/compare.py", "--challenger", blocking,
                                 "--incumbent", support.SHIPPED, "--state", state],
                                cwd=support.ROOT, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        self.assertEqual(proc.stderr.readline(), "worker| started\n")   # the worker imports it
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        self.assertEqual((proc.returncode, err),
                         (143, "compare: stopped by SIGTERM before any comparison; no state "
                          "file was written\n"))
        self.assertEqual(sorted(os.listdir(folder)), ["hold"])

    def test_a_killed_run_leaves_no_frozen_worker_behind(self):
        """compare.py killed (SIGKILL) while one tester plays and the other's
        worker is frozen: both workers end, the frozen one too."""
        proc, _, state, _ = self.start_slow(hold=True)   # the 2nd instance holds the challenger
        self.wait_for(state, 1)
        frozen = self.poll(lambda: [pid for pid, s in workers_of(proc.pid).items() if s == "T"])
        workers = list(workers_of(proc.pid))
        self.assertEqual(len(workers), 2, workers)
        proc.send_signal(signal.SIGKILL)
        self.assertEqual(proc.wait(timeout=60), -signal.SIGKILL)
        self.poll(lambda: not [pid for pid in workers if state_of(pid) not in (None, "Z")])
        self.assertEqual(len(frozen), 1)

    def poll(self, found, seconds=60):
        """found()'s first true value within `seconds` (a bound, never a pace)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = found()
            if value:
                return value
            time.sleep(0.02)
        self.fail("not within %d s" % seconds)

    def test_a_killed_run_resumes_without_counting_a_comparison_twice(self):
        proc, args, state, marker = self.start_slow()
        self.wait_for(state, 3)
        proc.send_signal(signal.SIGKILL)
        self.assertEqual(proc.wait(timeout=60), -signal.SIGKILL)
        saved_state = compare_state.load_json(state)
        saved, done = saved_state["record"], len(saved_state["comparisons"])
        counts = compare_log.wld(None, saved_state["comparisons"])
        self.assertEqual(saved["comparisons"], done)
        self.assertGreaterEqual(done, 3)
        self.assertEqual(saved["decision"], "continue")
        os.unlink(marker)

        status, stdout, stderr = support.run_command(self, *args, "--state", state)
        self.assertEqual(status, 0, stderr)
        self.assertIn("compare: resuming %s at comparison %d, W/L/D %s"
                      % (state, done + 1, counts), stderr)
        self.assertIn("ran again with the same tests", stderr)
        numbers = [int(line.split()[1]) for line in stderr.splitlines()
                   if line.startswith("comparison: ")]
        out = support.lines_of(stdout)
        total = int(out["comparisons"])
        self.assertEqual(numbers, list(range(done + 1, total + 1)))
        # the same seed without the kill: the same comparisons, the same counts
        status, fresh, _, _ = self.compare("--seed", SEED)
        self.assertEqual(status, 0)
        for key in ("decision", "W/L/D", "comparisons", "score_difference"):
            self.assertEqual(out[key], fresh[key], key)
        self.assertEqual((out["decision"], out["W/L/D"]), ("accept", "21/1/0"))
        support.show("\nkilled after %d comparisons (W/L/D %s), resumed to %s after %d"
                     % (done, counts, out["decision"], total))


if __name__ == "__main__":
    unittest.main()


if __name__ == "__main__":
    unittest.main()
