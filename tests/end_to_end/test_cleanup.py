"""Nothing a tester started outlives its worker: daemons made by a double
fork in sessions of their own, daemons that hop from pid to pid or keep
forking, children that leave the worker's group (arh_grader/reaper.py);
and a repeated run sees nothing an earlier one left in a process or in its
home folder."""

import json
import os
import re
import subprocess
import sys
import time
import unittest

import support
from arh_grader import local_run, reaper

DAEMON = os.path.join(support.TESTERS, "daemon.py")
HOME_STATE = os.path.join(support.TESTERS, "home_state.py")
WAIT = 60.0              # seconds a test waits for a daemon to say it runs, at most
POLL = 0.05              # seconds between two looks
LINUX = reaper.linux()


def recorded(path):
    """[(pid, start)] of the processes a daemon recorded in `path`: its
    GT_DAEMON_PIDS, or a local run's output ("daemon-pid: PID START")."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    said = re.findall(r"daemon-pid: (\d+) (\S+)", text)
    return said or [tuple(line.split()) for line in text.splitlines() if line.strip()]


def left(entries):
    """Those of `entries` ((pid, start)) still in /proc, each with its state
    letter (Z: a zombie nobody reaped)."""
    found = []
    for pid, start in entries:
        try:
            with open("/proc/%s/stat" % pid, "rb") as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(b")") + 2:].split()
        if start in ("-", fields[19].decode()):     # not another process with the pid
            found.append((pid, fields[0].decode()))
    return found


def kill_recorded(path):
    """Cleanup: kill whatever a failed test left running."""
    for pid, _ in left(recorded(path)):
        try:
            os.kill(int(pid), 9)
        except OSError:
            pass


def set_environment(case, **values):
    """os.environ with `values`, given back at cleanup."""
    for key, value in values.items():
        old = os.environ.get(key)
        case.addCleanup(lambda k=key, v=old: os.environ.pop(k) if v is None
                        else os.environ.__setitem__(k, v))
        os.environ[key] = value


def wait_recorded(case, path, count):
    deadline = time.monotonic() + WAIT
    while len(recorded(path)) < count:
        case.assertLess(time.monotonic(), deadline, "the daemon never recorded itself")
        time.sleep(POLL)


@unittest.skipUnless(LINUX, "the reaper works on Linux (/proc, prctl)")
class StopWorkerTest(unittest.TestCase):
    """local_run.stop_worker in this process: what the tester left is
    killed and reaped, no zombie left; this process's own children live."""

    def start(self, mode):
        """A worker whose tester leaves a daemon of `mode` when imported;
        (the worker, its pid file, in the worker's folder)."""
        home = support.tmpdir(self)
        pids = os.path.join(home, "pids")
        self.addCleanup(kill_recorded, pids)
        set_environment(self, GT_DAEMON_PIDS=pids, GT_DAEMON_MODE=mode,
                        GT_DAEMON_WHEN="import")
        proc, _ = local_run.start_worker(oracle_url="http://127.0.0.1:9/", tester=DAEMON,
                                         timeout=WAIT, worker=support.PROBLEM.WORKER,
                                         quiet=True, cwd=home)
        self.addCleanup(local_run.stop_worker, proc)
        wait_recorded(self, pids, 3 if mode in ("hop", "spawn") else 1)
        return proc, pids

    def test_every_kind_of_daemon_is_gone(self):
        for mode in ("sleep", "hop", "spawn", "group"):
            with self.subTest(mode=mode):
                proc, pids = self.start(mode)
                local_run.stop_worker(proc)
                self.assertEqual(left(recorded(pids)), [])
                self.assertIsNotNone(proc.poll())

    def test_a_child_of_this_process_is_left_alone(self):
        mine = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        self.addCleanup(mine.wait)
        self.addCleanup(mine.kill)
        proc, pids = self.start("sleep")
        local_run.stop_worker(proc)
        self.assertEqual(left(recorded(pids)), [])
        self.assertIsNone(mine.poll())

    def test_stopping_one_worker_leaves_the_other_workers_children(self):
        first, first_pids = self.start("group")
        second, second_pids = self.start("group")
        local_run.stop_worker(first)
        self.assertEqual(left(recorded(first_pids)), [])
        self.assertEqual(len(left(recorded(second_pids))), 1)
        self.assertIsNone(second.poll())
        local_run.stop_worker(second)
        self.assertEqual(left(recorded(second_pids)), [])


