"""Faults of the worker and the tester, and which verdict wins when two
happen.

Each fault runs through grader/local.py as a real process: the run ends
within its deadline with the fault's kind, result.json says so, and no
process the tester started is left (the tester prints its pids; afterwards
none is running; a zombie waiting for its reaper is not).

The order of verdicts on one instance, the earliest event first:
grader_error (the oracle failed) before oracle_cap (over 2n + 64 tests,
which happens before any answer) before the worker's failure (timeout,
no_answer, schema) before the answer's check (schema, then wrong). Tests
after the deadline are refused, uncounted, so a tester cannot go over the
cap once it has timed out. The self-check covers over the cap then hanging,
raising and a wrong answer; these tests cover the rest.
"""

import collections
import json
import os
import re
import signal
import subprocess
import sys
import time
import unittest

import support
from group_testing import selfcheck_cases
from support import problem
from arh_grader import Oracle, WorkerClient, engine

INSTANCE_TIMEOUT = 1.0     # seconds, for the faults that hang
START_TIMEOUT = 2.0        # seconds the worker has to start, for an import that hangs
READY_TIMEOUT = 10.0       # the same, for the faults that come once the worker runs: room
                           # for an interpreter's start on a loaded machine, which can pass
                           # 2 s, so that the fault, not the start, ends the run
SLACK = 8.0                # seconds a run may take beyond its deadline (start, stop)
GONE_WAIT = 5.0            # seconds to wait for a killed process to disappear
SETTINGS = support.settings(2.0)

# A process's pid as this test sees it: inside its PID namespace the worker
# is pid 1, but /proc is this machine's, and its "self" link names the pid
# outside (a readlink, which the walls allow where they forbid reading /proc).
OUTER_PID = "int(_os.readlink('/proc/self'))"
PIDS = """import os as _os, sys as _sys
def record_pid():
    _sys.stdout.write("tester-pid: %d\\n" % OUTER_PID)
    _sys.stdout.flush()
""".replace("OUTER_PID", OUTER_PID)  # its stdout reaches local.py's stderr: the walls let it write nowhere else
# a forked child that records its own pid, then sleeps (IGNORE: what it does first)
CHILD = """if _os.fork() == 0:
    IGNORE
    record_pid()
    time.sleep(3600)
"""

FAULTS = {
    # name: (tester source, local.py options, kind, words of the message)
    "dies_mid_instance": (PIDS + """
import signal
def find(n, priors, test):
    record_pid()
    for i in range(3):
        test([i])
    import ctypes
    ctypes.string_at(0)     # SIGSEGV: pid 1 of its namespace ignores its own SIGKILL
""", [], "no_answer", "dropped the connection"),
    "hangs_with_a_child": (PIDS + """
import signal, time
def find(n, priors, test):
    record_pid()
    """ + CHILD.replace("IGNORE", "pass").replace("\n", "\n    ") + """
    test([0])
    time.sleep(3600)
""", ["--instance-timeout", str(INSTANCE_TIMEOUT)], "timeout", "no answer within 1.0 s"),
    "child_ignores_sigterm": (PIDS + """
import signal, time
def find(n, priors, test):
    record_pid()
    """ + CHILD.replace("IGNORE", "signal.signal(signal.SIGTERM, signal.SIG_IGN)").replace(
        "\n", "\n    ") + """
    time.sleep(3600)
""", ["--instance-timeout", str(INSTANCE_TIMEOUT)], "timeout", "no answer within 1.0 s"),
    "import_hangs": (PIDS + """
import time
record_pid()
time.sleep(3600)
def find(n, priors, test):
    return []
""", ["--start-timeout", str(START_TIMEOUT)], "no_answer",
        "did not start listening within 2 s"),
    "never_healthy": (PIDS + """
import __main__, time
record_pid()
__main__.Worker.Handler.do_GET = lambda self: time.sleep(3600)    # /health never answers
def find(n, priors, test):
    return []
""", ["--start-timeout", str(READY_TIMEOUT)], "no_answer", "was not healthy within 10 s"),
    "exits_at_import": (PIDS + """
record_pid()
_os._exit(3)
""", ["--start-timeout", str(READY_TIMEOUT)], "no_answer", "(exit status 3)"),
}


