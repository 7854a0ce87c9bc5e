"""The sequential test on seeded mock judges of known win rates: every case
asserts how many comparisons the decision took, not only the decision."""

import math
import os
import random
import statistics
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # also as tests.test_sprt
import support  # noqa: E402  (puts grader/ on the path)
import sprt  # noqa: E402
from arh_grader import write_json  # noqa: E402

SEEDS = range(100)
WRONG_MAX = 10        # wrong decisions allowed of 100 (Binomial(100, 0.05) tops 5 often)


def judge(seed, *, win, loss):
    """Endless outcomes: WIN with probability `win`, LOSS with `loss`, else DRAW."""
    rng = random.Random(seed)
    while True:
        x = rng.random()
        yield sprt.WIN if x < win else sprt.LOSS if x < win + loss else sprt.DRAW


def run(seed, *, win, loss, settings=None):
    return sprt.run(settings or sprt.Settings(), judge(seed, win=win, loss=loss))


def fixed_n(alpha, beta, delta):
    """The fixed-sample size of a one-sided test of p = 0.5 against 0.5 + delta
    (normal approximation), computed here apart from sprt."""
    z = statistics.NormalDist().inv_cdf
    p1 = 0.5 + delta
    return math.ceil(((z(1 - alpha) * 0.5 + z(1 - beta) * math.sqrt(p1 * (1 - p1)))
                      / delta) ** 2)


FIXED_N = fixed_n(sprt.ALPHA, sprt.BETA, sprt.DELTA)

# name, P(win), P(loss), the right (decision, reason), comparisons on seed 0,
# most comparisons allowed on any of 100 seeds, bounds on their mean
CASES = [
    ("70% winner", 0.7, 0.3, (sprt.ACCEPT, sprt.UPPER), 72, 130, (40, 60)),
    ("50/50 coin", 0.5, 0.5, (sprt.REJECT, sprt.LOWER), 59, 700, (120, 200)),
    ("all draws", 0.0, 0.0, (sprt.REJECT, sprt.CEILING), 30, 30, (30, 30)),
    ("30% winner", 0.3, 0.7, (sprt.REJECT, sprt.LOWER), 19, 70, (22, 38)),
    ("70% of decisive, half draws", 0.35, 0.15, (sprt.ACCEPT, sprt.UPPER), 137, 250, (80, 110)),
]


class SettingsTest(unittest.TestCase):
    def test_defaults_bounds_and_fixed_sample(self):
        s = sprt.Settings()
        self.assertEqual((s.alpha, s.beta, s.delta, s.draw_ceiling, s.min_sample),
                         (0.05, 0.05, 0.1, 0.9, 30))
        self.assertAlmostEqual(s.upper, math.log(19), places=12)
        self.assertAlmostEqual(s.lower, -math.log(19), places=12)
        self.assertEqual(round(s.upper, 3), 2.944)
        self.assertAlmostEqual(s.win_step, math.log(1.2), places=12)
        self.assertAlmostEqual(s.loss_step, math.log(0.8), places=12)
        self.assertEqual(FIXED_N, 266)
        for alpha, beta, delta, n in ((0.05, 0.05, 0.1, 266), (0.05, 0.05, 0.2, 63),
                                      (0.01, 0.01, 0.1, 531), (0.1, 0.05, 0.05, 852)):
            with self.subTest(alpha=alpha, beta=beta, delta=delta):
                settings = sprt.Settings(alpha=alpha, beta=beta, delta=delta)
                self.assertEqual(sprt.fixed_sample_size(settings), n)
                self.assertEqual(fixed_n(alpha, beta, delta), n)

    def test_bad_settings_are_refused_quoting_the_value(self):
        cases = [({"alpha": 0.0}, "alpha must be in (0, 0.5), got 0.0"),
                 ({"beta": 0.5}, "beta must be in (0, 0.5), got 0.5"),
                 ({"delta": 0.6}, "delta must be in (0, 0.5), got 0.6"),
                 ({"alpha": float("nan")}, "alpha must be a finite number, got nan"),
                 ({"alpha": "0.05"}, "alpha must be a finite number, got '0.05'"),
                 ({"draw_ceiling": 1.5}, "draw_ceiling must be in [0, 1], got 1.5"),
                 ({"min_sample": 0}, "min_sample must be an integer of at least 1, got 0"),
                 ({"min_sample": 3.0}, "min_sample must be an integer of at least 1, got 3.0")]
        for options, message in cases:
            with self.subTest(options=options):
                with self.assertRaises(sprt.SettingsError) as caught:
                    sprt.Settings(**options)
                self.assertEqual(str(caught.exception), message)


