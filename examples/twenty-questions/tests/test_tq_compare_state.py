"""tq/compare.py's state file, resume and log: a run stopped by SIGTERM
after k comparisons goes on to the decision, and the state file, of a run
never stopped; a state file changed by hand is refused, naming what is
wrong; --log writes group testing's columns; the public sets' seed is
refused. Every wait is on a file or a process, under a generous deadline."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import tq_support
from arh_grader.compare import log as compare_log
from arh_grader.compare import sprt
from arh_grader.compare import state as compare_state
from tq.plugin import PROBLEM

COMMAND = os.path.join(tq_support.PROJECT, "tq", "compare.py")
WEAKER = tq_support.tester("fixed_order")
SEED = "state-test"
HELD = 4               # comparisons the stopped run has saved when it is stopped
SUMMARY = ("decision", "reason", "comparisons", "W/L/D", "e_values", "score_difference")


def lines_of(text):
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def run(*args, timeout=120):
    done = subprocess.run([sys.executable, COMMAND, *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def read(path):
    with open(path, "rb") as f:
        return f.read()


class StateTest(unittest.TestCase):
    def held_tester(self, folder):
        """The frozen baseline in `folder`, which waits on its round HELD + 1
        for as long as the file `folder`/hold exists; (tester, hold)."""
        hold = os.path.join(folder, "hold")
        with open(tq_support.BASELINE, encoding="utf-8") as f:
            text = f.read()
        line = ('DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, '
                'os.pardir, "data")')
        self.assertIn(line, text)
        text = text.replace(line, "DATA = %r" % os.path.join(tq_support.PROJECT, "data"))
        text = text.replace("def play(", "def fast_play(") + (
            "\n\nimport time\nHOLD, ROUNDS = %r, [0]\n\n\ndef play(ask, guess):\n"
            "    while ROUNDS[0] == %d and os.path.exists(HOLD):\n        time.sleep(0.01)\n"
            "    ROUNDS[0] += 1\n    return fast_play(ask, guess)\n" % (hold, HELD))
        tester = os.path.join(folder, "held.py")
        with open(tester, "w", encoding="utf-8") as f:
            f.write(text)
        open(hold, "w").close()
        return tester, hold

    def wait_for(self, state, proc):
        """Return once `state` holds HELD comparisons (the run holds there)."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(sprt.StateError):
                saved = compare_state.load_json(state)
                if saved and len(saved["comparisons"]) >= HELD:
                    return
            time.sleep(0.01)
        self.fail("%s never held %d comparisons (exit status %s)" % (state, HELD, proc.poll()))

    def test_a_stopped_run_resumes_to_the_decision_and_state_of_one_never_stopped(self):
        folder = tq_support.tmpdir(self)
        tester, hold = self.held_tester(folder)
        state = os.path.join(folder, "stopped.json")
        args = ["--challenger", tester, "--incumbent", WEAKER, "--seed", SEED,
                "--instance-timeout", "600"]
        proc = subprocess.Popen([sys.executable, COMMAND, *args, "--state", state],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        self.wait_for(state, proc)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 143, err)
        self.assertEqual(err.splitlines()[-1], "compare: stopped by SIGTERM; %s keeps %d "
                         "comparisons, and the same command resumes from there" % (state, HELD))
        self.assertEqual(sorted(os.listdir(folder)), ["held.py", "hold", "stopped.json"])
        self.assertEqual(len(compare_state.load_json(state)["comparisons"]), HELD)
        os.unlink(hold)

        status, out, err = run(*args, "--state", state)
        self.assertEqual(status, 0, err)
        self.assertIn("ran again with the same calls", err)
        self.assertIn("compare: resuming %s at comparison %d" % (state, HELD + 1), err)
        numbers = [int(line.split()[1]) for line in err.splitlines()
                   if line.startswith("comparison: ")]
        resumed = lines_of(out)
        self.assertEqual(numbers, list(range(HELD + 1, int(resumed["comparisons"]) + 1)))

        whole = os.path.join(folder, "whole.json")
        status, out, err = run(*args, "--state", whole)
        self.assertEqual(status, 0, err)
        fresh = lines_of(out)
        self.assertEqual([resumed[k] for k in SUMMARY], [fresh[k] for k in SUMMARY])
        self.assertEqual(resumed["decision"], "accept")
        self.assertEqual(read(state), read(whole))

        # taken up once decided: nothing runs, the decision is the same
        status, out, err = run(*args, "--state", state)
        self.assertEqual((status, [lines_of(out)[k] for k in SUMMARY]),
                         (0, [fresh[k] for k in SUMMARY]), err)
        self.assertIn("compare: %s had decided already" % state, err)
        self.assertEqual(read(state), read(whole))
        self.refusals(whole, args)

    def refusals(self, path, args):
        """A state file changed by hand, or taken up with other settings,
        seed or tester, is refused with exit status 2 naming the problem."""
        good = compare_state.load_json(path)

        def saved_as(name, change, *, seal=True):
            edited = json.loads(json.dumps(good))
            change(edited)
            if seal:
                edited["digest"] = compare_state.digest(edited)
            target = os.path.join(os.path.dirname(path), name + ".json")
            with open(target, "w", encoding="utf-8") as f:
                json.dump(edited, f)
            return target

        def last_calls(edited):           # the last round, consistently forged
            edited["comparisons"][-1][0][0] -= 1
            settings = compare_state.TestSettings.from_dict(edited["settings"])
            record = compare_state.tally(settings, edited["comparisons"], None,
                                         PROBLEM.comparison())
            edited["record"] = record.to_dict()

        def other_animal(edited):
            edited["comparisons"][1][2] = (edited["comparisons"][1][2] + 1) % 1472

        cases = [
            (saved_as("unsealed", lambda d: d.__setitem__("next_comparison", 99), seal=False), (),
             "its content does not match its digest"),
            (saved_as("animal", other_animal), (), "comparison 2, "),
            (saved_as("record", lambda d: d["record"].__setitem__("decision", "reject")), (),
             "the record"),
            (saved_as("calls", last_calls), (),
             "comparison %d does not come out again: the challenger plays"
             % len(good["comparisons"])),
            (path, ("--delta", "0.01"), "delta is 0.005 there and 0.01 in this run"),
            (path, ("--seed", "other"), "--seed 'other' differs from %r saved there" % SEED),
        ]
        for state, extra, message in cases:
            with self.subTest(message=message):
                argv = [*args[:4], *(args[6:] if extra[:1] == ("--seed",) else args[4:]),
                        "--state", state, *extra]
                status, out, err = run(*argv)
                self.assertEqual(status, 2, err)
                self.assertIn(message, err)
                self.assertTrue(err.startswith("compare: %s: " % state), err)
        status, _, err = run("--challenger", tq_support.BASELINE, *args[2:], "--state", path)
        self.assertEqual(status, 2, err)
        self.assertIn("the challenger is another version than the one this state file was "
                      "started with", err)


