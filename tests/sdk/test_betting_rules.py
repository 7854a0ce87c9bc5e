"""arh_grader/compare/betting.py on numbers made by hand, which needs no
problem: identical testers (every difference 0) rejected on the reject
bound, the confidence sequence and its words, bad settings named and a
decided record closed. The decisions and error rates on real testers'
differences, and grader/compare.py run for real:
tests/group_testing/test_betting.py."""

import unittest

import support  # noqa: F401  (puts grader/ on the path)
from arh_grader.compare import betting


class DecisionTest(unittest.TestCase):
    def test_identical_testers_are_rejected(self):
        record = betting.run(betting.Settings(), [0.0] * 5000)
        self.assertEqual((record.decision, record.reason), ("reject", "reject_bound"))
        self.assertLess(record.comparisons, 1500)
        self.assertEqual(record.comparisons, 998)      # where the reject side reaches 1 / beta
        self.assertEqual(record.e_accept, 1.0)         # zeros never move it

    def test_the_confidence_sequence_by_hand(self):
        self.assertIsNone(betting.confidence_sequence([]))
        mean, low, high = betting.confidence_sequence([0.0] * 400)
        self.assertEqual(mean, 0.0)
        self.assertTrue(-0.05 < low < 0 < high < 0.05, (low, high))
        self.assertAlmostEqual(low, -high, places=9)
        self.assertAlmostEqual(high, 0.019369963236, places=12)
        self.assertTrue(betting.covers([0.0] * 400, 0.0))
        self.assertFalse(betting.covers([0.0] * 400, 0.1))
        mean, low, high = betting.confidence_sequence([5.0, -5.0, 0.5, 0.5])   # clipped
        self.assertEqual(mean, 0.25)
        self.assertEqual(betting.text([]), "-")
        self.assertRegex(betting.text([0.1, 0.2]), r"^0\.1500 \(99% confidence sequence "
                         r"-?\d\.\d{4} to \d\.\d{4}, 2 comparisons\)$")
        self.assertEqual(betting.text([0.1, 0.2]),
                         "0.1500 (99% confidence sequence -1.0000 to 1.0000, 2 comparisons)")

    def test_bad_settings_are_named_and_a_decided_record_takes_no_more(self):
        for values, words in (({"alpha": 0.7}, "alpha must be in (0, 0.5), got 0.7"),
                              ({"delta": 0.0}, "delta must be in (0, 0.1], got 0.0"),
                              ({"max_comparisons": 0}, "max_comparisons must be an integer")):
            with self.subTest(values=values):
                with self.assertRaises(betting.SettingsError) as caught:
                    betting.Settings(**values)
                self.assertIn(words, str(caught.exception))
        record = betting.run(betting.Settings(max_comparisons=3), [0.0] * 3)
        self.assertEqual((record.decision, record.reason), ("reject", "max_comparisons"))
        self.assertEqual(record.comparisons, 3)
        with self.assertRaises(RuntimeError):
            record.add(0.0)


if __name__ == "__main__":
    unittest.main()
