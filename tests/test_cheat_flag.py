"""The cheat flag (grader/group_testing/cheat.py): honest testers are not flagged over
thousands of instances, and a tester that reads the answers is flagged
however it spreads its savings.

The honest runs count tests in this process, as the oracle would count them
(one a call of `test`); the cheating runs go through grader/local.py, the
worker and the oracle, as on the platform.
"""

import json
import math
import os
import shutil
import sys
import unittest

import support
from group_testing import calibration, cheat, instances
from support import grade, problem

TESTERS = os.path.join(support.ROOT, "tests", "testers")
sys.path.insert(0, TESTERS)
import informed  # noqa: E402

HONEST_SEEDS = ("cheat-a", "cheat-b", "cheat-c", "cheat-d")   # 4 sets of 500: 2,000
HONEST_COUNT = 500


def splitting(n, priors, test):
    return sorted(calibration.split(range(n), test))


HONEST = {"binary splitting": splitting, "calibration": calibration.find,
          "informed": informed.find}


def entries(find, items):
    """The result entries of `find` on `items`, its tests counted here."""
    out = []
    for index, item in enumerate(items):
        truth, calls = frozenset(item["defectives"]), []

        def test(pool):
            calls.append(1)
            return not truth.isdisjoint(pool)

        if find(item["n"], item["priors"], test) != item["defectives"]:
            raise AssertionError("instance %d answered wrongly" % index)
        out.append({"n": item["n"], "tests": len(calls), "score": len(calls) / item["baseline"],
                    "surprise": problem.surprise(item["priors"], item["defectives"]),
                    "count_surprise": problem.count_surprise(item["priors"],
                                                             item["defectives"]),
                    "defective_count": len(item["defectives"])})
    return out


class StatisticsTest(unittest.TestCase):
    def test_the_three_statistics_by_hand(self):
        rows = [{"n": 64, "defective_count": 1, "surprise": 10.0, "count_surprise": 6.0,
                 "tests": 4},
                {"n": 512, "defective_count": 3, "surprise": 30.0, "count_surprise": 25.0,
                 "tests": 40}]
        low, high = (problem.splitting_estimate(64, 1), problem.splitting_estimate(512, 3))
        stats = cheat.statistics(rows)
        self.assertEqual(stats["saved_bits"], -4.0)
        self.assertEqual(stats["max_saved_bits"], 6.0)
        self.assertAlmostEqual(stats["weighted_saved_bits"], 2.0 + low / high * -15.0, places=5)
        self.assertAlmostEqual(stats["cheat_bits"], max(-4.0, stats["weighted_saved_bits"],
                                                        6.0 - 1.0) - math.log2(3), places=5)
        self.assertIs(stats["suspect"], False)
        self.assertEqual(cheat.statistics([])["suspect"], False)

    def test_one_instance_past_its_threshold_flags_the_run(self):
        rows = [{"n": 100, "defective_count": 2, "surprise": 30.0, "count_surprise": 1.0,
                 "tests": 40}] * 15 + [{"n": 100, "defective_count": 2, "surprise": 25.5,
                                        "count_surprise": 1.0, "tests": 0}]
        threshold = cheat.SUSPECT_BITS + math.log2(3) + math.log2(16)     # 25.58 bits
        self.assertIs(cheat.statistics(rows)["suspect"], False)   # 25.5 saved on one of 16
        rows[-1] = dict(rows[-1], surprise=25.7)
        self.assertIs(cheat.statistics(rows)["suspect"], True)    # 25.7: flagged
        self.assertAlmostEqual(cheat.statistics(rows)["cheat_bits"],
                               25.7 - math.log2(16) - math.log2(3), places=5)
        self.assertLess(25.5, threshold)
        self.assertLess(threshold, 25.7)

    def test_count_surprise_against_enumeration(self):
        priors = [0.3, 0.05, 0.2, 0.1, 0.45]
        for chosen in ([1], [0, 4], [0, 2, 3], [0, 1, 2, 3, 4]):
            with self.subTest(chosen=chosen):
                def p(subset):
                    return math.prod(q if i in subset else 1 - q for i, q in enumerate(priors))
                k = len(chosen)
                same = sum(p({i for i in range(5) if mask >> i & 1})
                           for mask in range(32) if bin(mask).count("1") == k)
                self.assertAlmostEqual(problem.count_surprise(priors, chosen),
                                       -math.log2(p(set(chosen)) / same), places=9)


