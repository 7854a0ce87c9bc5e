"""A worker's freeze that the frozen cannot undo (arh_grader/cgroup.py and
reaper.py's freeze, thaw, stopped and reap), on a real process tree that
tries to thaw itself: one-shot POSIX timers that send it SIGCONT every few
milliseconds, armed again by its SIGCONT handler, and a child that burns
CPU. In a cgroup of its own its CPU time does not move while it is frozen,
and it is killed and its cgroup removed when it stops; stopped by SIGSTOP
(where no cgroup v2 can be made), it runs again, and reaper.stopped says
so. Each test makes the process tree it needs, in a temporary folder."""

import os
import signal
import subprocess
import sys
import time
import unittest

import support
from arh_grader import cgroup, reaper, workers

THAWS = r'''
import ctypes, os, signal, time
TICK, TIMERS = 0.05, 100

class Event(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int),
                ("notify", ctypes.c_int), ("pad", ctypes.c_byte * 48)]

class Spec(ctypes.Structure):
    _fields_ = [("interval", ctypes.c_long * 2), ("value", ctypes.c_long * 2)]

def arm():
    libc = ctypes.CDLL(None, use_errno=True)
    timers, last = [], [0.0]
    for step in range(1, TIMERS + 1):
        timer, ns = ctypes.c_void_p(), int(TICK * step * 1e9)
        event = Event(signo=int(signal.SIGCONT), notify=0)
        assert libc.timer_create(1, ctypes.byref(event), ctypes.byref(timer)) == 0
        spec = Spec()
        spec.value[0], spec.value[1] = ns // 10**9, ns % 10**9
        timers.append((timer, spec))
    def rearm(*_):
        if time.monotonic() - last[0] >= TICK:
            last[0] = time.monotonic()
            for timer, spec in timers:
                libc.timer_settime(timer, 0, ctypes.byref(spec), None)
    signal.signal(signal.SIGCONT, rearm)
    rearm()

if os.fork() == 0:
    arm()
    open(os.path.join(os.environ["HOME"], "started"), "w").close()
    while True:
        pass
arm()
while True:
    time.sleep(1)
'''
SETTLE = 0.5            # seconds a frozen tree is watched
KERNEL_USEC = 10000     # CPU microseconds a frozen tree may use meanwhile: under a tick


def ticks(pids):
    """utime + stime of `pids` (/proc/PID/stat), in clock ticks."""
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid, "rb") as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(b")") + 2:].split()
        total += int(fields[11]) + int(fields[12])
    return total


@unittest.skipUnless(reaper.linux(), "Linux only")
class FreezerTest(unittest.TestCase):
    def start(self, group):
        """The self-thawing tree, in `group` (None: none), once its child runs."""
        home = support.tmpdir(self)
        script = os.path.join(home, "thaws.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(THAWS)
        proc = reaper.spawn([sys.executable, "-I", script], env=dict(os.environ, HOME=home),
                            start_new_session=True, stdin=subprocess.DEVNULL,
                            preexec_fn=None if group is None else group.join)
        proc.cgroup = group
        self.addCleanup(workers.stop, proc)
        deadline = time.monotonic() + 60
        while not os.path.exists(os.path.join(home, "started")):
            self.assertLess(time.monotonic(), deadline, "the tree never started")
            time.sleep(0.01)
        return proc

    def tree(self, proc):
        return reaper.tree(proc.pid, reaper.processes())

    def test_a_frozen_cgroup_does_not_thaw_itself(self):
        if cgroup.usable()[0] is None:
            self.skipTest(cgroup.usable()[1])
        group = cgroup.Group.create()
        proc = self.start(group)
        pids = self.tree(proc)
        self.assertEqual(set(group.pids()), pids)       # the fork was born inside
        for _ in range(3):
            self.assertTrue(reaper.freeze(proc))
            before, used = ticks(pids), group.usage_usec()
            time.sleep(SETTLE)
            # a frozen task still wakes in the kernel for each timer's
            # signal and goes straight back to the freezer: microseconds,
            # never its own code (the burner would take all of SETTLE);
            # in clock ticks, at most one, rounded up
            self.assertLessEqual(ticks(pids) - before, 1)
            self.assertLess(group.usage_usec() - used, KERNEL_USEC)
            self.assertTrue(reaper.stopped(proc))
            reaper.thaw(proc)
            deadline = time.monotonic() + 60
            while ticks(pids) == before:                # it runs again once thawed
                self.assertLess(time.monotonic(), deadline, "the thawed tree never ran")
                time.sleep(0.01)
        self.assertFalse(reaper.stopped(proc))
        workers.stop(proc)
        self.assertFalse(os.path.exists(group.path))
        self.assertEqual(ticks(pids), 0)                # all gone

    def test_a_tree_stopped_by_sigstop_continues_itself_and_is_seen(self):
        proc = self.start(None)
        reaper.freeze(proc, deadline=2.0)
        deadline = time.monotonic() + 30
        while reaper.stopped(proc):
            self.assertLess(time.monotonic(), deadline, "the tree never continued itself")
            time.sleep(0.01)

    def test_a_group_left_by_a_grader_that_died_is_swept(self):
        parent, words = cgroup.usable()
        if parent is None:
            self.skipTest(words)
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
        name = "%s%d-1" % (cgroup.PREFIX, int(gone.stdout))
        os.mkdir(os.path.join(parent, name))
        self.addCleanup(cgroup.Group(os.path.join(parent, name)).destroy)
        sleeper = subprocess.Popen(
            ["sleep", "600"], preexec_fn=cgroup.Group(os.path.join(parent, name)).join)
        self.addCleanup(sleeper.wait)
        self.addCleanup(lambda: sleeper.poll() is None and sleeper.kill())
        self.assertIn(name, cgroup.sweep(parent))
        self.assertEqual(sleeper.wait(timeout=30), -signal.SIGKILL)
        self.assertFalse(os.path.exists(os.path.join(parent, name)))


if __name__ == "__main__":
    unittest.main()
