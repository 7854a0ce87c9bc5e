"""A comparison's testers never share anything with their judge: each runs
in a worker of its own, inside walls, and neither can read the answers,
change the other's count, rewrite a file the decision rests on, or get a
suspect run kept.

The adversaries are tests/testers/reader.py (hunts the answers in memory,
on disk and through /proc) and saboteur.py (binary splitting that tries to
make the incumbent lose or the judge decide for it). Kept apart, each ties
binary splitting on every instance and is rejected as identical testers
are. With the walls taken away (a kernel without Landlock, stood in for by
a patched sandbox.abi: no such kernel runs here), the reader that finds the
answers is rejected as suspect, and the saboteur's rewrite of the incumbent
ends the run before it can count; whatever the decision, the run names the
wall it went without (`walls_missing: landlock`), and a challenger it
accepts is not kept."""

import contextlib
import io
import os
import resource
import shutil
import subprocess
import sys
import time
import unittest
from unittest import mock

import support
import compare
from arh_grader import Oracle, reaper, sandbox
from arh_grader.compare import log as compare_log
from arh_grader.compare import sprt
from arh_grader.contender import Contender, TesterChanged
from group_testing import instances

READER = os.path.join(support.TESTERS, "reader.py")
SABOTEUR = os.path.join(support.TESTERS, "saboteur.py")
STARVE = os.path.join(support.TESTERS, "starve_incumbent.py")
CALIBRATION = os.path.join(support.GRADER, "group_testing", "calibration.py")
# identical testers end at the draw ceiling; these settings get there in 10
QUICK = ("--test", "sign", "--draw-ceiling", "0.5", "--draw-alpha", "0.05", "--min-sample", "10")


class WallsTest(unittest.TestCase):
    def setUp(self):
        self.folder = support.tmpdir(self)
        self.incumbent = os.path.join(self.folder, "kept.py")
        shutil.copy(support.SPLITTING, self.incumbent)
        self.state = os.path.join(self.folder, "state.json")
        self.log = os.path.join(self.folder, "results.tsv")

    def compare(self, challenger, *options):
        status, stdout, stderr = support.run_command(
            self, "grader/compare.py", "--challenger", challenger, "--incumbent",
            self.incumbent, "--state", self.state, "--log", self.log, "--seed", "walls",
            *QUICK, *options)
        return status, support.lines_of(stdout), stderr

    def log_rows(self):
        with open(self.log, encoding="utf-8") as f:
            return [line.split("\t") for line in f.read().splitlines()[1:]]

    def test_the_reader_finds_nothing_and_ties(self):
        status, out, err = self.compare(READER)
        self.assertEqual(status, 0, err)
        self.assertEqual((out["decision"], out["reason"], out["W/L/D"]),
                         ("reject", "draw_ceiling", "0/0/10"))
        self.assertEqual(out["suspect.challenger"], "false")
        self.assertEqual([row[5] for row in self.log_rows()], ["discard"])

    def test_the_saboteur_changes_nothing_and_ties(self):
        with open(self.incumbent, "rb") as f:
            before = f.read()
        status, out, err = self.compare(SABOTEUR)
        self.assertEqual(status, 0, err)
        self.assertEqual((out["decision"], out["W/L/D"]), ("reject", "0/0/10"))
        with open(self.incumbent, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertEqual([row[5] for row in self.log_rows()], ["discard"])   # no forged row
        self.assertNotIn("warning", out)


class StarveTest(unittest.TestCase):
    """A challenger that cuts the open files of every process it can name
    (tests/testers/starve_incumbent.py) while the incumbent is
    frozen: behind the PID namespaces it names none, the better incumbent
    (calibration.py) never times out, and binary splitting is not accepted.
    The comparison runs with RLIMIT_NOFILE's soft limit at MARK, which its
    workers inherit: the attack touches no process of the machine but
    those that carry it."""

    MARK = 1017

    def test_the_incumbent_keeps_its_files(self):
        folder = support.tmpdir(self)
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        done = subprocess.run(
            ["sh", "-c", 'GT_JUDGE_PIDS=$$ exec "$@"', "sh", sys.executable,
             "grader/compare.py", "--challenger", STARVE, "--incumbent", CALIBRATION,
             "--state", os.path.join(folder, "state.json"), "--seed", "starve", *QUICK],
            cwd=support.ROOT, capture_output=True, text=True, timeout=600,
            stdin=subprocess.DEVNULL, env=dict(os.environ, GT_MARK_NOFILE=str(self.MARK)),
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (self.MARK, hard)))
        self.assertEqual(done.returncode, 0, done.stderr)
        out = support.lines_of(done.stdout)
        self.assertNotIn("starve_incumbent: cut", done.stderr)
        self.assertEqual(out["timeouts"], "challenger 0, incumbent 0")
        self.assertEqual(out["decision"], "reject")
        wins, losses, _ = map(int, out["W/L/D"].split("/"))
        self.assertLess(wins, losses, out["W/L/D"])


