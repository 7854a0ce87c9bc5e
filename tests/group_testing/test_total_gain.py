"""The total of grader/compare.py (arh_grader/compare/total.py): the challenger's
gain against binary splitting or a --reference tester, whether it clears
the MMI, what is left to win above the information floor, and the
results.tsv columns that carry it. The figures of real runs are computed
again in this process, counting the testers' tests as
grader/group_testing/pairs.py does."""

import json
import os
import statistics
import unittest

import support
from arh_grader.compare import betting
from arh_grader.compare import log as compare_log
from arh_grader.compare import total as compare_total
from arh_grader.contender import sha256_of
from group_testing import instances, pairs, problem

SEED = "total-gain-test"
CALIBRATION = os.path.join(support.GRADER, "group_testing", "calibration.py")
FEW = ("--max-comparisons", "6")          # the mean test stops by then, whatever it saw


def tests_on(tester, count):
    """[(tests, instance)] of `tester` (a path) on the seed's first `count` instances."""
    find = pairs.load(tester)
    found = []
    for index in range(count):
        instance = instances.draw_instance(SEED, index)
        found.append((pairs.tests_of(find, instance), instance))
    return found


def cell(values):
    return compare_total.cell(betting.confidence_sequence(values))


class TotalTest(unittest.TestCase):
    """The functions, on comparisons made by hand."""

    def test_clears_the_mmi_only_when_the_whole_interval_is_below_it(self):
        cases = [((-0.5, -0.6, -0.4), "yes"), ((-0.03, -0.05, -0.0201), "yes"),
                 ((-0.03, -0.05, -0.02), "not yet"), ((-0.01, -0.05, 0.01), "not yet"),
                 ((0.0, -0.0199, 0.01), "no"), ((0.1, 0.05, 0.2), "no"), (None, "not yet")]
        for found, expected in cases:
            with self.subTest(found=found):
                self.assertEqual(compare_total.clears_mmi(found, 0.02), expected)

    def test_the_three_cases_on_comparisons(self):
        halves = [[50, 100, 100]] * 20           # half binary splitting's tests each time
        ties = [[100, 100, 100]] * 2000          # binary splitting's own
        few = [[95, 100, 100], [105, 100, 100]]
        for comparisons, expected in ((halves, "yes"), (ties, "no"), (few, "not yet")):
            with self.subTest(expected=expected):
                found = compare_total.total_gain(comparisons, [264] * len(comparisons))
                self.assertEqual(compare_total.clears_mmi(found, 0.02), expected, found)
        self.assertEqual(compare_total.total_gain(halves)[0], -0.5)
        self.assertEqual(compare_total.total_gain(ties), (0.0,) + tuple(
            betting.confidence_sequence([0.0] * 2000)[1:]))

    def test_gains_against_a_reference_and_past_the_deadline(self):
        comparisons = [[30, 40, 50, 20], [None, 40, 50, 25], [30, 40, 50, None]]
        self.assertEqual(compare_total.gains(comparisons, [100, 100, 100]),
                         [30 / 50 - 20 / 50, 100 / 50 - 25 / 50, 30 / 50 - 100 / 50])
        self.assertEqual(compare_total.gains(comparisons), [30 / 50 - 20 / 50])   # no caps
        self.assertEqual(compare_total.gains([[None, 40, 50]], [100]), [100 / 50 - 1])

    def test_the_summary_lines(self):
        comparisons, floors = [[50, 100, 100]] * 20, [0.49] * 20
        lines = dict(line.split(": ", 1) for line in compare_total.lines(
            comparisons, caps=[264] * 20, floors=floors, mmi=0.02))
        self.assertEqual(lines["total_gain"], "%s against binary splitting (99%% confidence "
                         "sequence, 20 comparisons)" % cell([-0.5] * 20))
        self.assertTrue(lines["clears_mmi"].startswith("yes (the whole interval is below "
                                                       "-0.02"), lines["clears_mmi"])
        self.assertEqual(lines["left_to_win"], "%s above the information floor (99%% "
                         "confidence sequence)" % cell([0.5 - 0.49] * 20))
        self.assertTrue(lines["left_vs_mmi"].startswith("not yet known"), lines)
        close = dict(line.split(": ", 1) for line in compare_total.lines(
            comparisons * 100, caps=[264] * 2000, floors=floors * 100, mmi=0.02))
        self.assertIn("no further gain over this challenger can count as a new incumbent by "
                      "itself on the platform", close["left_vs_mmi"])
        self.assertNotIn("reference", close)


