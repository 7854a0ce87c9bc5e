"""The sequential test's settings and its record (arh_grader.compare.sprt):
the defaults and the exact fixed sample they rest on, bad settings refused,
seeded mock judges whose every case asserts how many comparisons the
decision took, not only the decision, and a record's round trip through
the state file. The exact error rates and costs: test_sprt_exact.py; the
command and the manual's figures: test_sprt_command.py."""

import math
import os
import random
import statistics
import sys
import unittest
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: support
import support  # noqa: E402  (puts grader/ on the path)
from arh_grader import write_json  # noqa: E402
from arh_grader.compare import sprt, sprt_exact  # noqa: E402
from arh_grader.compare import state as compare_state  # noqa: E402

SEEDS = range(100)
SIMULATION_SEED = "sprt-simulation"    # the simulated runs' draws
DEFAULTS = sprt.Settings()


def judge(seed, *, win, loss):
    """Endless outcomes: WIN with probability `win`, LOSS with `loss`, else DRAW."""
    rng = random.Random(seed)
    while True:
        x = rng.random()
        yield sprt.WIN if x < win else sprt.LOSS if x < win + loss else sprt.DRAW


def run(seed, *, win, loss, settings=None):
    return sprt.run(settings or DEFAULTS, judge(seed, win=win, loss=loss))


def exact_fixed_n(alpha, beta, p1):
    """(n, cutoff, size, power) of the smallest exact one-sided binomial test
    of 1/2 against p1, in whole numbers and fractions: apart from sprt."""
    n = 0
    while True:
        n += 1
        c, upper = n + 1, 0
        while c > 0 and Fraction(upper + math.comb(n, c - 1), 2 ** n) <= alpha:
            c -= 1
            upper += math.comb(n, c)
        a, b = p1.numerator, p1.denominator
        power = Fraction(sum(math.comb(n, k) * a ** k * (b - a) ** (n - k)
                             for k in range(c, n + 1)), b ** n)
        if power >= 1 - beta:
            return n, c, Fraction(upper, 2 ** n), power


FIXED_N = exact_fixed_n(Fraction(1, 20), Fraction(1, 20), Fraction(3, 5))[0]