def lines_of_walls(out):
    """The `walls_missing:` lines of a command's output."""
    return [line for line in out.splitlines() if line.startswith("walls_missing:")]


class WithoutWallsTest(unittest.TestCase):
    """compare.main in this process, as on a kernel without Landlock."""

    def run_main(self, challenger, incumbent, folder):
        out = io.StringIO()
        with mock.patch.object(sandbox, "abi", return_value=0), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = compare.main(["--challenger", challenger, "--incumbent", incumbent,
                                   "--state", os.path.join(folder, "state.json"),
                                   "--log", os.path.join(folder, "results.tsv"),
                                   "--seed", "walls", *QUICK])
        return status, out.getvalue()

    def test_a_reader_that_finds_the_answers_is_rejected_as_suspect(self):
        folder = support.tmpdir(self)
        status, out = self.run_main(READER, support.SPLITTING, folder)
        lines = support.lines_of(out)
        self.assertEqual(status, 0, out)
        self.assertEqual(lines["decision"], "reject")
        # the state (with its seed) is written after the first comparison;
        # the flag needs the bits of one or two instances read from it
        self.assertLessEqual(int(lines["comparisons"]), 4)
        self.assertTrue(lines["reason"].startswith("suspect: the challenger's cheat_bits "
                                                   "reached "), lines["reason"])
        self.assertEqual(lines["suspect.challenger"], "true")
        with open(os.path.join(folder, "results.tsv"), encoding="utf-8") as f:
            row = f.read().splitlines()[1].split("\t")
        self.assertEqual((row[1], row[5]), ("reject_suspect", "discard"))
        self.assertIn("walls_missing: landlock", lines_of_walls(out))

    def test_an_accepted_challenger_is_not_kept_and_the_wall_is_named(self):
        folder = support.tmpdir(self)
        status, out = self.run_main(CALIBRATION, support.SPLITTING, folder)
        self.assertEqual(status, 0, out)
        self.assertEqual(support.lines_of(out)["decision"], "accept", out)
        self.assertEqual(lines_of_walls(out), ["walls_missing: landlock"])
        self.assertIn("warning: not kept: the testers ran without walls the kernel refused "
                      "(landlock), so either could have read the seed or changed the other's "
                      "count", out.splitlines())
        with open(os.path.join(folder, "results.tsv"), encoding="utf-8") as f:
            row = f.read().splitlines()[1].split("\t")
        self.assertEqual((row[1], row[5]), ("accept", "discard"))

    def test_the_saboteurs_rewrite_ends_the_run(self):
        folder = support.tmpdir(self)
        incumbent = os.path.join(folder, "kept.py")
        shutil.copy(support.SPLITTING, incumbent)
        guessed = {"GT_GUESSED_INCUMBENT": incumbent,
                   "GT_GUESSED_LOG": os.path.join(folder, "results.tsv")}
        with mock.patch.dict(os.environ, guessed):
            status, out = self.run_main(SABOTEUR, incumbent, folder)
        self.assertEqual(status, 1, out)
        self.assertIn("error: the incumbent %s changed during the comparison" % incumbent, out)
        self.assertIn("warning: %s changed during this run" % os.path.join(folder,
                                                                           "results.tsv"), out)
        with open(os.path.join(folder, "results.tsv"), encoding="utf-8") as f:
            statuses = [line.split("\t")[5] for line in f.read().splitlines()]
        self.assertEqual(statuses, ["keep", "crash"])     # the forged row, then the true one


class ContenderTest(unittest.TestCase):
    def test_a_tester_file_that_changes_is_refused_before_its_worker_starts(self):
        oracle = Oracle().start()
        self.addCleanup(oracle.stop)
        with open(support.SPLITTING, encoding="utf-8") as f:
            path = support.write(self, "tester.py", f.read())
        contender = Contender(path, role="challenger", problem=support.PROBLEM,
                              worker_file=support.PROBLEM.WORKER, oracle=oracle,
                              start_timeout=30)
        item = instances.draw_instance("walls", 0)
        session, failure = contender.run(0, item, timeout=10)
        self.assertEqual((session.tests, failure), (item["baseline"], None))
        with open(path, "a") as f:
            f.write("\n")
        with self.assertRaisesRegex(TesterChanged, r"^the challenger %s changed during the "
                                    r"comparison \(SHA-256 [0-9a-f]{12}, now [0-9a-f]{12}\)"
                                    % path):
            contender.run(1, item, timeout=10)


