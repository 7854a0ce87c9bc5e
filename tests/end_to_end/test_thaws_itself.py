"""A challenger that thaws itself while the incumbent plays (issue 38):
tests/testers/thaws_itself.py, binary splitting whose worker forks a child
that burns CPU, both continued every few milliseconds by POSIX timers that
send them SIGCONT. Stopped by SIGSTOP it ran during the incumbent's turns
(10 to 30 clock ticks a turn here); in a cgroup of its own, frozen by the
kernel, its tree runs none of its code (at most the tick or two the kernel
spends waking a frozen task for a signal and parking it again). Where no cgroup v2 can be made (stood
in for by a patched cgroup.usable), the comparison sees the tree running
at the end of the incumbent's turn and ends with the challenger's failure
(`escape`), never the incumbent's."""

import contextlib
import io
import os
import unittest
from unittest import mock

import support
import compare
from arh_grader import Oracle, cgroup, reaper
from arh_grader.contender import Contender
from group_testing import instances

THAWS = os.path.join(support.TESTERS, "thaws_itself.py")
QUICK = ("--test", "sign", "--draw-ceiling", "0.5", "--draw-alpha", "0.05", "--min-sample", "10")
TURNS = 3               # comparisons watched
KERNEL_TICKS = 2        # clock ticks a frozen tree may show in a turn: the kernel's, rounded
NO_CGROUP = (None, "no cgroup v2 (patched by the test; SIGSTOP freezes)")


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
class ThawsItselfTest(unittest.TestCase):
    def test_the_challenger_gets_no_cpu_during_the_incumbents_turns(self):
        if cgroup.usable()[0] is None:
            self.skipTest(cgroup.usable()[1])
        oracle = Oracle().start()
        self.addCleanup(oracle.stop)
        contenders = [Contender(path, role=role, problem=support.PROBLEM, oracle=oracle,
                                start_timeout=60)
                      for path, role in ((THAWS, "challenger"), (support.SPLITTING, "incumbent"))]
        challenger, incumbent = contenders
        for contender in contenders:
            self.addCleanup(contender.stop)
        used, escaped = [], []
        for index in range(TURNS):
            item = instances.draw_instance("thaws", index)
            session, failure = challenger.run(index, item, timeout=30)
            self.assertEqual((session.tests, failure), (item["baseline"], None))
            pids = reaper.tree(challenger.proc.pid, reaper.processes())
            self.assertGreaterEqual(len(pids), 3)          # its init, worker and burner
            before = ticks(pids)
            session, failure = incumbent.run(index, item, timeout=30)
            self.assertEqual((session.tests, failure), (item["baseline"], None))
            used.append(ticks(pids) - before)
            escaped.append(getattr(challenger, "check_frozen", lambda index: None)(index))
        # at most KERNEL_TICKS a turn: the kernel still wakes a frozen task
        # for each timer's signal and puts it straight back, never running
        # its code; the burner would take most of the turn (10 to 30 here)
        self.assertLessEqual(max(used), KERNEL_TICKS, used)
        self.assertEqual(escaped, [None] * TURNS)

    def test_without_a_cgroup_the_comparison_ends_with_the_challengers_failure(self):
        folder = support.tmpdir(self)
        out = io.StringIO()
        with mock.patch.object(cgroup, "usable", return_value=NO_CGROUP), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = compare.main(["--challenger", THAWS, "--incumbent", support.SPLITTING,
                                   "--state", os.path.join(folder, "state.json"),
                                   "--seed", "thaws", *QUICK])
        self.assertEqual(status, 1, out.getvalue())
        error = support.lines_of(out.getvalue())["error"]
        self.assertRegex(error, r"^escape: comparison \d+ \(.*\): the challenger failed: "
                                r"the challenger's worker ran while it was frozen")


if __name__ == "__main__":
    unittest.main()