class HonestTest(unittest.TestCase):
    """2,000 instances each: binary splitting, the calibration tester and a
    tester within 5% of the information floor are never flagged."""

    @classmethod
    def setUpClass(cls):
        cls.sets = [instances.draw(HONEST_COUNT, seed) for seed in HONEST_SEEDS]

    def test_honest_testers_are_not_flagged(self):
        for name, find in HONEST.items():
            rows = [row for items in self.sets for row in entries(find, items)]
            stats = cheat.statistics(rows)
            score = math.fsum(r["score"] for r in rows) / len(rows)
            floor = math.fsum(r["surprise"] / (r["tests"] / r["score"]) for r in rows) / len(rows)
            print("\ncheat: %s on %d instances: relative_tests %.4f (floor %.4f); saved_bits "
                  "%.1f, weighted_saved_bits %.1f, max_saved_bits %.2f, cheat_bits %.2f"
                  % (name, len(rows), score, floor, stats["saved_bits"],
                     stats["weighted_saved_bits"], stats["max_saved_bits"],
                     stats["cheat_bits"]), file=sys.stderr)
            with self.subTest(tester=name):
                self.assertEqual(len(rows), 2000)
                self.assertIs(stats["suspect"], False)
                self.assertLess(stats["cheat_bits"], cheat.SUSPECT_BITS)
                if name == "informed":
                    self.assertLess(score, floor * 1.05)


class ReaderTest(unittest.TestCase):
    """Testers that read the sample's answers, through grader/local.py."""

    def run_reader(self, source):
        folder = support.tmpdir(self)
        tester = os.path.join(folder, "tester.py")
        shutil.copy(source, tester)
        shutil.copy(support.SAMPLE, os.path.join(folder, "items.jsonl"))
        out = os.path.join(folder, "out")
        status, stdout, stderr = support.run_command(
            self, "grader/local.py", "--tester", tester, "--out", out)
        with open(os.path.join(out, "result.json")) as f:
            result = json.load(f)
        self.assertEqual((status, result["status"]), (0, "valid"), stderr[-2000:])
        return support.lines_of(stdout), result

    def test_a_reader_that_spreads_its_savings_is_flagged(self):
        lines, result = self.run_reader(os.path.join(TESTERS, "spreader.py"))
        print("\ncheat: spreading reader on the sample: relative_tests %s (floor %s); "
              "saved_bits %s, weighted_saved_bits %s, max_saved_bits %s, cheat_bits %s"
              % tuple(result[k] for k in ("relative_tests", "information_floor", "saved_bits",
                                          "weighted_saved_bits", "max_saved_bits",
                                          "cheat_bits")), file=sys.stderr)
        threshold = cheat.SUSPECT_BITS + math.log2(3)
        self.assertLess(result["saved_bits"], threshold)          # the raw sum evaded
        self.assertLess(result["max_saved_bits"], threshold + math.log2(40))  # and each one
        self.assertGreaterEqual(result["weighted_saved_bits"], threshold)     # not this
        self.assertLess(result["relative_tests"], result["information_floor"])
        self.assertIs(result["suspect"], True)
        self.assertEqual(lines["suspect"], "true")
        self.assertIn("more bits below the information", lines["warning"])
        self.assertAlmostEqual(result["cheat_bits"],
                               result["weighted_saved_bits"] - math.log2(3), places=5)
        self.assertEqual(cheat.statistics(result["items"])["cheat_bits"], result["cheat_bits"])
        for key in ("saved_bits", "weighted_saved_bits", "max_saved_bits", "cheat_bits"):
            with self.subTest(key=key):
                self.assertEqual(float(lines[key]), result[key])
        self.assertEqual(grade.summary_lines(result)[-1], "warning: " + lines["warning"])


if __name__ == "__main__":
    unittest.main()
