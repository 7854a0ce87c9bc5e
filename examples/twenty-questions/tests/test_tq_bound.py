"""The information bound and the saved bits: their values, a brute force
over every question a tiny pool allows, and their validity on the real
matrix, where a tester's mean over the whole pool is its exact expectation."""

import itertools
import math
import unittest
import unittest.mock

import tq_support
from tq import data, direct, score


def brute_force(candidates, budget):
    """The best expected score on `candidates` animals when every subset is
    a question: a search over subsets, not sizes (independent of score.py)."""
    best = {}

    def value(alive, left):          # sum over found animals of 1 - 0.02 * call
        if not alive or not left:
            return 0.0
        if (alive, left) in best:
            return best[(alive, left)]
        call = budget - left + 1
        result = 0.0
        for animal in alive:         # guess it: found on this call, or go on
            result = max(result, 1 - 0.02 * call + value(alive - {animal}, left - 1))
        members = sorted(alive)
        for size in range(1, len(members)):
            for yes in itertools.combinations(members, size):
                part = frozenset(yes)
                result = max(result, value(part, left - 1) + value(alive - part, left - 1))
        best[(alive, left)] = result
        return result

    return value(frozenset(range(candidates)), budget) / candidates


class BoundTest(unittest.TestCase):
    def test_small_pools(self):
        for candidates, expected in ((1, 0.98), (2, 0.97), (3, 0.96), (4, 0.95), (5, 0.944),
                                     (10, 0.924)):
            with self.subTest(candidates=candidates):
                self.assertEqual(score.best_expected_score(candidates), expected)

    def test_the_recursion_on_sizes_is_the_search_on_subsets(self):
        for budget in range(1, 6):
            for candidates in range(1, 7):
                with self.subTest(candidates=candidates, budget=budget):
                    self.assertAlmostEqual(
                        score.best_expected_score(candidates, budget=budget),
                        brute_force(candidates, budget), places=12)

    def test_the_even_split_is_every_split_on_concave_rows(self):
        """score._table asks with the even split when the row before is
        concave: the same table, to the integer, as trying every split, and
        every row of the real budget is concave (so the fast way is taken)."""
        fast = score._table(score.BUDGET)
        self.assertTrue(all(score.is_concave(row) for row in fast))
        score._table.cache_clear()
        self.addCleanup(score._table.cache_clear)
        with unittest.mock.patch.object(score, "is_concave", return_value=False):
            self.assertEqual(score._table(score.BUDGET), fast)
        for row, concave in (([0, 2, 3, 3], True), ([0, 1, 3], False), ([5], True),
                             ([0, 3, 4, 6], False)):
            with self.subTest(row=row):
                self.assertIs(score.is_concave(row), concave)

    def test_pools_of_the_sets(self):
        values = [score.best_expected_score(c) for c in range(1, 1473)]
        self.assertEqual(values, sorted(values, reverse=True))    # more animals, harder
        self.assertAlmostEqual(score.best_expected_score(1472), 0.780870, places=6)
        self.assertAlmostEqual(score.best_expected_score(1322), 0.783238, places=6)
        self.assertAlmostEqual(score.best_expected_score(822), 0.797372, places=6)
        self.assertEqual(score.round_bound(pool=1472, index=1471), 0.98)
        self.assertEqual(score.round_bound(pool=1322, index=0), score.best_expected_score(1322))

    def test_bad_arguments(self):
        for call in (lambda: score.best_expected_score(0),
                     lambda: score.best_expected_score(1473),
                     lambda: score.best_expected_score(True),
                     lambda: score.best_expected_score(5, budget=0),
                     lambda: score.round_bound(pool=10, index=10),
                     lambda: score.round_bound(pool=10, index=-1),
                     lambda: score.saved_bits(found=True, calls=1, candidates=0)):
            with self.assertRaises(ValueError):
                call()


class ValidityTest(unittest.TestCase):
    """Over the whole pool, each animal once, a tester's mean is exactly its
    expected score for an animal drawn uniformly: the bound must hold."""

    @classmethod
    def setUpClass(cls):
        cls.rounds = {}
        for name, path in (("baseline", tq_support.BASELINE),
                           ("fixed_order", tq_support.tester("fixed_order"))):
            play = direct.load_tester(path).play
            cls.rounds[name] = direct.run_set(play, range(data.ANIMALS))

    def test_whole_pool_means_are_below_the_bound(self):
        bound = score.best_expected_score(data.ANIMALS)
        for name, rounds in self.rounds.items():
            with self.subTest(tester=name):
                mean = score.mean_score(rounds)
                tq_support.show("\n%s on the whole pool: %.6f, bound %.6f" % (name, mean, bound))
                self.assertLess(mean, bound)

    def test_kraft_holds_for_the_saved_bits(self):
        for name, rounds in self.rounds.items():
            with self.subTest(tester=name):
                mean = math.fsum(2 ** score.saved_bits(found=r.found, calls=r.calls,
                                                       candidates=data.ANIMALS)
                                 for r in rounds) / data.ANIMALS
                self.assertLessEqual(mean, 1.0)

    def test_saved_bits(self):
        self.assertEqual(score.saved_bits(found=True, calls=3, candidates=8), 0.0)
        self.assertEqual(score.saved_bits(found=False, calls=15, candidates=8), -15.0)
        self.assertEqual(score.saved_bits(found=True, calls=1, candidates=1024), 9.0)


if __name__ == "__main__":
    unittest.main()