class SettingsTest(unittest.TestCase):
    def test_defaults_bounds_and_the_exact_fixed_sample(self):
        s = DEFAULTS
        self.assertEqual((s.alpha, s.beta, s.delta, s.draw_ceiling, s.draw_alpha, s.min_sample,
                          s.max_decisive), (0.05, 0.05, 0.1, 0.85, 0.01, 30, 536))
        self.assertAlmostEqual(s.upper, math.log(19), places=12)
        self.assertAlmostEqual(s.lower, -math.log(19), places=12)
        self.assertEqual(round(s.upper, 3), 2.944)
        self.assertAlmostEqual(s.win_step, math.log(1.2), places=12)
        self.assertAlmostEqual(s.loss_step, math.log(0.8), places=12)
        n, c, size, power = exact_fixed_n(Fraction(1, 20), Fraction(1, 20), Fraction(3, 5))
        self.assertEqual((n, c, round(float(size), 4), round(float(power), 4)),
                         (268, 148, 0.0495, 0.9507))
        self.assertEqual((s.fixed_sample, s.max_decisive), (268, 2 * 268))
        cutoff, size_here, power_here = sprt.binomial_test(268, 0.05, 0.6)
        self.assertEqual(cutoff, 148)
        self.assertAlmostEqual(size_here, float(size), places=12)
        self.assertAlmostEqual(power_here, float(power), places=12)
        self.assertLess(sprt.binomial_test(267, 0.05, 0.6)[2], 0.95)
        # the normal approximation says 266; neither 266 nor 267 has the power
        self.assertEqual([sprt.binomial_test(k, 0.05, 0.6)[2] >= 0.95 for k in (266, 267, 269)],
                         [False, False, False])

    def test_fixed_samples_of_other_settings(self):
        for alpha, beta, delta, p1, n in ((0.05, 0.05, 0.2, Fraction(7, 10), 67),
                                          (0.1, 0.1, 0.2, Fraction(7, 10), 39),
                                          (0.01, 0.05, 0.15, Fraction(13, 20), 174)):
            with self.subTest(alpha=alpha, beta=beta, delta=delta):
                exact = exact_fixed_n(Fraction(alpha), Fraction(beta), p1)[0]
                self.assertEqual((sprt.fixed_sample_size(alpha, beta, delta), exact), (n, n))
        for alpha, beta, delta, n in ((0.01, 0.01, 0.1, 535), (0.1, 0.05, 0.05, 861)):
            with self.subTest(alpha=alpha, beta=beta, delta=delta):
                self.assertEqual(sprt.fixed_sample_size(alpha, beta, delta), n)
                self.assertGreaterEqual(sprt.binomial_test(n, alpha, 0.5 + delta)[2], 1 - beta)
                self.assertLess(sprt.binomial_test(n - 1, alpha, 0.5 + delta)[2], 1 - beta)

    def test_bad_settings_are_refused_quoting_the_value(self):
        cases = [({"alpha": 0.0}, "alpha must be in (0, 0.5), got 0.0"),
                 ({"beta": 0.5}, "beta must be in (0, 0.5), got 0.5"),
                 ({"delta": 0.6}, "delta must be in [0.01, 0.5), got 0.6"),
                 ({"delta": 0.001}, "delta must be in [0.01, 0.5), got 0.001"),
                 ({"alpha": float("nan")}, "alpha must be a finite number, got nan"),
                 ({"alpha": "0.05"}, "alpha must be a finite number, got '0.05'"),
                 ({"draw_ceiling": 1.0}, "draw_ceiling must be in (0, 1), got 1.0"),
                 ({"draw_alpha": 0.7}, "draw_alpha must be in (0, 0.5), got 0.7"),
                 ({"min_sample": 0}, "min_sample must be an integer of at least 1, got 0"),
                 ({"min_sample": 3.0}, "min_sample must be an integer of at least 1, got 3.0"),
                 ({"max_decisive": -2}, "max_decisive must be an integer of at least 1, got -2")]
        for options, message in cases:
            with self.subTest(options=options):
                with self.assertRaises(sprt.SettingsError) as caught:
                    sprt.Settings(**options)
                self.assertEqual(str(caught.exception), message)


