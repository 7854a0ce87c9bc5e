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

    def test_the_fit_s_shared_resamples_are_mmi_s_bootstrap_bit_for_bit(self):
        """grader/fit.py draws the resampled indices once per length and
        reuses them (arh_grader.stats.SharedResamples): the same floats as
        mmi.bootstrap_se, for any scores."""
        shared = stats.SharedResamples(seed=SEED)
        rng = random.Random(7)
        for k, resamples, seed in ((40, stats.RESAMPLES, SEED), (500, 1000, SEED),
                                   (2, 300, "other"), (7, 500, SEED)):
            for scores in ([rng.random() * 2 for _ in range(k)],
                           [rng.randint(1, 400) for _ in range(k)], [0.5] * k):
                with self.subTest(k=k, resamples=resamples, seed=seed, kind=type(scores[0])):
                    self.assertEqual(shared(scores, resamples=resamples, seed=seed),
                                     bootstrap_se(scores, resamples=resamples, seed=seed))
        self.assertEqual(len(shared.drawn), 4)          # once per length

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