class MockJudgeTest(unittest.TestCase):
    def test_a_70_percent_winner_is_accepted_far_below_the_fixed_sample(self):
        record = run(0, win=0.7, loss=0.3)
        print("\n70%% winner, seed 0: accepted after %d comparisons; fixed sample %d"
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

    def test_all_draws_end_on_the_ceiling_at_exactly_the_minimum_sample(self):
        for min_sample in (1, 30, 50):
            with self.subTest(min_sample=min_sample):
                settings = sprt.Settings(min_sample=min_sample)
                record = run(0, win=0.0, loss=0.0, settings=settings)
                self.assertEqual((record.decision, record.reason), (sprt.REJECT, sprt.CEILING))
                self.assertEqual((record.wins, record.losses, record.draws),
                                 (0, 0, min_sample))
                self.assertEqual(record.llr, 0.0)

    def test_the_ceiling_waits_for_the_minimum_sample_and_a_rate_above_it(self):
        settings = sprt.Settings()
        self.assertEqual(sprt.decide(settings, 0, 0, 29), (sprt.CONTINUE, None))
        self.assertEqual(sprt.decide(settings, 1, 2, 27), (sprt.CONTINUE, None))  # 0.9: not over
        self.assertEqual(sprt.decide(settings, 1, 2, 28), (sprt.REJECT, sprt.CEILING))
        self.assertEqual(sprt.decide(settings, 16, 0, 144), (sprt.CONTINUE, None))
        self.assertEqual(sprt.decide(settings, 17, 0, 144), (sprt.ACCEPT, sprt.UPPER))

    def test_a_30_percent_winner_is_rejected_well_before_a_70_percent_one_is_accepted(self):
        record = run(0, win=0.3, loss=0.7)
        self.assertEqual((record.decision, record.reason), (sprt.REJECT, sprt.LOWER))
        self.assertEqual((record.wins, record.losses, record.draws), (3, 16, 0))
        self.assertLess(record.comparisons, run(0, win=0.7, loss=0.3).comparisons / 2)
        worse = statistics.fmean(run(s, win=0.3, loss=0.7).comparisons for s in SEEDS)
        better = statistics.fmean(run(s, win=0.7, loss=0.3).comparisons for s in SEEDS)
        print("\nmean comparisons over 100 seeds: 30%% winner %.2f, 70%% winner %.2f"
              % (worse, better))
        self.assertLess(worse, 0.7 * better)

    def test_draws_do_not_move_the_ratio_and_are_counted(self):
        settings = sprt.Settings()
        with_draws = sprt.run(settings, [sprt.WIN, sprt.DRAW, sprt.WIN, sprt.DRAW])
        without = sprt.run(settings, [sprt.WIN, sprt.WIN])
        self.assertEqual(with_draws.llr, without.llr)
        self.assertEqual(with_draws.llr, 2 * math.log(1.2))
        self.assertEqual((with_draws.wins, with_draws.losses, with_draws.draws), (2, 0, 2))
        self.assertEqual((without.wins, without.losses, without.draws), (2, 0, 0))
        self.assertEqual((with_draws.comparisons, without.comparisons), (4, 2))
        self.assertEqual(with_draws.decision, sprt.CONTINUE)

    def test_order_and_a_reload_do_not_change_the_ratio(self):
        settings = sprt.Settings()
        outcomes = [sprt.WIN] * 5 + [sprt.LOSS] * 3 + [sprt.DRAW] * 2
        ratios = set()
        for seed in range(50):
            order = list(outcomes)
            random.Random(seed).shuffle(order)
            ratios.add(sprt.run(settings, order).llr)
        self.assertEqual(ratios, {5 * math.log(1.2) + 3 * math.log(0.8)})
        record = sprt.run(settings, outcomes)
        again = sprt.WinRecord.from_dict(settings, record.to_dict())
        self.assertEqual((again.llr, again.comparisons), (record.llr, 10))

    def test_a_decided_record_refuses_more_comparisons(self):
        record = run(0, win=0.0, loss=0.0)
        for outcome in sprt.OUTCOMES:
            with self.subTest(outcome=outcome):
                with self.assertRaises(sprt.DecidedError):
                    record.add(outcome)
                self.assertEqual((record.comparisons, record.draws), (30, 30))
        self.assertEqual(sprt.run(record.settings, [sprt.WIN] * 100).comparisons, 17)
        with self.assertRaises(ValueError):
            sprt.WinRecord().add("half a win")

    def test_each_case_over_100_seeds(self):
        for name, win, loss, right, first, most, (low, high) in CASES:
            with self.subTest(case=name):
                records = [run(seed, win=win, loss=loss) for seed in SEEDS]
                counts = [r.comparisons for r in records]
                wrong = sum((r.decision, r.reason) != right for r in records)
                mean = statistics.fmean(counts)
                print("\n%s: %d wrong of 100; comparisons mean %.2f, max %d, seed 0 %d; "
                      "fixed sample %d" % (name, wrong, mean, max(counts), counts[0], FIXED_N))
                self.assertTrue(all(r.decision != sprt.CONTINUE for r in records))
                self.assertLessEqual(wrong, WRONG_MAX)
                self.assertEqual(counts[0], first)
                self.assertLessEqual(max(counts), most)
                self.assertTrue(low <= mean <= high, mean)
                if right[0] == sprt.ACCEPT:     # fixed_n counts decisive comparisons
                    decisive = statistics.fmean(r.wins + r.losses for r in records)
                    self.assertLess(decisive, FIXED_N / 4)


class PersistenceTest(unittest.TestCase):
    def test_a_record_round_trips_through_an_atomic_file(self):
        folder = support.tmpdir(self)
        path = os.path.join(folder, "state.json")
        self.assertIsNone(sprt.load_json(path))
        record = run(3, win=0.6, loss=0.2)
        write_json(path, {"record": record.to_dict()})
        write_json(path, {"record": record.to_dict(), "again": True})
        self.assertEqual(os.listdir(folder), ["state.json"])
        loaded = sprt.WinRecord.from_dict(record.settings, sprt.load_json(path)["record"])
        self.assertEqual(loaded.to_dict(), record.to_dict())
        self.assertEqual(loaded.llr, record.llr)

    def test_a_record_whose_decision_does_not_fit_its_counts_is_refused(self):
        settings = sprt.Settings()
        cases = [({"wins": 1, "losses": 0, "draws": 0, "decision": "accept",
                   "reason": "upper_bound"}, "the record says ('accept', 'upper_bound') but "
                  "its counts give ('continue', None)"),
                 ({"wins": -1, "losses": 0, "draws": 0, "decision": "continue",
                   "reason": None}, "wins must be a count (an integer >= 0), got -1"),
                 ({"wins": 1}, "a record must hold exactly")]
        for data, message in cases:
            with self.subTest(data=data):
                with self.assertRaises(sprt.StateError) as caught:
                    sprt.WinRecord.from_dict(settings, data)
                self.assertIn(message, str(caught.exception))

    def test_a_broken_file_is_a_state_error_naming_it(self):
        path = support.write(self, "state.json", "{not json")
        with self.assertRaises(sprt.StateError) as caught:
            sprt.load_json(path)
        self.assertIn(path, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