TICKER = """import os, threading, time
def _tick():
    while True:
        with open(os.path.join(os.environ["HOME"], "ticks"), "a") as f:
            f.write("x")
        time.sleep(0.005)
threading.Thread(target=_tick, daemon=True).start()
""" + open(support.SPLITTING, encoding="utf-8").read()


class FrozenTest(unittest.TestCase):
    def test_a_worker_does_nothing_while_the_other_is_judged(self):
        oracle = Oracle().start()
        self.addCleanup(oracle.stop)
        tester = support.write(self, "ticker.py", TICKER)
        contender = Contender(tester, role="challenger", problem=support.PROBLEM,
                              worker_file=support.PROBLEM.WORKER, oracle=oracle,
                              start_timeout=30)
        self.addCleanup(contender.stop)
        item = instances.draw_instance("walls", 0)
        session, failure = contender.run(0, item, timeout=10)
        self.assertEqual((session.tests, failure), (item["baseline"], None))
        ticks = os.path.join(contender.home, "ticks")
        frozen = os.path.getsize(ticks)
        for _ in range(20):                  # 0.2 s: forty ticks, were it running
            time.sleep(0.01)
            self.assertEqual(os.path.getsize(ticks), frozen)
        reaper.thaw(contender.proc)          # as a run does: it ticks again
        deadline = time.monotonic() + 60
        while os.path.getsize(ticks) == frozen:
            self.assertLess(time.monotonic(), deadline, "the thawed worker never ticked")
            time.sleep(0.01)
        session, failure = contender.run(1, item, timeout=10)
        self.assertEqual((session.tests, failure), (item["baseline"], None))


class KeepRuleTest(unittest.TestCase):
    """What a results.tsv row says, for each reason not to keep."""

    def row(self, *, sample=None, verdict=None, before=None, write_first=False, tampered=(),
            walls_missing=()):
        folder = support.tmpdir(self)
        log = os.path.join(folder, "results.tsv")
        if write_first:
            with open(log, "w") as f:
                f.write("forged\n")
        args = mock.Mock(log=log, challenger=support.SPLITTING, description="d")
        record = sprt.WinRecord(sprt.Settings(), wins=17)
        comparisons = [[50, 100, 100]] * 17
        warnings = compare_log.log_decision(args, record, comparisons, mmi=0.02, sample=sample,
                                            verdict=verdict, log_before=before,
                                            tampered=tampered, walls_missing=walls_missing)
        with open(log, encoding="utf-8") as f:
            cells = f.read().splitlines()[-1].split("\t")
        return cells[1], cells[5], warnings

    def test_each_reason_not_to_keep(self):
        valid = {"status": "valid", "relative_tests": 0.8, "tampered": [], "suspect": False}
        cases = [
            ("accepted", {}, ("accept", "keep", [])),
            ("suspect sample", {"sample": dict(valid, suspect=True)},
             ("accept", "discard", ["warning: not kept: the sample result given is suspect"])),
            ("tampered sample", {"sample": dict(valid, tampered=["grader/x.py"])},
             ("accept", "discard", ["warning: not kept: the sample result given is tampered"])),
            ("invalid sample", {"sample": dict(valid, status="invalid")},
             ("accept", "crash", ["warning: not kept: the sample result given is invalid"])),
            ("suspect challenger", {"verdict": (sprt.REJECT, "suspect: ...")},
             ("reject_suspect", "discard", [])),
            ("tampered grader", {"tampered": ["grader/compare.py"]},
             ("accept", "discard", ["warning: not kept: files outside src/ differ from the "
                                    "committed ones, so the grader that decided is not the "
                                    "committed one"])),
            ("walls missing", {"walls_missing": ["landlock", "pid namespace"]},
             ("accept", "discard", ["warning: not kept: the testers ran without walls the "
                                    "kernel refused (landlock, pid namespace), so either "
                                    "could have read the seed or changed the other's "
                                    "count"])),
            ("walls missing, rejected", {"walls_missing": ["seccomp"],
                                         "verdict": (sprt.REJECT, "upper_bound")},
             ("reject", "discard", [])),
            ("sample without walls", {"sample": dict(valid, walls_missing=["landlock"])},
             ("accept", "discard", ["warning: not kept: the sample result given is without "
                                    "walls (landlock)"])),
        ]
        for name, options, expected in cases:
            with self.subTest(case=name):
                self.assertEqual(self.row(**options), expected)
        decision, status, warnings = self.row(write_first=True)
        self.assertEqual((decision, status), ("accept", "discard"))
        self.assertEqual(len(warnings), 1)
        self.assertIn("changed during this run, and not by compare.py", warnings[0])


if __name__ == "__main__":
    unittest.main()
