"""The sequential test's command (grader/sprt.py, group testing's tool on
arh_grader.compare.sprt_cli): the exact figures docs/comparison.md's table quotes
are the program's, --exact prints them and names bad settings, and the
simulated table comes out on few runs with group testing's seed."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: support
import support  # noqa: E402  (puts grader/ on the path)
from arh_grader.compare import sprt, sprt_exact  # noqa: E402
from group_testing import seeds  # noqa: E402

DEFAULTS = sprt.Settings()


class CommandTest(unittest.TestCase):
    def test_the_manuals_exact_figures_are_the_programs(self):
        with open(os.path.join(support.ROOT, support.COMPARISON), encoding="utf-8") as f:
            text = f.read()
        start = text.index("| win rate of decisive comparisons | draw rate | P(accept) |")
        rows = [line.strip("|").split("|") for line in text[start:].split("\n\n")[0]
                .splitlines()[2:]]
        self.assertEqual(len(rows), 6)
        for row in rows:
            p, q, accept, reject, comparisons, decisive = (float(x) for x in row)
            with self.subTest(p=p, q=q):
                f = sprt_exact.operating(DEFAULTS, p=p, q=q)
                self.assertEqual(["%.4f" % f["accept"], "%.4f" % f["reject"],
                                  "%.1f" % f["expected_comparisons"],
                                  "%.1f" % f["expected_decisive"]],
                                 [c.strip() for c in row[2:]])

    def test_exact_prints_the_figures_and_bad_settings_are_named(self):
        status, out, err = support.run_command(self, "grader/sprt.py", "--exact")
        self.assertEqual(status, 0, err)
        lines = support.lines_of(out)
        self.assertTrue(lines["fixed_sample"].startswith("268 decisive comparisons (accept at "
                                                         "148 wins or more: size 0.0495, "
                                                         "power 0.9507)"), lines)
        self.assertEqual((lines["max_decisive"], lines["all_draws_end"]),
                         ("536", "comparison 58"))
        self.assertIn("P(accept) 0.0476", lines["p=0.50 q=0.00"])
        self.assertIn("P(reject) 0.0467", lines["p=0.60 q=0.85"])
        status, out, err = support.run_command(self, "grader/sprt.py", "--exact",
                                               "--alpha", "0.7")
        self.assertEqual((status, out), (2, ""))
        self.assertIn("alpha must be in (0, 0.5), got 0.7", err)

    def test_the_table_on_few_runs(self):
        lines = list(sprt_exact.characteristics_table(DEFAULTS, runs=3, seed=seeds.SPRT,
                                                      p_values=(0.3, 0.8),
                                                      q_values=(0.0, 0.95)))
        self.assertEqual(len(lines), 2 + 2 * 2)
        self.assertTrue(lines[0].startswith("| win rate | draw rate | P(accept), 3 runs |"))
        self.assertEqual([row.split(" | ")[:2] for row in lines[2:]],
                         [["| 0.30", "0.00"], ["| 0.30", "0.95"], ["| 0.80", "0.00"],
                          ["| 0.80", "0.95"]])
        self.assertEqual(lines[2].split(" | ")[2:4], ["0.000", "0.000"])   # 0.3 never accepted


if __name__ == "__main__":
    unittest.main()