@unittest.skipUnless(LINUX, "the reaper works on Linux (/proc, prctl)")
class LocalRunTest(unittest.TestCase):
    """grader/local.py in a real process: when it ends, normally or after
    its worker timed out, the daemons are gone."""

    def run_local(self, *args, **environment):
        """local.py with the daemon tester; (exit status, its output, the
        result, the file of its output, where the daemons say their pids)."""
        folder = support.tmpdir(self)
        pids = os.path.join(folder, "output")
        self.addCleanup(kill_recorded, pids)
        env = dict(os.environ, HOME=folder, **environment)
        for key in ("GT_DAEMON_WHEN", "GT_DAEMON_PIDS"):
            env.pop(key, None)
        out = os.path.join(folder, "out")
        with open(pids, "ab") as output:        # a file, not a pipe: a daemon keeps it open
            done = subprocess.run(
                [sys.executable, "grader/local.py", "--tester", DAEMON, "--out", out,
                 "--limit", "1", *args], cwd=support.ROOT, stdin=subprocess.DEVNULL,
                stdout=output, stderr=output, env=env, timeout=300)
        with open(pids, encoding="utf-8", errors="replace") as f:
            text = f.read()
        with open(os.path.join(out, "result.json"), encoding="utf-8") as f:
            return done.returncode, text, json.load(f), pids

    def test_the_daemons_are_gone_after_a_run(self):
        for mode in ("sleep", "hop", "spawn"):
            with self.subTest(mode=mode):
                status, text, result, pids = self.run_local(GT_DAEMON_MODE=mode)
                self.assertEqual(status, 0, text[-2000:])
                self.assertEqual(result["status"], "valid")
                self.assertGreaterEqual(len(recorded(pids)), 1)
                self.assertEqual(left(recorded(pids)), [])

    def test_the_daemons_are_gone_after_a_timeout(self):
        for mode in ("sleep", "hop"):
            with self.subTest(mode=mode):
                status, text, result, pids = self.run_local(
                    "--instance-timeout", "1", GT_DAEMON_MODE=mode, GT_DAEMON_HANG="1")
                self.assertEqual(status, 1, text[-2000:])
                self.assertEqual(result["kind"], "timeout")
                self.assertGreaterEqual(len(recorded(pids)), 1)
                self.assertEqual(left(recorded(pids)), [])

    def test_a_repeated_run_does_not_meet_the_daemon_of_the_one_before(self):
        """The daemon listens on a port; a tester that finds it there makes
        one test more. The second run must not find the first run's."""
        status, text, result, pids = self.run_local(
            "--repeat", "2", GT_DAEMON_PORT=str(support.workers.free_port()))
        self.assertEqual(status, 0, text[-2000:])
        self.assertIn("deterministic: 2 runs, identical counts and transcripts", text)
        self.assertEqual(result["items"][0]["tests"], result["items"][0]["n"])
        self.assertEqual(len(recorded(pids)), 2)
        self.assertEqual(left(recorded(pids)), [])


class FreshHomeTest(unittest.TestCase):
    def test_each_run_has_a_home_of_its_own(self):
        home = support.tmpdir(self)
        out = os.path.join(support.tmpdir(self), "out")
        done = subprocess.run(
            [sys.executable, "grader/local.py", "--tester", HOME_STATE, "--out", out,
             "--limit", "1", "--repeat", "2"], cwd=support.ROOT, capture_output=True,
            text=True, stdin=subprocess.DEVNULL, env=dict(os.environ, HOME=home),
            timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        self.assertIn("deterministic: 2 runs", done.stdout)
        self.assertEqual(os.listdir(home), [])


if __name__ == "__main__":
    unittest.main()