class MockJudgeTest(unittest.TestCase):
    def test_a_70_percent_winner_is_accepted_far_below_the_fixed_sample(self):
        record = run(0, win=0.7, loss=0.3)
        support.show("\n70%% winner, seed 0: accepted after %d comparisons; fixed sample %d"
                     % (record.comparisons, FIXED_N))
        self.assertEqual((record.decision, record.reason), (sprt.ACCEPT, sprt.UPPER))
        self.assertEqual((record.wins, record.losses, record.draws), (47, 25, 0))
        self.assertLess(record.comparisons, FIXED_N / 3)
        self.assertGreaterEqual(record.llr, record.settings.upper)
        # the boundary was crossed on the last comparison, not before
        self.assertLess(sprt.log_ratio(record.settings, 46, 25), record.settings.upper)

    def test_a_fair_coin_is_rejected_within_a_bounded_count(self):
        record = run(0, win=0.5, loss=0.5)
        self.assertEqual((record.decision, record.reason), (sprt.REJECT, sprt.LOWER))
        self.assertEqual((record.wins, record.losses, record.draws), (25, 34, 0))
        self.assertLessEqual(record.llr, record.settings.lower)
        self.assertGreater(sprt.log_ratio(record.settings, 25, 33), record.settings.lower)
        self.assertLess(record.comparisons, FIXED_N)

    def test_all_draws_end_on_the_ceiling_within_60_comparisons(self):
        for min_sample, end in ((1, 83), (30, 58), (50, 54)):
            with self.subTest(min_sample=min_sample):
                settings = sprt.Settings(min_sample=min_sample)
                record = run(0, win=0.0, loss=0.0, settings=settings)
                self.assertEqual((record.decision, record.reason), (sprt.REJECT, sprt.CEILING))
                self.assertEqual((record.wins, record.losses, record.draws), (0, 0, end))
                self.assertEqual(sprt_exact.all_draws_end(settings), end)
                self.assertEqual(record.llr, 0.0)
        self.assertLessEqual(sprt_exact.all_draws_end(DEFAULTS), 60)

    def test_the_ceiling_asks_for_evidence_not_a_rate(self):
        s = DEFAULTS
        self.assertEqual(sprt.decide(s, 0, 0, 29), (sprt.CONTINUE, None))
        self.assertEqual(sprt.decide(s, 0, 0, 57), (sprt.CONTINUE, None))
        self.assertEqual(sprt.decide(s, 0, 0, 58), (sprt.REJECT, sprt.CEILING))
        self.assertEqual(sprt.decide(s, 1, 2, 27), (sprt.CONTINUE, None))   # 0.9 of 30: not yet
        self.assertEqual(sprt.draw_limit(s, 1000), 909)                     # 0.909 of 1000
        self.assertEqual(sprt.decide(s, 50, 41, 909), (sprt.REJECT, sprt.CEILING))
        self.assertEqual(sprt.decide(s, 50, 42, 908), (sprt.CONTINUE, None))
        self.assertEqual(sprt.decide(s, 16, 0, 144), (sprt.CONTINUE, None))
        self.assertEqual(sprt.decide(s, 17, 0, 144), (sprt.ACCEPT, sprt.UPPER))

    def test_truncation_counts_decisive_comparisons(self):
        s = sprt.Settings(max_decisive=10)
        self.assertEqual(sprt.decide(s, 5, 4, 40), (sprt.CONTINUE, None))
        self.assertEqual(sprt.decide(s, 6, 4, 0), (sprt.ACCEPT, sprt.TRUNCATED))   # llr > 0
        self.assertEqual(sprt.decide(s, 5, 5, 0), (sprt.REJECT, sprt.TRUNCATED))   # llr < 0
        record = sprt.run(s, [sprt.WIN, sprt.LOSS, sprt.DRAW] * 10)
        self.assertEqual((record.decisive, record.comparisons, record.reason), (10, 14,
                                                                                sprt.TRUNCATED))

    def test_a_30_percent_winner_is_rejected_well_before_a_70_percent_one_is_accepted(self):
        record = run(0, win=0.3, loss=0.7)
        self.assertEqual((record.decision, record.reason), (sprt.REJECT, sprt.LOWER))
        self.assertEqual((record.wins, record.losses, record.draws), (3, 16, 0))
        self.assertLess(record.comparisons, run(0, win=0.7, loss=0.3).comparisons / 2)
        worse = statistics.fmean(run(s, win=0.3, loss=0.7).comparisons for s in SEEDS)
        better = statistics.fmean(run(s, win=0.7, loss=0.3).comparisons for s in SEEDS)
        support.show("\nmean comparisons over 100 seeds: 30%% winner %.2f, 70%% winner %.2f"
                     % (worse, better))
        self.assertLess(worse, 0.7 * better)

    def test_draws_do_not_move_the_ratio_and_are_counted(self):
        with_draws = sprt.run(DEFAULTS, [sprt.WIN, sprt.DRAW, sprt.WIN, sprt.DRAW])
        without = sprt.run(DEFAULTS, [sprt.WIN, sprt.WIN])
        self.assertEqual(with_draws.llr, without.llr)
        self.assertEqual(with_draws.llr, 2 * math.log(1.2))
        self.assertEqual((with_draws.wins, with_draws.losses, with_draws.draws), (2, 0, 2))
        self.assertEqual((without.wins, without.losses, without.draws), (2, 0, 0))
        self.assertEqual((with_draws.comparisons, without.comparisons), (4, 2))
        self.assertEqual(with_draws.decision, sprt.CONTINUE)

    def test_order_and_a_reload_do_not_change_the_ratio(self):
        outcomes = [sprt.WIN] * 5 + [sprt.LOSS] * 3 + [sprt.DRAW] * 2
        ratios = set()
        for seed in range(50):
            order = list(outcomes)
            random.Random(seed).shuffle(order)
            ratios.add(sprt.run(DEFAULTS, order).llr)
        self.assertEqual(ratios, {5 * math.log(1.2) + 3 * math.log(0.8)})
        record = sprt.run(DEFAULTS, outcomes)
        again = sprt.WinRecord.from_dict(DEFAULTS, record.to_dict())
        self.assertEqual((again.llr, again.comparisons), (record.llr, 10))

    def test_a_decided_record_refuses_more_comparisons(self):
        record = run(0, win=0.0, loss=0.0)
        for outcome in sprt.OUTCOMES:
            with self.subTest(outcome=outcome):
                with self.assertRaises(sprt.DecidedError):
                    record.add(outcome)
                self.assertEqual((record.comparisons, record.draws), (58, 58))
        self.assertEqual(sprt.run(record.settings, [sprt.WIN] * 100).comparisons, 17)
        with self.assertRaises(ValueError) as caught:
            sprt.WinRecord().add("half a win")
        self.assertIn("'half a win'", str(caught.exception))

    def test_simulation_agrees_with_the_exact_figures(self):
        for p, q in ((0.6, 0.0), (0.5, 0.5)):
            with self.subTest(p=p, q=q):
                runs = sprt_exact.simulate(DEFAULTS, p=p, q=q, runs=1000, seed=SIMULATION_SEED)
                self.assertEqual(runs, sprt_exact.simulate(DEFAULTS, p=p, q=q, runs=1000,
                                                           seed=SIMULATION_SEED))
                exact = sprt_exact.operating(DEFAULTS, p=p, q=q)
                share = sum(d == sprt.ACCEPT for d, _, _ in runs) / 1000
                sd = math.sqrt(exact["accept"] * (1 - exact["accept"]) / 1000)
                self.assertLess(abs(share - exact["accept"]), 5 * sd)
                mean = statistics.fmean(c for _, _, c in runs)
                self.assertLess(abs(mean - exact["expected_comparisons"]),
                                0.1 * exact["expected_comparisons"])