def running(pid):
    """Whether process `pid` exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def recorded(output):
    """The pids a tester printed with record_pid, in `output`."""
    return [int(pid) for pid in re.findall(r"^worker\| tester-pid: (\d+)$", output, re.M)]


def kill_recorded(pids, folder):
    """Kill what is left of `pids`, processes a tester in `folder` recorded:
    only those whose environment names that folder (a pid may be reused)."""
    for pid in pids:
        try:
            with open("/proc/%d/environ" % pid, "rb") as f:
                if folder.encode() not in f.read():
                    continue
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def wait_gone(pids, timeout=GONE_WAIT):
    """The pids still running after up to `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = [pid for pid in pids if running(pid)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


class FaultTest(unittest.TestCase):
    """Each fault through grader/local.py: its kind, its deadline, no process left."""

    def test_each_fault_ends_in_time_with_its_kind(self):
        for name, (source, options, kind, words) in FAULTS.items():
            with self.subTest(fault=name):
                tester = support.write(self, "tester.py", source)
                folder = os.path.dirname(tester)
                out = os.path.join(folder, "out")
                started = time.monotonic()
                status, stdout, stderr = support.run_command(
                    self, "grader/local.py", "--tester", tester, "--out", out,
                    "--limit", "2", *options, timeout=120)
                elapsed = time.monotonic() - started
                with open(os.path.join(out, "result.json")) as f:
                    result = json.load(f)
                pids = recorded(stderr)
                self.addCleanup(kill_recorded, pids, folder)
                left = wait_gone(pids)
                support.show("fault: %-21s kind %-9s in %.1f s; %d process(es), %d left"
                             % (name, result["kind"], elapsed, len(pids), len(left)))
                self.assertEqual(status, 1, stderr[-2000:])
                self.assertEqual((result["status"], result["kind"]), ("invalid", kind))
                self.assertIn(words, result["message"])
                self.assertEqual(support.lines_of(stdout)["kind"], kind)
                deadline = (INSTANCE_TIMEOUT if kind == "timeout" else
                            float(options[options.index("--start-timeout") + 1])
                            if "--start-timeout" in options else 0)
                self.assertLess(elapsed, deadline + SLACK)
                self.assertEqual(len(pids), 2 if "child" in name else 1)
                self.assertEqual(left, [])

    def test_a_child_that_leaves_the_group_does_not_hold_the_run(self):
        """A child in a session of its own escapes the group kill (only the
        container's end stops it); the run still ends on time."""
        tester = support.write(self, "tester.py", PIDS + """
import subprocess, sys, time
def find(n, priors, test):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"],
                             start_new_session=True)
    record_pid(child.pid)
    time.sleep(3600)
""")
        folder = os.path.dirname(tester)
        started = time.monotonic()
        with open(os.path.join(folder, "output"), "wb") as output:   # not a pipe: the
            status = subprocess.run(                                   # child holds it
                [sys.executable, "grader/local.py", "--tester", tester, "--out",
                 os.path.join(folder, "out"), "--limit", "1", "--instance-timeout",
                 str(INSTANCE_TIMEOUT)], cwd=support.ROOT, stdin=subprocess.DEVNULL,
                stdout=output, stderr=output, timeout=120).returncode
        elapsed = time.monotonic() - started
        with open(os.path.join(folder, "output"), encoding="utf-8") as f:
            self.addCleanup(kill_recorded, recorded(f.read()), folder)
        self.assertEqual(status, 1)
        self.assertLess(elapsed, INSTANCE_TIMEOUT + SLACK)

    def test_dies_mid_instance_counts_its_tests(self):
        items = support.PROBLEM.load_set(support.SAMPLE)[:2]
        tester = support.write(self, "tester.py", FAULTS["dies_mid_instance"][0])
        result = support.evaluate_local(items, tester=tester, settings=SETTINGS, quiet=True)
        self.assertEqual((result["kind"], result["index"]), ("no_answer", 0))
        self.assertEqual(result["items"][0]["tests"], 3)


class PrecedenceTest(unittest.TestCase):
    """Two faults on one instance: the earliest event wins."""

    def verdict(self, body, items=None, settings=None, prelude=""):
        items = items or support.PROBLEM.load_set(support.SAMPLE)[:2]
        tester = selfcheck_cases.counterfeit(support.tmpdir(self), body, prelude=prelude)
        return support.evaluate_local(items, tester=tester,
                                    settings=settings or SETTINGS, quiet=True)

    def test_over_the_cap_wins_over_what_follows(self):
        spam = "try:\n    while True: test([0])\nexcept Exception:\n    pass\n"
        cases = {
            "then_the_right_answer": spam + "return d",
            "then_an_answer_of_the_wrong_type": spam + "return {'answer': d}",
            "then_not_json": spam + "return set(d)",
            "then_the_process_exits": spam + "os._exit(3)",
            "then_raises": spam + "raise RuntimeError('after the cap')",
        }
        for name, body in cases.items():
            with self.subTest(case=name):
                result = self.verdict(body)
                self.assertEqual((result["kind"], result["index"]), ("oracle_cap", 0))
                item = result["items"][0]
                self.assertEqual(item["tests"], problem.cap(item["n"]) + 1)

    def test_tests_after_the_deadline_are_refused_so_no_cap(self):
        """The tester sleeps past its deadline, then makes 3n tests: each is
        refused (403), none counted, and the verdict stays timeout."""
        tester = selfcheck_cases.counterfeit(
            support.tmpdir(self),
            "time.sleep(%r)\n"
            "replies = []\n"
            "for i in range(3 * n):\n"
            "    try:\n        test([0])\n        replies.append('answered')\n"
            "    except Exception as e:\n        replies.append(str(e)[:80])\n"
            "with open(os.path.join(os.path.dirname(__file__), 'late'), 'w') as f:\n"
            "    f.write('\\n'.join(replies))\n"
            "return d" % (INSTANCE_TIMEOUT + 1.0))
        folder = os.path.dirname(tester)
        oracle = support.start_oracle(self)
        _, url = support.start_worker(self, oracle.url, tester, home=folder)   # it writes there
        item = support.PROBLEM.load_set(support.SAMPLE)[0]
        result = engine.evaluate([item], problem=support.PROBLEM, oracle=oracle,
                                 worker=WorkerClient(url),
                                 settings=support.settings(INSTANCE_TIMEOUT))
        self.assertEqual((result["kind"], result["index"]), ("timeout", 0))
        self.assertEqual(result["items"][0]["tests"], item["baseline"])
        late = os.path.join(folder, "late")
        deadline = time.monotonic() + 10
        while not os.path.exists(late) and time.monotonic() < deadline:
            time.sleep(0.05)
        with open(late) as f:
            replies = f.read().split("\n")
        refused = "oracle answered 403: unknown or closed token: not counted"
        self.assertEqual(collections.Counter(replies), {refused: 3 * item["n"]})

    def test_schema_wins_over_wrong_in_one_answer(self):
        for name, body in {"a string among items out of range": "return [n, str(d[0]), -1]",
                           "a boolean before an unsorted tail": "return [True] + d[::-1]"
                           }.items():
            with self.subTest(case=name):
                result = self.verdict(body)
                self.assertEqual((result["kind"], result["index"]), ("schema", 0))

    def test_the_run_deadline_times_out_the_instance_it_reaches(self):
        # instance 0 answers at once and instance 1 never: with an instance
        # deadline far beyond the run's, only the run's can end it, however
        # long the worker took to start
        result = self.verdict("CALLS.append(1)\nif len(CALLS) > 1:\n"
                              "    time.sleep(3600)\nreturn d", prelude="CALLS = []\n",
                              settings=SETTINGS.replace(run_timeout_s=5.0,
                                                        instance_timeout_s=600.0))
        self.assertEqual((result["kind"], result["index"]), ("timeout", 1))
        self.assertEqual(len(result["items"]), 2)

    def test_an_oracle_fault_wins_over_everything(self):
        """The oracle fails on one test; the tester then goes over the cap
        and answers wrong: the run is the grader's fault."""
        class Faulty(type(support.PROBLEM)):
            def answer_query(self, secret, query):
                if query["pool"] == [0]:
                    raise RuntimeError("a fault of the oracle's own")
                return problem.answer_query(secret, query)

        oracle = Oracle().start()
        self.addCleanup(oracle.stop)
        tester = selfcheck_cases.counterfeit(
            support.tmpdir(self),
            "for pool in ([0], [1]) + ([1],) * (3 * n):\n"
            "    try:\n        test(pool)\n    except Exception:\n        pass\n"
            "return []")
        _, url = support.start_worker(self, oracle.url, tester)
        items = support.PROBLEM.load_set(support.SAMPLE)[:2]
        result = engine.evaluate(items, problem=Faulty(), oracle=oracle,
                                 worker=WorkerClient(url), settings=support.settings(10))
        self.assertEqual((result["kind"], result["index"]), ("grader_error", 0))
        self.assertIn("RuntimeError: a fault of the oracle's own", result["message"])
        self.assertEqual(support.engine.exit_status(result), 2)


if __name__ == "__main__":
    unittest.main()