class LogAndSeedTest(unittest.TestCase):
    def test_log_writes_the_header_then_one_row_of_group_testings_columns(self):
        folder = tq_support.tmpdir(self)
        log = os.path.join(folder, "results.tsv")
        status, out, err = run("--challenger", WEAKER, "--incumbent", tq_support.BASELINE,
                               "--seed", SEED, "--state", os.path.join(folder, "s.json"),
                               "--log", log, "--description", "asks in a fixed  order")
        self.assertEqual(status, 0, err)
        lines = lines_of(out)
        with open(log, encoding="utf-8") as f:
            header, row, *rest = f.read().splitlines()
        self.assertEqual((header.split("\t"), rest), (list(compare_log.LOG_FIELDS), []))
        cells = dict(zip(compare_log.LOG_FIELDS, row.split("\t")))
        self.assertEqual(len(row.split("\t")), len(compare_log.LOG_FIELDS))
        mean, low, high = betting_figures(lines["score_difference"])
        expected = {"decision": "reject", "comparisons": lines["comparisons"],
                    "score_difference": "%s [%s, %s]" % (mean, low, high),
                    "relative_tests": "-", "status": "discard",
                    "description": "asks in a fixed order"}
        self.assertEqual({k: cells[k] for k in expected}, expected)
        self.assertEqual(lines["decision"], "reject")
        self.assertRegex(cells["commit"], r"^([0-9a-f]{4,40}|-)$")
        for key in set(compare_log.LOG_FIELDS) - set(expected) - {"commit"}:
            self.assertEqual(cells[key], "-", key)

    def test_the_public_sets_seed_is_refused_and_no_state_written(self):
        folder = tq_support.tmpdir(self)
        state = os.path.join(folder, "s.json")
        status, out, err = run("--challenger", WEAKER, "--incumbent", tq_support.BASELINE,
                               "--seed", "twenty-questions-public", "--state", state)
        self.assertEqual((status, out), (2, ""))
        self.assertEqual(err, "compare: --seed 'twenty-questions-public' is the seed of the "
                              "public sets (sample/dev.jsonl, sample/test.jsonl): its order is "
                              "public, and a tester may know it; give another seed, or none "
                              "for a fresh random one\n")
        self.assertEqual(os.listdir(folder), [])


def betting_figures(text):
    """(mean, low, high) of a `score_difference` line."""
    mean, rest = text.split(" (99% confidence sequence ")
    low, high = rest.split(",")[0].split(" to ")
    return mean, low, high


if __name__ == "__main__":
    unittest.main()
