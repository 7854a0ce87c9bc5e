"""The whole evaluation as a user runs it: grader/local.py in a real process,
frozen binary splitting and the tester in src/, broken sets, and every
verdict of the self-check."""

import json
import os
import signal
import statistics
import subprocess
import sys
import time
import unittest

import support
from arh_grader.commands import selfcheck
from group_testing import selfcheck_cases


class LocalRunTest(unittest.TestCase):
    def run_local(self, *args):
        out = support.tmpdir(self)
        status, stdout, stderr = support.run_command(self, "grader/local.py", "--out", out,
                                                     *args)
        with open(os.path.join(out, "result.json"), "rb") as f:
            blob = f.read()
        return status, support.lines_of(stdout), stderr, blob

    def test_binary_splitting_scores_exactly_one_on_the_sample(self):
        status, lines, stderr, blob = self.run_local("--tester", support.SPLITTING)
        self.assertEqual(status, 0, stderr)
        result = json.loads(blob)
        with open(support.SAMPLE) as f:
            baselines = [json.loads(line)["baseline"] for line in f]
        self.assertEqual((result["status"], result["kind"]), ("valid", None))
        self.assertEqual(result["relative_tests"], 1.0)
        self.assertEqual([e["score"] for e in result["items"]], [1.0] * 40)
        self.assertEqual([e["tests"] for e in result["items"]], baselines)
        self.assertEqual(result["tests"], round(statistics.fmean(baselines), 6))
        self.assertEqual(lines["relative_tests"], "1.0")
        self.assertEqual(lines["status"], "valid")
        self.assertIn("progress: 40/40", stderr)
        for key in ("status", "kind", "relative_tests", "tests", "query_bytes",
                    "answer_bytes", "items", "entropy_bound"):
            self.assertIn(key, result)
        for key in ("score", "tests", "baseline", "bound", "surprise", "transcript"):
            self.assertIn(key, result["items"][0])

    def test_the_tester_in_src_gives_a_valid_deterministic_run(self):
        """Whatever src/tester.py holds, as long as it is honest: valid on
        the whole sample, and the same transcripts when run twice."""
        status, lines, stderr, blob = self.run_local("--repeat", "2")
        self.assertEqual(status, 0, stderr[-2000:])
        result = json.loads(blob)
        self.assertEqual((result["status"], result["kind"]), ("valid", None))
        self.assertEqual(len(result["items"]), 40)
        self.assertEqual(lines["deterministic"], "2 runs, identical counts and transcripts")
        for entry in result["items"]:
            with self.subTest(instance=entry["index"]):
                self.assertEqual(entry["score"], round(entry["tests"] / entry["baseline"], 6))

    def test_two_runs_give_identical_bytes(self):
        blobs = [self.run_local("--limit", "10")[3] for _ in range(2)]
        self.assertEqual(blobs[0], blobs[1])

    def test_a_broken_set_is_invalid_set_naming_the_line(self):
        with open(support.SAMPLE) as f:
            good = [json.loads(line) for line in f][:3]
        cases = {
            "not json": (["{"], "line 1: "),
            "missing field": ([{k: v for k, v in good[0].items() if k != "baseline"}],
                              "line 1: fields must be"),
            "prior of 1": ([good[0], dict(good[1], priors=[1.0] * good[1]["n"])],
                           "line 2: prior 0 must be a number strictly between 0 and 1"),
            "wrong baseline": ([good[0], good[1], dict(good[2], baseline=1)],
                               "line 3: baseline is 1 but binary splitting takes"),
            "unsorted": ([dict(good[0], defectives=good[0]["defectives"][::-1])],
                         "line 1: defectives must be sorted"),
            "nan": (['{"n": NaN}'], "line 1: NaN is not JSON"),
            "blank line": ([good[0], good[1], "", good[2]], "items.jsonl line 3 is blank"),
        }
        for name, (lines, words) in cases.items():
            text = "".join((l if isinstance(l, str) else json.dumps(l)) + "\n" for l in lines)
            path = support.write(self, "items.jsonl", text)
            with self.subTest(name=name):
                status, out, _, blob = self.run_local("--items", path)
                result = json.loads(blob)
                self.assertEqual(status, 2)
                self.assertEqual((result["status"], result["kind"]), ("invalid", "invalid_set"))
                self.assertIn(words, result["message"])
                self.assertEqual(out["kind"], "invalid_set")

    def test_bad_options_are_refused_naming_the_value(self):
        for option, value in (("--limit", "0"), ("--limit", "x"), ("--repeat", "-2"),
                              ("--instance-timeout", "nan"), ("--start-timeout", "0")):
            with self.subTest(option=option, value=value):
                status, out, err = support.run_command(self, "grader/local.py", option, value)
                self.assertEqual((status, out), (2, ""))
                self.assertIn("argument %s: must be a number above 0, got %r"
                              % (option, value), err)

    def test_a_missing_set_file_is_invalid_set(self):
        status, out, _, blob = self.run_local("--items", "/nonexistent/items.jsonl")
        self.assertEqual((status, json.loads(blob)["kind"]), (2, "invalid_set"))
        self.assertIn("cannot read /nonexistent/items.jsonl", out["message"])


