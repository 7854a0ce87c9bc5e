"""grader/compare.py stopped: a second run on a state file in use
refuses, SIGTERM and Ctrl-C stop a run with one line (before any state
file, too), and a run killed with SIGKILL leaves no frozen worker behind
and resumes without counting a comparison twice. Every wait is on a file
or a process, under a generous deadline."""

import contextlib
import os
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: support
import support  # noqa: E402
from arh_grader import cgroup  # noqa: E402
from arh_grader.compare import log as compare_log  # noqa: E402
from arh_grader.compare import sprt  # noqa: E402
from arh_grader.compare import state as compare_state  # noqa: E402
from group_testing import instances  # noqa: E402
from test_compare import CALIBRATION, HONEST, SEED, Commands  # noqa: E402


def state_of(pid):
    """The state letter of process `pid` (R, S, T, Z...), None when gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rpartition(")")[2].split()[0]
    except OSError:
        return None


def is_frozen(pid):
    """Whether the worker whose init (or itself) is `pid` is frozen: stopped
    (SIGSTOP), or its worker in a frozen cgroup (arh_grader/cgroup.py: the
    init stays out of it)."""
    if state_of(pid) == "T":
        return True
    for name in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % name) as f:
                if int(f.read().rpartition(")")[2].split()[1]) != pid:
                    continue
            with open("/proc/%s/cgroup" % name) as f:
                path = [line[3:].strip() for line in f if line.startswith("0::")][0]
            root = cgroup.mount()
            with open(os.path.join(root, path.lstrip("/"), "cgroup.events")) as f:
                return "frozen 1" in f.read().splitlines()
        except (OSError, ValueError, IndexError, TypeError):
            continue
    return False


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


class CommandTest(Commands, unittest.TestCase):
    maxDiff = None
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
        # the challenger holds on its instance and the incumbent's worker is
        # frozen: one of two stopped (both are, for a moment, at a switch)
        frozen = self.poll(lambda: [
            states for states in [workers_of(proc.pid)]
            if len(states) == 2 and sorted(map(is_frozen, states)) == [False, True]])
        workers = list(frozen[0])
        proc.send_signal(signal.SIGKILL)
        self.assertEqual(proc.wait(timeout=60), -signal.SIGKILL)
        self.poll(lambda: not [pid for pid in workers if state_of(pid) not in (None, "Z")])
        self.assertEqual(len(workers), 2)

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
