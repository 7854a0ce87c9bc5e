"""Graph isomorphism's rules of a comparison (gi/comparison.py), without
the emulator: the problems a seed draws, each solver's score against the
reference on the metric (a set's line's, N being the held-out set's), the
outcome and the difference, a play past its deadline, the saved entries'
check and the three roles. The emulated runs are in tests/emulated/."""

import argparse
import contextlib
import io
import os
import unittest

import gi_support
from arh_grader.compare import sprt
from gi import comparison, sets
from gi.plugin import PROBLEM

N = comparison.SET_SIZE


class RulesTest(unittest.TestCase):
    def setUp(self):
        self.rules = PROBLEM.comparison()

    def test_the_problem_gives_these_rules_and_three_roles(self):
        self.assertIs(type(self.rules), comparison.Rules)
        parser = argparse.ArgumentParser()
        self.rules.add_options(parser)
        args = parser.parse_args([])
        self.assertEqual(args.reference, comparison.REFERENCE_SOLVER)
        self.assertTrue(os.path.isfile(args.reference))
        self.assertEqual(self.rules.roles(args), ("challenger", "incumbent", "reference"))

    def test_every_role_s_solver_must_be_a_file(self):
        """The SDK's check of the options, over the three roles."""
        parser = argparse.ArgumentParser()
        for role in ("challenger", "incumbent"):
            parser.add_argument("--" + role, default=comparison.REFERENCE_SOLVER)
        self.rules.add_options(parser)
        self.rules.parsed(parser, parser.parse_args([]))        # all three are files
        missing = os.path.join(gi_support.PROJECT, "no-such-solver.py")
        for role in ("challenger", "incumbent", "reference"):
            with self.subTest(role=role):
                args = parser.parse_args(["--" + role, missing])
                err = io.StringIO()
                with self.assertRaises(SystemExit), contextlib.redirect_stderr(err):
                    self.rules.parsed(parser, args)
                self.assertIn("--%s %r is not a file" % (role, missing), err.getvalue())

    def test_a_seed_draws_problems_as_a_set_is_drawn(self):
        drawn = [self.rules.draw("s", k) for k in range(5)]
        self.assertEqual(drawn, sets.draw(5, "s"))
        self.assertNotEqual(drawn, sets.draw(5, "t"))
        self.assertEqual(self.rules.drawn(drawn[3]), drawn[3]["seed"])
        fresh = PROBLEM.comparison()                 # in another order, and kept apart
        self.assertEqual([fresh.draw("s", k) for k in (4, 1, 4)], [drawn[4], drawn[1], drawn[4]])
        fresh.draw("s", 1)["n"] = 0
        self.assertEqual(fresh.draw("s", 1), drawn[1])
        self.assertIn(sets.SAMPLE_SEED, self.rules.PUBLIC_SEEDS)

    def test_a_score_is_a_set_line_s_against_the_reference(self):
        ref = [1000, 128000]                     # N * P + I = 256000
        entry = [[500, 64000], [1000, 128000], 7, ref]
        self.assertEqual(self.rules.score_in(entry, 0), (N * 500 + 64000) / (N * 1000 + 128000))
        self.assertEqual(self.rules.score_in(entry, 0), 0.5)
        self.assertEqual(self.rules.score_in(entry, 1), 1.0)
        self.assertEqual(self.rules.difference(0, entry), -0.5)
        self.assertEqual(self.rules.outcome(entry), sprt.WIN)
        self.assertEqual(self.rules.outcome([entry[1], entry[0], 7, ref]), sprt.LOSS)
        self.assertEqual(self.rules.outcome([entry[1], entry[1], 7, ref]), sprt.DRAW)
        self.assertEqual(self.rules.scores([entry]), [-0.5])

    def test_the_import_weighs_one_share_in_n(self):
        """A cheaper import that costs more work a problem can lose: the
        score is the metric's, not a sum of counts."""
        ref = [1000, 0]
        lighter_import = [1010, 0]               # 1% more work, no import
        heavier_import = [1000, N * 5]           # the same work, an import of 5 a problem
        entry = [lighter_import, heavier_import, 7, ref]
        self.assertAlmostEqual(self.rules.difference(0, entry), 0.01 - 0.005)
        self.assertEqual(self.rules.outcome(entry), sprt.LOSS)

    def test_a_solver_past_its_deadline_scores_the_item_budget_and_loses(self):
        ref = [1000, 0]
        self.assertEqual(self.rules.score_in([None, ref, 7, ref], 0), 4.0)
        self.assertEqual(self.rules.difference(0, [None, ref, 7, ref]), 3.0)
        self.assertEqual(self.rules.outcome([None, ref, 7, ref]), sprt.LOSS)
        self.assertEqual(self.rules.outcome([ref, None, 7, ref]), sprt.WIN)
        self.assertEqual(self.rules.outcome([None, None, 7, ref]), sprt.DRAW)

    def test_a_saved_entry_is_checked_against_the_seed(self):
        seed = self.rules.draw("s", 2)["seed"]
        good = [[1, 2], None, seed, [3, 4]]
        self.assertIsNone(self.rules.bad_entry("s", 2, good))
        for bad in ([[1, 2], None, seed], [[1, -2], None, seed, [3, 4]],
                    [[1, 2.0], None, seed, [3, 4]], [[1], None, seed, [3, 4]],
                    [[1, 2], None, seed, "x"], "entry"):
            with self.subTest(entry=bad):
                self.assertIn("[challenger, incumbent, seed, reference]",
                              self.rules.bad_entry("s", 2, bad))
        self.assertIn("not problem 2 of the seed 's'",
                      self.rules.bad_entry("s", 2, [[1, 2], None, seed + 1, [3, 4]]))

    def test_a_play_is_shown_as_its_counts_and_summed_up_by_role(self):
        self.assertEqual(self.rules.shown([12, 34]), "[P 12, I 34]")
        ref = [1000, 0]
        lines = self.rules.lines([[[500, 0], ref, 1, ref], [[1500, 0], ref, 2, ref]], None)
        self.assertEqual(lines, ["set_size: %d" % N, "instruction_ratio.challenger: 1.000000",
                                 "instruction_ratio.incumbent: 1.000000"])


if __name__ == "__main__":
    unittest.main()