class InterruptTest(unittest.TestCase):
    """Ctrl-C or SIGTERM in the middle of a run: the worker goes with it."""

    # find prints its pid (its stdout reaches local.py's stderr) and sleeps
    # until the signal: the run is mid-instance however slow the machine is.
    # Its pid as /proc names it, the machine's: os.getpid() is 1, the pid
    # of the worker in its own PID namespace (arh_grader/pidns.py)
    TESTER = ("import os, sys, time\n"
              "def find(n, priors, test):\n"
              "    sys.stdout.write('tester-pid: %s\\n' % os.readlink('/proc/self'))\n"
              "    sys.stdout.flush()\n"
              "    time.sleep(3600)\n")

    @staticmethod
    def default_sigint():
        """In the child: SIGINT to its default, which Python turns into
        KeyboardInterrupt. A shell that runs the tests in the background
        ignores SIGINT, and its children would inherit that."""
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    @staticmethod
    def kill_left(pids):
        """Kill a worker that a failed test left sleeping."""
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def test_signals_reap_the_worker(self):
        for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
            with self.subTest(signal=sig.name):
                tester = support.write(self, "tester.py", self.TESTER)
                proc = subprocess.Popen(
                    [sys.executable, "grader/local.py", "--tester", tester,
                     "--instance-timeout", "600", "--out", support.tmpdir(self)],
                    cwd=support.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    preexec_fn=self.default_sigint)
                self.addCleanup(proc.kill)
                pids = []
                self.addCleanup(self.kill_left, pids)
                for line in proc.stderr:            # up to find's line, however long
                    if line.startswith(b"worker| tester-pid: "):
                        pids.append(int(line.split()[-1]))
                        break
                self.assertEqual(len(pids), 1, "find never started")
                worker = pids[0]
                proc.send_signal(sig)
                proc.communicate(timeout=20)
                self.assertEqual(proc.returncode, status)
                with self.assertRaises(ProcessLookupError):
                    os.kill(worker, 0)


class SelfCheckTest(unittest.TestCase):
    """Each case of grader/selfcheck.py: a real tester, its exact verdict;
    the failing ones (selfcheck_cases.FAILING) in test_cheat.py, which runs
    them with their messages."""

    def test_every_case_gets_its_verdict(self):
        items = support.PROBLEM.load_set(support.SAMPLE)[:selfcheck_cases.INSTANCES]
        workdir = support.tmpdir(self)
        for case in selfcheck_cases.CASES:
            if case in selfcheck_cases.FAILING:
                continue
            with self.subTest(case=case.name):
                got, detail = selfcheck.run_case(case, problem=support.PROBLEM, items=items,
                                                 settings=selfcheck_cases.SETTINGS,
                                                 workdir=workdir)
                self.assertEqual(got, case.expected, detail)

    def test_the_command_reports_all_cases(self):
        status, out, _ = support.run_command(self, "grader/selfcheck.py", "--case", "no_find")
        self.assertEqual(status, 0)
        self.assertIn("selfcheck: 1/1 cases as expected", out)


if __name__ == "__main__":
    unittest.main()