class CommandTest(unittest.TestCase):
    """Real compare.py runs, their totals computed again here."""

    def compare(self, challenger, incumbent, *args, log=None):
        folder = support.tmpdir(self)
        state = os.path.join(folder, "state.json")
        log = log or os.path.join(folder, "results.tsv")
        status, stdout, stderr = support.run_command(
            self, "grader/compare.py", "--challenger", challenger, "--incumbent", incumbent,
            "--state", state, "--seed", SEED, "--log", log, "--description", "d", *args)
        return status, support.lines_of(stdout), stderr, state, log

    def test_splitting_against_itself_gains_exactly_nothing(self):
        status, out, err, _, log = self.compare(support.SPLITTING, support.SPLITTING, *FEW)
        self.assertEqual(status, 0, err)
        count = int(out["comparisons"])
        self.assertEqual(out["total_gain"], "%s against binary splitting (99%% confidence "
                         "sequence, %d comparisons)" % (cell([0.0] * count), count))
        self.assertEqual(cell([0.0] * count).split()[0], "0.0000")
        self.assertTrue(out["clears_mmi"].startswith("not yet"), out["clears_mmi"])
        floors = [problem.surprise(it["priors"], it["defectives"]) / it["baseline"]
                  for it in (instances.draw_instance(SEED, k) for k in range(count))]
        self.assertEqual(out["left_to_win"].split(" above")[0],
                         cell([1.0 - f for f in floors]))
        with open(log, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        self.assertEqual(rows[0], list(compare_log.LOG_FIELDS))
        self.assertEqual(rows[0][6:8], ["total_gain", "reference"])
        self.assertEqual(rows[1][6:], [cell([0.0] * count), "binary splitting", "d"])

    def test_the_informed_tester_gains_its_mean_score_minus_one(self):
        status, out, err, _, log = self.compare(support.INFORMED, support.SPLITTING, *FEW)
        self.assertEqual(status, 0, err)
        count = int(out["comparisons"])
        found = tests_on(support.INFORMED, count)
        scores = [tests / it["baseline"] for tests, it in found]
        mean = statistics.fmean(scores) - 1
        self.assertEqual(out["total_gain"].split()[0], "%.4f" % mean)
        self.assertLess(mean, -0.1)
        total = cell([s - 1 for s in scores])
        self.assertEqual(out["total_gain"].split(" against")[0], total)
        floors = [problem.surprise(it["priors"], it["defectives"]) / it["baseline"]
                  for _, it in found]
        self.assertEqual(out["left_to_win"].split(" above")[0],
                         cell([s - f for s, f in zip(scores, floors)]))
        difference = betting.confidence_sequence([s - 1 for s in scores])
        with open(log, encoding="utf-8") as f:
            row = f.read().splitlines()[1].split("\t")
        kept = out["decision"] == "accept" and "tampered" not in out
        self.assertEqual(row[1:], [out["decision"], str(count),
                                   "%.4f [%.4f, %.4f]" % difference, "-",
                                   "keep" if kept else "discard", total, "binary splitting",
                                   "d"])
        self.assertEqual(row[3], row[6])     # against binary splitting, the same figure
        support.show("\ninformed vs splitting, %d comparisons: total_gain: %s; left_to_win: %s"
                     % (count, out["total_gain"], out["left_to_win"]))

    def test_a_reference_runs_on_the_same_instances(self):
        status, out, err, state, log = self.compare(
            support.INFORMED, support.SPLITTING, "--reference", CALIBRATION, *FEW)
        self.assertEqual(status, 0, err)
        count = int(out["comparisons"])
        mine, theirs = tests_on(support.INFORMED, count), tests_on(CALIBRATION, count)
        gains = [(a - b) / it["baseline"] for (a, it), (b, _) in zip(mine, theirs)]
        self.assertEqual(out["total_gain"], "%s against the reference %s (99%% confidence "
                         "sequence, %d comparisons)" % (cell(gains), CALIBRATION, count))
        self.assertEqual(out["reference"], "%s, past the deadline on 0 comparisons"
                         % CALIBRATION)
        with open(state, encoding="utf-8") as f:
            saved = json.load(f)
        self.assertEqual(saved["testers"]["reference"], sha256_of(CALIBRATION))
        self.assertEqual([entry[3] for entry in saved["comparisons"]],
                         [tests for tests, _ in theirs])
        with open(log, encoding="utf-8") as f:
            row = f.read().splitlines()[1].split("\t")
        self.assertEqual(row[6:], [cell(gains), CALIBRATION, "d"])
        progress = [line for line in err.splitlines() if line.startswith("comparison: ")]
        self.assertIn("reference: %d outcome: " % theirs[-1][0], progress[-1])
        # taken up again: the same reference, and no other, or none
        for args, words in ((("--reference", CALIBRATION) + FEW, None),
                            (FEW, "it was started with --reference and this run is without "
                                  "it"),
                            (("--reference", support.SPLITTING) + FEW,
                             "the reference is another version")):
            with self.subTest(args=args):
                status, stdout, stderr = support.run_command(
                    self, "grader/compare.py", "--challenger", support.INFORMED,
                    "--incumbent", support.SPLITTING, "--state", state, *args)
                if words is None:
                    self.assertEqual(status, 0, stderr)
                    self.assertIn("had decided already", stderr)
                    self.assertEqual(support.lines_of(stdout)["total_gain"], out["total_gain"])
                else:
                    self.assertEqual((status, stdout), (2, ""), stderr)
                    self.assertIn(words, stderr)

    def test_a_results_file_of_the_old_header_is_refused(self):
        old = ("commit\tdecision\tcomparisons\tscore_difference\trelative_tests\tstatus\t"
               "description\n" "a1b2c3d\taccept\t22\t-0.2770 [-0.8, 0.05]\t-\tkeep\tx\n")
        log = support.write(self, "results.tsv", old)
        status, out, err, state, _ = self.compare(support.SPLITTING, support.SPLITTING, *FEW,
                                                  log=log)
        self.assertEqual((status, out), (2, {}), err)
        self.assertIn("--log %r starts with the header %r, not compare.py's"
                      % (log, old.splitlines()[0]), err)
        self.assertEqual(os.listdir(os.path.dirname(state)), [])     # no state, no lock
        self.assertEqual(support.read_bytes(log).decode(), old)


if __name__ == "__main__":
    unittest.main()
