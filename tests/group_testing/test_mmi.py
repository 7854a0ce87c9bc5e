"""The bootstrap floor: right on data whose standard error is known, stable
to the printed decimals, and clear about bad input."""

import json
import math
import random
import statistics
import unittest

import support
from arh_grader import stats

SEED = support.PROBLEM.RESAMPLING_SEED      # grader/mmi.py's resampling seed


def bootstrap_se(scores, *, resamples=stats.RESAMPLES, seed=SEED):
    return stats.bootstrap_se(scores, resamples=resamples, seed=seed)


class BootstrapTest(unittest.TestCase):
    def test_matches_the_analytic_standard_error(self):
        rng = random.Random(5)
        scores = [rng.gauss(0.8, 0.15) for _ in range(500)]
        analytic = statistics.stdev(scores) / math.sqrt(len(scores))
        self.assertAlmostEqual(bootstrap_se(scores, resamples=5000), analytic,
                               delta=0.05 * analytic)

    def test_the_printed_floor_does_not_depend_on_the_seed(self):
        rng = random.Random(6)
        scores = [min(2.0, max(0.2, rng.gauss(0.78, 0.15))) for _ in range(500)]
        floors = {"%.3f" % (2 * bootstrap_se(scores, seed=s)) for s in ("a", "b", "c")}
        self.assertEqual(len(floors), 1, floors)

    def test_the_ideal_bootstrap_is_the_resampled_one_s_limit(self):
        """stats.ideal_bootstrap_se (the fit's and the headroom's) is the
        figure bootstrap_se estimates: exact on lists worked by hand, and
        within a few of bootstrap_se's own errors (1 / sqrt(2 resamples))
        on lists of every shape."""
        for scores, exact in (([0.0, 1.0], 0.5 / math.sqrt(2)), ([0.5] * 9, 0.0),
                              ([1, 2, 3, 4], math.sqrt(5) / 4), ([7.25], 0.0)):
            with self.subTest(scores=scores):
                self.assertAlmostEqual(stats.ideal_bootstrap_se(scores), exact, places=15)
        rng = random.Random(7)
        for k in (40, 500):
            for scores in ([rng.random() * 2 for _ in range(k)],
                           [rng.randint(1, 400) for _ in range(k)],
                           [rng.choice((0.6, 1.0)) for _ in range(k)]):
                with self.subTest(k=k, kind=type(scores[0])):
                    ideal = stats.ideal_bootstrap_se(scores)
                    self.assertAlmostEqual(bootstrap_se(scores, resamples=2000), ideal,
                                           delta=4 * ideal / math.sqrt(2 * 2000))

    def test_baseline_result_has_zero_floor_and_bad_input_is_named(self):
        folder = support.tmpdir(self)
        good = support.write(self, "result.json", json.dumps(
            {"status": "valid", "relative_tests": 1.0,
             "items": [{"score": 1.0}, {"score": 1.0}, {"score": 1.0}]}))
        status, out, _ = support.run_command(self, "grader/mmi.py", good)
        lines = support.lines_of(out)
        self.assertEqual((status, lines["floor"], lines["standard_error"]), (0, "0.000", "0.0000"))
        for name, text in (("invalid", '{"status": "invalid", "items": []}'),
                           ("broken", "{"), ("missing", None)):
            with self.subTest(name=name):
                path = folder + "/" + name
                if text is not None:
                    with open(path, "w") as f:
                        f.write(text)
                status, _, err = support.run_command(self, "grader/mmi.py", path)
                self.assertEqual(status, 2)
                self.assertIn(repr(path), err)


if __name__ == "__main__":
    unittest.main()
