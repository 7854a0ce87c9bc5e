"""The sequential test's error rates and costs computed exactly
(arh_grader.compare.sprt_exact), with the truncation and the draw ceiling
included, and the program that computes them checked against a plain one;
the draw ceiling's error control; and the normal interval of a mean
(arh_grader.compare.intervals) by hand."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: support
import support  # noqa: E402  (puts grader/ on the path)
from arh_grader.compare import intervals, sprt, sprt_exact  # noqa: E402

DEFAULTS = sprt.Settings()
OTHER = sprt.Settings(alpha=0.01, beta=0.05, delta=0.15)
DRAW_SLACK = 0.01     # P(reject | H1) may grow by this much at draw rates up to the ceiling


def plain_operating(settings, p, q):
    """(P(accept), P(reject), P(reject on the ceiling), E[comparisons]) by one
    program over (wins, losses, draws) that follows the rules step by step."""
    alive, accept, reject, ceiling, spent = {(0, 0, 0): 1.0}, 0.0, 0.0, 0.0, 0.0
    while alive:
        spent += sum(alive.values())
        grown = {}
        for (w, l, d), chance in alive.items():
            for key, step in (((w + 1, l, d), (1 - q) * p), ((w, l + 1, d), (1 - q) * (1 - p)),
                              ((w, l, d + 1), q)):
                grown[key] = grown.get(key, 0.0) + chance * step
        alive = {}
        for key, chance in grown.items():
            decision, reason = sprt.decide(settings, *key)
            if decision == sprt.ACCEPT:
                accept += chance
            elif decision == sprt.REJECT:
                reject += chance
                ceiling += chance if reason == sprt.CEILING else 0.0
            elif chance > 1e-18:
                alive[key] = chance
    return accept, reject, ceiling, spent


class ExactTest(unittest.TestCase):
    """Error rates and costs with the truncation and the ceiling included."""

    def test_the_two_programs_agree_with_a_plain_one(self):
        tiny = sprt.Settings(alpha=0.2, beta=0.1, delta=0.3, draw_ceiling=0.5, draw_alpha=0.2,
                             min_sample=5, max_decisive=12)
        for p, q in ((0.5, 0.3), (0.8, 0.6), (0.6, 0.0), (0.7, 0.9)):
            with self.subTest(p=p, q=q):
                f = sprt_exact.operating(tiny, p=p, q=q)
                plain = plain_operating(tiny, p, q)
                here = (f["accept"], f["reject"], f["reject_ceiling"], f["expected_comparisons"])
                for a, b in zip(here, plain):
                    self.assertAlmostEqual(a, b, places=12)
                self.assertLess(f["dropped"], 1e-15)

    def check_errors(self, settings, *, draw_rates, expected):
        fixed = settings.fixed_sample
        for q in draw_rates:
            with self.subTest(settings=settings, q=q):
                h0 = sprt_exact.operating(settings, p=sprt.P0, q=q)
                h1 = sprt_exact.operating(settings, p=settings.p1, q=q)
                support.show("\n%s q=%.2f: P(accept | 0.5) %.4f, P(reject | %.2f) %.4f (ceiling %.4f)"
                             % (settings, q, h0["accept"], settings.p1, h1["reject"],
                                h1["reject_ceiling"]))
                self.assertLessEqual(h0["accept"], settings.alpha)
                self.assertLessEqual(h1["reject"], settings.beta + (DRAW_SLACK if q else 0.0))
                for f in (h0, h1):
                    self.assertAlmostEqual(f["accept"] + f["reject"], 1.0, places=12)
                    self.assertLess(f["dropped"], 1e-12)
                    self.assertLess(f["expected_decisive"], fixed)
                    self.assertAlmostEqual(f["expected_comparisons"] * (1 - q),
                                           f["expected_decisive"], delta=1.0)
        for p, mean in expected:
            with self.subTest(settings=settings, p=p):
                f = sprt_exact.operating(settings, p=p, q=0.0)
                self.assertAlmostEqual(f["expected_decisive"], mean, places=1)
                self.assertLess(f["expected_decisive"], fixed)

    def test_the_defaults(self):
        self.check_errors(DEFAULTS, draw_rates=(0.0, 0.5, 0.8, 0.85),
                          expected=[(0.5, 134.6), (0.55, 213.6), (0.6, 136.0), (0.7, 49.9)])
        h0 = sprt_exact.operating(DEFAULTS, p=0.5, q=0.0)
        h1 = sprt_exact.operating(DEFAULTS, p=0.6, q=0.0)
        self.assertEqual((round(h0["accept"], 4), round(h1["reject"], 4)), (0.0476, 0.0466))
        self.assertGreater(sprt_exact.operating(DEFAULTS, p=0.55, q=0.0)["truncated"], 0.05)

    def test_another_setting(self):
        self.assertEqual((OTHER.fixed_sample, OTHER.max_decisive), (174, 348))
        self.check_errors(OTHER, draw_rates=(0.0, 0.85), expected=[(0.5, 65.0), (0.65, 94.7)])

    def test_the_ceiling_never_raises_the_chance_of_accepting(self):
        for q in (0.9, 0.95, 0.99, 1.0):
            with self.subTest(q=q):
                self.assertLessEqual(sprt_exact.operating(DEFAULTS, p=0.5, q=q)["accept"], 0.05)
        f = sprt_exact.operating(DEFAULTS, p=0.6, q=0.95)
        self.assertGreater(f["reject_ceiling"], 0.99)
        self.assertLess(f["expected_comparisons"], 250)


class MeanIntervalTest(unittest.TestCase):
    def test_the_normal_interval_by_hand(self):
        half = 1.959963984540054 * 0.7071067811865476 / 2 ** 0.5    # z, stdev of (0, 1), sqrt n
        for values, expected in (([], None), ([0.25], (0.25, None, None)),
                                 ([0.0, 1.0], (0.5, 0.5 - half, 0.5 + half))):
            with self.subTest(values=values):
                found = intervals.mean_interval(values)
                if expected is None or expected[1] is None:
                    self.assertEqual(found, expected)
                else:
                    for got, want in zip(found, expected):
                        self.assertAlmostEqual(got, want, places=12)


if __name__ == "__main__":
    unittest.main()
