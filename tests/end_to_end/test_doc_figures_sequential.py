"""The two sequential tests' defaults and design as docs/comparison.md states them,
against the SDK's code (arh_grader.compare: betting, the mean test; sprt,
the sign test; binomial, its exact fixed sample): the bets, bounds and caps
of the one, the steps, bounds, truncation and draw ceiling of the other,
and the fixed sample with the sizes near it that fail."""

import math
import statistics
import unittest

from support import COMPARISON, MANUAL
from support import said as support_said


def said(case, text, doc=COMPARISON):       # the comparison's reference, unless named
    support_said(case, text, doc)
from arh_grader.compare import betting, binomial, sprt, sprt_exact


class SequentialTestsTest(unittest.TestCase):
    """The two tests' defaults and design, as the manual states them."""

    def test_the_mean_test_s_settings(self):
        s = betting.Settings()
        lambdas = betting.LAMBDAS
        said(self, "For each bet lambda of a grid of %s (%.2f down to %.3f)" % (
            {10: "ten"}[len(lambdas)], lambdas[0], lambdas[-1]))
        said(self, "accepted (`accept_bound`) once their mean reaches 1/alpha = %g" % (1 / s.alpha))
        said(self, "accepted with probability at most alpha = %g" % s.alpha)
        said(self, "once the mean of prod (1 + lambda (d + delta)) reaches 1/beta = %g"
             % (1 / s.beta))
        said(self, "a challenger that gains delta = %g or more is rejected so with probability "
             "at most beta = %g" % (s.delta, s.beta))
        said(self, "After %d comparisons (`--max-comparisons`) it stops" % s.max_comparisons)
        said(self, "delta is %g so that a gain of %g" % (s.delta, s.delta))
        said(self, "A gain below `--delta` (%g) is kept only sometimes." % s.delta, MANUAL)
        said(self, "the default `--delta %g` keeps" % s.delta, COMPARISON)
        said(self, "with probability at least %g." % betting.CONFIDENCE)
        said(self, "clipped to [-%g, %g]" % (betting.CLIP, betting.CLIP))

    def test_the_sign_test_s_settings(self):
        s = sprt.Settings()
        said(self, "H1: it wins %g (`--delta %g`). Each win adds ln %g to the log-likelihood "
             "ratio, each loss ln %g; the challenger is accepted at ln %g = %.3f (`upper_bound`) "
             "and rejected at -%.3f (`lower_bound`), for alpha = beta = %g" % (
                 s.p1, s.delta, math.exp(s.win_step), math.exp(s.loss_step),
                 (1 - s.beta) / s.alpha, s.upper, -s.lower, s.alpha))
        self.assertEqual(s.alpha, s.beta)
        self.assertEqual(sprt.TRUNCATION, 2)
        said(self, "After %d decisive comparisons (`--max-decisive`, twice the fixed sample)"
             % s.max_decisive)
        said(self, "From the %dth comparison on, the test rejects (`draw_ceiling`) once the "
             "draws show the draw rate to be above %g (`--draw-ceiling`)"
             % (s.min_sample, s.draw_ceiling))
        said(self, "ln(t (t + 1) / (%g x %d))" % (s.draw_alpha, s.min_sample))
        said(self, "add up to %g (`--draw-alpha`)" % s.draw_alpha)
        said(self, "A challenger that only ever draws is rejected at comparison %d."
             % sprt_exact.all_draws_end(s))

    def test_the_fixed_sample_and_the_sizes_that_fail(self):
        n = binomial.fixed_sample_size(0.05, 0.05, 0.1)
        c, size, power = binomial.binomial_test(n, 0.05, 0.6)
        said(self, "It is %d (c = %d, size %.4f, power %.4f)" % (n, c, size, power))
        said(self, "| `fixed_sample`, `of_fixed_sample` | %d;" % n)
        z = statistics.NormalDist().inv_cdf(0.95)
        normal = math.ceil(((z * 0.5 + z * math.sqrt(0.6 * 0.4)) / 0.1) ** 2)
        said(self, "The normal approximation says %d" % normal)

        def works(m):
            _, size, power = binomial.binomial_test(m, 0.05, 0.6)
            return size <= 0.05 and power >= 0.95

        failing = [m for m in range(normal, 300) if not works(m)]
        every = max(failing) + 1
        self.assertTrue(all(works(m) for m in range(every, 700)))
        later = [m for m in failing if m > n]
        runs = []
        for m in later:
            if runs and m == runs[-1][1] + 1:
                runs[-1][1] = m
            else:
                runs.append([m, m])
        words = ["%d to %d" % tuple(r) if r[0] != r[1] else "%d" % r[0] for r in runs]
        said(self, "neither %s nor %s has the power; nor have %s and %s: each n has its own "
             "cutoff, and only from %d on does every n work"
             % (failing[0], failing[1], ", ".join(words[:-1]), words[-1], every))
        self.assertEqual(failing[:2], [normal, normal + 1])
        self.assertEqual(n, normal + 2)


if __name__ == "__main__":
    unittest.main()
