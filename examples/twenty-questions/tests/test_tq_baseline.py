"""The baseline on the public sets beside the information bound, the weaker
tester below it, and the faulty testers as the in-process route sees them."""

import statistics
import unittest

import tq_support
from tq import direct, score, sets

DEV = [item["animal"] for item in sets.read_set(sets.DEV_FILE)]
TEST = [item["animal"] for item in sets.read_set(sets.TEST_FILE)]


def play_of(path):
    return direct.load_tester(path).play


class BaselineTest(unittest.TestCase):
    def test_public_sets_beside_the_bound(self):
        play = play_of(tq_support.BASELINE)
        for name, animals, expected, found, bound in (
                ("dev", DEV, 0.7534666666666666, 147, 0.7820032506238787),
                ("test", TEST, 0.7540800000000001, 486, 0.7891797387258903)):
            with self.subTest(set=name):
                rounds = direct.run_set(play, animals)
                mean = score.mean_score(rounds)
                set_bound = statistics.fmean(sets.bounds(animals))
                tq_support.show("\nbaseline on %s: %.6f (found %d of %d, %.3f calls), bound %.6f"
                                % (name, mean, sum(r.found for r in rounds), len(rounds),
                                   statistics.fmean(r.calls for r in rounds), set_bound))
                self.assertEqual(mean, expected)
                self.assertEqual(sum(r.found for r in rounds), found)
                self.assertEqual(set_bound, bound)
                self.assertLess(mean, set_bound)
                self.assertTrue(all(r.refused == 0 and r.calls <= 15 for r in rounds))

    def test_deterministic(self):
        first = direct.run_set(play_of(tq_support.BASELINE), DEV[:40])
        again = direct.run_set(play_of(tq_support.BASELINE), DEV[:40])
        self.assertEqual(first, again)

    def test_the_weaker_tester_is_weaker(self):
        rounds = direct.run_set(play_of(tq_support.tester("fixed_order")), DEV)
        tq_support.show("\nfixed_order on dev: %.6f" % score.mean_score(rounds))
        self.assertEqual(score.mean_score(rounds), 0.442)


class FaultyTestersTest(unittest.TestCase):
    def test_failures(self):
        for name, words in (
                ("guesses_out_of_pool", "QueryError: 'guess' must be in 0..1471, got 1472"),
                ("asks_boolean", "QueryError: 'ask' must be an integer, got True"),
                ("raises", "RuntimeError: the tester gave up")):
            with self.subTest(tester=name):
                with self.assertRaises(direct.TesterError) as caught:
                    direct.run_round(play_of(tq_support.tester(name)), DEV[0])
                self.assertIn(words, str(caught.exception))

    def test_an_exit_is_a_failure_not_the_end_of_the_run(self):
        def exits(ask, guess):
            raise SystemExit(3)

        with self.assertRaises(direct.TesterError) as caught:
            direct.run_round(exits, DEV[0])
        self.assertIn("play raised SystemExit: 3", str(caught.exception))

    def test_the_budget_ends_a_round(self):
        r = direct.run_round(play_of(tq_support.tester("asks_forever")), DEV[0])
        self.assertEqual((r.found, r.calls, r.score), (False, 15, 0.0))

    def test_calls_after_a_correct_guess_end_it(self):
        def plays_on(ask, guess):
            guess(DEV[0])
            ask(0)
            raise AssertionError("not reached")

        r = direct.run_round(plays_on, DEV[0])
        self.assertEqual((r.found, r.calls, r.score), (True, 1, 0.98))

    def test_refusals_use_no_call_and_can_be_caught(self):
        def careless(ask, guess):
            for value in (True, -1, 1472, 1.0):
                try:
                    guess(value)
                except ValueError:
                    pass
            guess(DEV[0])

        r = direct.run_round(careless, DEV[0])
        self.assertEqual((r.found, r.calls, r.refused, r.score), (True, 1, 4, 0.98))

    def test_the_set_reader_saves_too_many_bits(self):
        pool = sets.pool_of(DEV)[1]
        saved = {}
        for name, path in (("reads_set", tq_support.tester("reads_set")),
                           ("baseline", tq_support.BASELINE)):
            rounds = direct.run_set(play_of(path), DEV)
            saved[name] = sum(score.saved_bits(found=r.found, calls=r.calls,
                                               candidates=pool - i)
                              for i, r in enumerate(rounds))
        self.assertGreater(saved["reads_set"], 1000)      # 2^-1000: not by chance
        self.assertLess(saved["baseline"], 0)


if __name__ == "__main__":
    unittest.main()
