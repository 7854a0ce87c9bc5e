"""The figures docs/scoring.md and docs/comparison.md give of group testing's testers, computed here
in process: the baseline's worked examples (binary splitting's tests), what
compare.py decides on the calibration tester and binary splitting by each
test, and the simulated tables: what the manual reads off the mean test's
over the pairs of testers, and the cheapest rows of the sign test's."""

import itertools
import json
import re
import unittest

from support import COMPARISON, SCORING, flat, read, table_rows
from support import said as support_said
import betting_table
from arh_grader.compare import betting, sprt, sprt_exact
from arh_grader.compare import state as compare_state
from group_testing import calibration, instances, pairs, problem, seeds


def said(case, text, doc=COMPARISON):       # the comparison's reference, unless named
    support_said(case, text, doc)


class BaselineExamplesTest(unittest.TestCase):
    def test_the_worked_examples_are_binary_splitting_s_tests(self):
        text = flat(read(SCORING))
        paragraph = text[text.index("With `n = 8` and defectives"):]
        paragraph = paragraph[:paragraph.index("Other splittings count differently")]

        def items(code):
            if ".." in code:
                low, high = code.strip("[]").split("..")
                return list(range(int(low), int(high) + 1))
            return json.loads(code)

        shown, unresolved = [], None
        for code, sign in re.findall(r"`([^`]+)`(?: ([+-])(?![0-9]))?", paragraph):
            if code.startswith("{"):
                shown.append((sorted(json.loads("[%s]" % code.strip("{}"))), []))
            elif code.startswith("U = "):
                unresolved = items(code[4:])
                if sign:
                    shown[-1][1].append((unresolved, sign == "+"))
            elif code == "U":
                shown[-1][1].append((unresolved, sign == "+"))
            elif code.startswith("[") and sign:
                shown[-1][1].append((items(code), sign == "+"))
        counts = [int(c) for c in re.findall(r"(\d+) tests", paragraph)]
        self.assertEqual(len(shown), 2, paragraph)
        for (defectives, trace), count in zip(shown, counts):
            with self.subTest(defectives=defectives):
                made = []

                def test(pool, truth=set(defectives), made=made):
                    made.append((list(pool), not truth.isdisjoint(pool)))
                    return made[-1][1]

                self.assertEqual(sorted(calibration.split(range(8), test)), defectives)
                self.assertEqual(made, trace)
                self.assertEqual(problem.baseline_tests(8, defectives), count)
                self.assertEqual(len(made), count)


def entries(seed, challenger, incumbent):
    """(challenger's tests, incumbent's, instance) of each comparison of a
    compare.py run on `seed`, counted here as its workers would."""
    for index in itertools.count():
        item = instances.draw_instance(seed, index)
        yield pairs.tests_of(challenger, item), pairs.tests_of(incumbent, item), item


class CalibrationAgainstSplittingTest(unittest.TestCase):
    """What compare.py decides on the calibration tester and binary
    splitting, each comparison counted in process."""

    SPLIT = staticmethod(pairs.load(pairs.SPLITTING))

    def comparisons(self, seed, challenger, incumbent, test):
        found = entries(seed, challenger, incumbent)
        if test == "mean":
            record = betting.run(betting.Settings(), ((a - b) / item["baseline"]
                                                      for a, b, item in found))
        else:
            record = sprt.run(sprt.Settings(), (compare_state.outcome(a, b)
                                                for a, b, _ in found))
        return record.decision, record.comparisons

    def test_by_the_mean(self):
        accept = self.comparisons("compare-test", calibration.find, self.SPLIT, "mean")
        reject = self.comparisons("compare-test", self.SPLIT, calibration.find, "mean")
        self.assertEqual((accept[0], reject[0]), ("accept", "reject"))
        said(self, "Calibration against binary splitting is accepted in %d comparisons and the "
             "reverse rejected in %d (`compare-test`); identical testers are rejected after %d."
             % (accept[1], reject[1], betting.run(betting.Settings(), [0.0] * 5000).comparisons))

    def test_by_the_sign(self):
        seeds = ("a", "b", "c", "d", "e", "f", "compare-test")
        found = [self.comparisons(seed, calibration.find, self.SPLIT, "sign") for seed in seeds]
        self.assertEqual({decision for decision, _ in found}, {"accept"})
        counts = [count for _, count in found]
        reverse = self.comparisons("compare-test", self.SPLIT, calibration.find, "sign")
        self.assertEqual(reverse[0], "reject")
        said(self, "The calibration tester against binary splitting is accepted in %d to %d "
             "comparisons (seeds `a` to `f` and `compare-test`), the reverse is rejected in %d "
             "(`compare-test`)." % (min(counts), max(counts), reverse[1]))


