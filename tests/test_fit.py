"""The fit and the headroom: the tables PROGRAM.md shows are what
grader/fit.py and grader/headroom.py print, and the strongest tester is
exact and deterministic."""

import os
import re
import unittest

import support
from group_testing import fit, headroom, instances, problem

COMMAND_TIMEOUT = 1200      # seconds: a generous bound for the full fit on busy cores


def program():
    with open(os.path.join(support.ROOT, "PROGRAM.md"), encoding="utf-8") as f:
        return f.read()


def table_lines(stdout):
    return [line for line in stdout.splitlines() if line.startswith("|")]


class TablesTest(unittest.TestCase):
    def check_shown(self, *args):
        """The command's table is in PROGRAM.md, line for line; its stdout."""
        status, out, err = support.run_command(self, *args, timeout=COMMAND_TIMEOUT)
        self.assertEqual(status, 0, err)
        lines = table_lines(out)
        self.assertGreater(len(lines), 3, out)
        self.assertIn("\n".join(lines) + "\n", program(), " ".join(args))
        return out

    def test_fit_table_for_the_current_families(self):
        out = self.check_shown("grader/fit.py")
        distances = [float(line.split("|")[4]) for line in table_lines(out)[2:]]
        self.assertTrue(all(abs(d) <= 2.0 for d in distances), distances)

    def test_fit_table_before_the_fit(self):
        self.check_shown("grader/fit.py", "--before")

    def test_fit_table_of_sets_of_forty(self):
        self.check_shown("grader/fit.py", "--sample")

    def test_headroom_table_and_what_is_left(self):
        out = self.check_shown("grader/headroom.py")
        left = support.lines_of(out)["strongest_above_floor"]
        value, mmis = re.fullmatch(r"([0-9.]+) \(([0-9.]+) MMIs\)", left).groups()
        self.assertIn("strongest we have is %.3f (%s MMI) above the information floor"
                      % (float(value), mmis), " ".join(program().split()))

    def test_the_documented_settings_are_the_generators(self):
        text = program()
        bullets = text[text.index("- **uniform**"):text.index("These settings")]
        shown = [(float(a), float(b)) for a, b in
                 re.findall(r"\[([0-9.]+), ([0-9.]+)\]", bullets)]
        got = instances.FAMILY_SETTINGS
        self.assertEqual(shown, [got["uniform"]["prior"], got["two-tier"]["fraction"],
                                 got["two-tier"]["high"], got["two-tier"]["low"],
                                 got["log-normal"]["spread"], got["log-normal"]["mean"]])
        self.assertIn("min(%s, exp(" % got["log-normal"]["cap"], bullets)


class CountingTest(unittest.TestCase):
    def test_a_wrong_answer_is_refused(self):
        item = instances.draw_instance("count", 0)
        with self.assertRaises(ValueError):
            fit.count_tests(lambda n, priors, test: [], item)

    def test_binary_splitting_counts_the_baseline(self):
        find = headroom.load_find("tests/testers/splitting.py")
        for item in instances.draw(20, "count"):
            self.assertEqual(fit.count_tests(find, item), item["baseline"])


class StrongestTesterTest(unittest.TestCase):
    def test_exact_deterministic_and_under_the_cap(self):
        find = headroom.load_find("tests/testers/posterior.py")
        for index, item in enumerate(instances.draw(80, "posterior-check")):
            with self.subTest(index=index):
                runs = []
                for _ in range(2):
                    pools = []
                    truth = set(item["defectives"])

                    def test(pool, pools=pools, truth=truth):
                        pools.append(tuple(pool))
                        return not truth.isdisjoint(pool)

                    self.assertEqual(find(item["n"], item["priors"], test),
                                     item["defectives"])
                    runs.append(pools)
                self.assertEqual(runs[0], runs[1])
                self.assertLessEqual(len(runs[0]), problem.cap(item["n"]))
                self.assertTrue(all(pool and len(set(pool)) == len(pool) for pool in runs[0]))


if __name__ == "__main__":
    unittest.main()
