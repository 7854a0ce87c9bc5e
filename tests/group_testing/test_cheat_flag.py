"""The cheat flag (grader/group_testing/cheat.py): honest testers are not flagged over
thousands of instances (binary splitting, calibration, a near-floor tester,
a stateful one and a seeded-random one, each printing a `cheat:` line with
its largest statistic), and a tester that reads the answers is flagged
however it spreads its savings (test_cheat_power.py plans the best).

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
from support import problem

TESTERS = os.path.join(support.ROOT, "tests", "testers")
sys.path.insert(0, TESTERS)
import informed  # noqa: E402
import seeded  # noqa: E402
import stateful  # noqa: E402

HONEST_SEEDS = ("cheat-a", "cheat-b", "cheat-c", "cheat-d")   # 4 sets of 500: 2,000
HONEST_COUNT = 500


def splitting(n, priors, test):
    return sorted(calibration.split(range(n), test))


HONEST = {"binary splitting": splitting, "calibration": calibration.find,
          "informed": informed.find, "stateful": stateful.find, "seeded": seeded.find}
MARGIN = 10.0       # bits: no honest tester came within this of SUSPECT_BITS


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
                    "defective_count": len(item["defectives"]),
                    "bound": problem.entropy_bound(item["priors"])})
    return out


class StatisticsTest(unittest.TestCase):
    def test_the_statistics_by_hand(self):
        rows = [{"n": 64, "defective_count": 1, "surprise": 10.0, "count_surprise": 6.0,
                 "tests": 4, "bound": 5.0},
                {"n": 512, "defective_count": 3, "surprise": 30.0, "count_surprise": 25.0,
                 "tests": 40, "bound": 20.0}]
        low, high = (problem.splitting_estimate(64, 1), problem.splitting_estimate(512, 3))
        stats = cheat.statistics(rows)
        self.assertEqual(stats["saved_bits"], -4.0)
        self.assertEqual(stats["max_saved_bits"], 6.0)
        self.assertAlmostEqual(stats["weighted_saved_bits"], 2.0 + low / high * -15.0, places=5)

        def mix(savings, scales):
            return math.log2(sum(math.prod(1 - k * c + k * c * 2 ** s
                                           for s, c in zip(savings, scales))
                                 for k in cheat.KAPPAS) / len(cheat.KAPPAS))
        weighted = [2.0, low / high * -15.0]
        figures = {"capped_bits": mix([6.0, -10.0], [1, 1]),
                   "scaled_capped_bits": mix([6.0, -10.0], [1, 0.25]),
                   "weighted_capped_bits": mix(weighted, [1, 1]),
                   "spike_bits": math.log2((2 ** 6 + 2 ** -10) / 2)}
        for key, value in figures.items():
            with self.subTest(key=key):
                self.assertAlmostEqual(stats[key], value, places=5)
        self.assertAlmostEqual(stats["cheat_bits"], math.log2(
            sum(2 ** v for v in figures.values()) / 4), places=5)
        self.assertIs(stats["suspect"], False)
        self.assertEqual(cheat.statistics([])["suspect"], False)
        self.assertEqual(set(cheat.statistics([])), set(cheat.KEYS) | {"suspect"})

    def test_one_instance_past_its_threshold_flags_the_run(self):
        rows = [{"n": 100, "defective_count": 2, "surprise": 30.0, "count_surprise": 1.0,
                 "tests": 40, "bound": 10.0}] * 15 + [
            {"n": 100, "defective_count": 2, "surprise": 25.6, "count_surprise": 1.0,
             "tests": 0, "bound": 10.0}]
        self.assertIs(cheat.statistics(rows)["suspect"], False)   # 25.6 bits on one of 16: 19.8
        rows[-1] = dict(rows[-1], surprise=26.0)
        self.assertIs(cheat.statistics(rows)["suspect"], True)    # 26.0 bits: 20.2

    def test_waste_refunds_little(self):
        """40 bits saved on 2 instances and 2,000 wasted on 2 others: the old
        sums saw 0; the capped products are not fooled."""
        row = {"n": 512, "defective_count": 2, "count_surprise": 30.0, "bound": 10.0}
        rows = [dict(row, surprise=20.0, tests=0)] * 2 + [dict(row, surprise=20.0,
                                                                 tests=1020)] * 2
        stats = cheat.statistics(rows)
        self.assertLess(stats["saved_bits"], 0)
        self.assertGreater(stats["capped_bits"], 40.0 - 2 * math.log2(4) - 6)

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
        largest = []
        for name, find in HONEST.items():
            rows = [row for items in self.sets for row in entries(find, items)]
            stats = cheat.statistics(rows)
            score = math.fsum(r["score"] for r in rows) / len(rows)
            floor = math.fsum(r["surprise"] / (r["tests"] / r["score"]) for r in rows) / len(rows)
            support.show("\ncheat: %s on %d instances: relative_tests %.4f (floor %.4f); saved_bits "
                         "%.1f, weighted_saved_bits %.1f, max_saved_bits %.2f, cheat_bits %.2f"
                         % (name, len(rows), score, floor, stats["saved_bits"],
                            stats["weighted_saved_bits"], stats["max_saved_bits"],
                            stats["cheat_bits"]))
            largest.append(stats["cheat_bits"])
            support.assert_quoted(self, "| %s | %.4f | %.4f | %.2f | %.2f |" % (
                name, score, floor, stats["max_saved_bits"], stats["cheat_bits"]),
                support.CHEATING)
            with self.subTest(tester=name):
                self.assertEqual(len(rows), 2000)
                self.assertIs(stats["suspect"], False)
                self.assertLess(stats["cheat_bits"], cheat.SUSPECT_BITS - MARGIN)
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
        support.show("\ncheat: spreading reader on the sample: relative_tests %s (floor %s); "
                     "saved_bits %s, weighted_saved_bits %s, max_saved_bits %s, cheat_bits %s"
                     % tuple(result[k] for k in ("relative_tests", "information_floor", "saved_bits",
                                                 "weighted_saved_bits", "max_saved_bits",
                                                 "cheat_bits")))
        support.assert_quoted(self, "`relative_tests` %.4f against a floor of %.4f, "
                              "`cheat_bits` %.1f: suspect" % (
                                  result["relative_tests"], result["information_floor"],
                                  result["cheat_bits"]), support.CHEATING)
        threshold = cheat.SUSPECT_BITS + math.log2(3)
        self.assertLess(result["saved_bits"], threshold)          # the raw sum evaded
        self.assertLess(result["relative_tests"], result["information_floor"])
        self.assertIs(result["suspect"], True)
        self.assertEqual(lines["suspect"], "true")
        self.assertIn("more bits below the information", lines["warning"])
        self.assertEqual(cheat.statistics(result["items"])["cheat_bits"], result["cheat_bits"])
        for key in cheat.KEYS:
            with self.subTest(key=key):
                self.assertEqual(float(lines[key]), result[key])
        self.assertEqual(support.engine.summary_lines(result, problem=support.PROBLEM)[-1], "warning: " + lines["warning"])


if __name__ == "__main__":
    unittest.main()
