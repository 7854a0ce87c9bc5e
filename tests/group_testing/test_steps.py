"""grader/chain.py --small-steps, whether small gains add up (group_testing/steps.py):
its steps are real gains of about 0.002 that sum to informed's gain over
calibration on the pool, and its fast configuration (2 seeds, --delta
0.005 and --delta 0.002 with --max-comparisons 10000) prints the figures
FAST holds: at the default delta most steps of 0.002 are discarded, at
0.002 nearly all are kept, at about twice the comparisons a step."""

import math
import unittest

import support
from arh_grader.compare import betting  # noqa: E402
from group_testing import steps  # noqa: E402

ARGS = ("--small-steps", "--seeds", "2", "--settings", "0.005:5000", "0.002:10000")
FAST = {   # the fast configuration's lines, as `python3 grader/chain.py ARGS` prints them
    "delta_0.005_max_5000": "kept 27% of the steps, 1718 comparisons a step on average (0% "
                            "ended at the maximum), total gain kept -0.0204 of -0.0604 (34%) "
                            "a seed on average",
    "delta_0.002_max_10000": "kept 95% of the steps, 2863 comparisons a step on average (0% "
                             "ended at the maximum), total gain kept -0.0593 of -0.0604 (98%) "
                             "a seed on average",
}


class StepsTest(unittest.TestCase):
    def test_the_steps_are_real_gains_that_sum_to_the_pairs(self):
        cells = steps.pool(count=200, slices=10)
        real = steps.gains(cells, 10)
        self.assertAlmostEqual(math.fsum(real), math.fsum(d for _, d in cells) / len(cells),
                               places=12)
        self.assertEqual(len({s for s, _ in cells}), 10)
        record = steps.step(betting, cells, 3, betting.Settings(max_comparisons=50), "s")
        again = steps.step(betting, cells, 3, betting.Settings(max_comparisons=50), "s")
        self.assertEqual(record.to_dict(), again.to_dict())

    def test_the_fast_configuration_prints_what_the_manual_quotes(self):
        status, out, err = support.run_command(self, "grader/chain.py", *ARGS, timeout=600)
        self.assertEqual(status, 0, err)
        found = support.lines_of(out)
        for key, line in FAST.items():
            self.assertEqual(found[key], line)
        command = "python3 grader/chain.py --small-steps --seeds 2 --settings 0.005:5000 0.002:10000"
        support.said(self, command, support.MANUAL)
        support.said(self, command, support.COMPARISON)
        support.said(self, "the default keeps 27% of the steps, at 1718 comparisons a step, and "
                     "34% of their gain; `--delta 0.002 --max-comparisons 10000` keeps 95%, at "
                     "2863 a step, and 98%.", support.MANUAL)
        support.said(self, "the default `--delta 0.005` keeps 27% of the steps, at 1718 "
                     "comparisons a step, total gain kept -0.0204 of -0.0604 (34%); `--delta "
                     "0.002 --max-comparisons 10000` keeps 95%, at 2863 comparisons a step, "
                     "total gain kept -0.0593 of -0.0604 (98%).", support.COMPARISON)
        support.show("\n" + out)

    def test_bad_settings_are_refused(self):
        for args in (("--settings", "0.002"), ("--settings", "0.5:100"), ("--seeds", "0")):
            with self.subTest(args=args):
                status, out, err = support.run_command(self, "grader/chain.py",
                                                       "--small-steps", *args)
                self.assertEqual((status, out), (2, ""))
                self.assertIn("error:", err)


if __name__ == "__main__":
    unittest.main()