class SimulatedTablesTest(unittest.TestCase):
    """The simulated tables: what the manual reads off the mean test's
    (whose rows at E[d] = -0.05 test_betting.py makes again), and the
    cheapest rows of the sign test's, made again here: each row has a seed
    of its own, so it comes out the same alone."""

    def test_the_mean_test_s_table(self):
        header = "| pair | E[d] | P(accept), "
        rows = table_rows(COMPARISON, header)
        runs = int(re.search(r"\| pair \| E\[d\] \| P\(accept\), (\d+) runs \|",
                             read(COMPARISON)).group(1))
        said(self, "(`grader/group_testing/pairs.py`, %d instances each" % pairs.COUNT)
        said(self, "%d runs a cell (`python3 grader/betting_table.py` prints it with %d runs a "
             "cell" % (runs, betting_table.RUNS))
        self.assertEqual([name for name, *_ in pairs.PAIRS],
                         list(dict.fromkeys(row[0] for row in rows)))
        self.assertEqual(len(rows), len(pairs.PAIRS) * len(betting.TARGETS))
        no_better = [float(r[2]) for r in rows if float(r[1]) >= 0]
        said(self, "A challenger no better (E[d] >= 0) is accepted at most %.3f of the time"
             % max(no_better))
        near = [r for r in rows if r[0] == "posterior vs informed" and r[1] == "-0.0050"]
        said(self, "one with a real gain of 0.005 near the floor %s" % near[0][2])
        self.assertEqual({r[5] for r in rows if r[0] == "posterior vs informed"}, {"0.000"})
        self.assertIn("if n < 86:", pairs.ALONE)
        said(self, "the 5% fix is the strongest tester's pools when n < 86")
        self.assertEqual(round(100 * (86 - problem.N_MIN) / (problem.N_MAX - problem.N_MIN + 1)),
                         5)

    def test_the_sign_test_s_table(self):
        rows = table_rows(COMPARISON, "| win rate | draw rate | P(accept), ")
        runs = int(re.search(r"\| win rate \| draw rate \| P\(accept\), (\d+) runs \|",
                             read(COMPARISON)).group(1))
        said(self, "Simulated, {:,} runs a row with a fixed seed".format(runs))
        self.assertIn('"--runs", type=int, default=%d' % runs, read("grader/arh_grader/compare/sprt_cli.py"))
        self.assertEqual(len(rows), len(sprt_exact.P_VALUES) * len(sprt_exact.Q_VALUES))
        lines = list(sprt_exact.characteristics_table(sprt.Settings(), runs=runs,
                                                      seed=seeds.SPRT, p_values=(0.3, 0.8),
                                                      q_values=(0.0, 0.5)))[2:]
        for line in lines:
            with self.subTest(row=line[:14]):
                self.assertIn(line + "\n", read(COMPARISON))
        ceiling = [float(r[4]) for r in rows if r[1] == "0.95"]
        self.assertTrue(all(abs(c - 220) <= 10 for c in ceiling), ceiling)
        said(self, "A row of draws at 0.95 ends on the ceiling in about 220 comparisons")


if __name__ == "__main__":
    unittest.main()