class PersistenceTest(unittest.TestCase):
    def test_a_record_round_trips_through_an_atomic_file(self):
        folder = support.tmpdir(self)
        path = os.path.join(folder, "state.json")
        self.assertIsNone(compare_state.load_json(path))
        record = run(3, win=0.6, loss=0.2)
        write_json(path, {"record": record.to_dict()})
        write_json(path, {"record": record.to_dict(), "again": True})
        self.assertEqual(os.listdir(folder), ["state.json"])
        loaded = sprt.WinRecord.from_dict(record.settings, compare_state.load_json(path)["record"])
        self.assertEqual(loaded.to_dict(), record.to_dict())
        self.assertEqual(loaded.llr, record.llr)

    def test_a_record_whose_decision_does_not_fit_its_counts_is_refused(self):
        cases = [({"wins": 1, "losses": 0, "draws": 0, "decision": "accept",
                   "reason": "upper_bound"}, "the record says ('accept', 'upper_bound') but "
                  "its counts give ('continue', None)"),
                 ({"wins": -1, "losses": 0, "draws": 0, "decision": "continue",
                   "reason": None}, "wins must be a count (an integer >= 0), got -1"),
                 ({"wins": 1}, "a record must hold exactly")]
        for data, message in cases:
            with self.subTest(data=data):
                with self.assertRaises(sprt.StateError) as caught:
                    sprt.WinRecord.from_dict(DEFAULTS, data)
                self.assertIn(message, str(caught.exception))

    def test_a_broken_file_is_a_state_error_naming_it(self):
        path = support.write(self, "state.json", "{not json")
        with self.assertRaises(sprt.StateError) as caught:
            compare_state.load_json(path)
        self.assertIn(path, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
