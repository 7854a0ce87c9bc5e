"""The instance generator: reproducible bytes, the sample, the statistics."""

import random
import statistics
import unittest

import support
from support import problem
from group_testing import instances


class InstancesTest(unittest.TestCase):
    def test_sample_regenerates_byte_for_byte(self):
        with open(support.SAMPLE, encoding="utf-8") as f:
            kept = f.read()
        drawn = "".join(instances.dumps(i) for i in
                        instances.draw(instances.SAMPLE_COUNT, instances.SAMPLE_SEED))
        self.assertEqual(drawn, kept)
        self.assertEqual(kept.count("\n"), 40)

    def test_a_seed_fixes_the_set_and_a_set_extends_its_prefix(self):
        out = support.tmpdir(self)
        for run in ("a", "b"):
            status, _, err = support.run_command(self, "grader/instances.py", "--count", "6",
                                                 "--seed", "x", "--out", out + "/" + run)
            self.assertEqual(status, 0, err)
        first, second = (support.read_bytes(out + "/" + run) for run in "ab")
        self.assertEqual(first, second)
        longer = "".join(instances.dumps(i) for i in instances.draw(9, "x")).encode()
        self.assertTrue(longer.startswith(first))

    def test_without_a_seed_the_seed_is_secret_and_fresh(self):
        outputs = [support.run_command(self, "grader/instances.py", "--count", "2")
                   for _ in range(2)]
        self.assertNotEqual(outputs[0][1], outputs[1][1])
        self.assertEqual(outputs[0][2], "")          # nothing printed of the seed

    def test_every_drawn_instance_passes_the_grader_check(self):
        for item in instances.draw(60, "check"):
            problem.check_instance(item)

    def test_statistics_of_500_instances_hit_the_targets(self):
        for seed in ("1", "stats-2"):
            items = instances.draw(500, seed)
            with self.subTest(seed=seed):
                d = statistics.fmean(len(i["defectives"]) for i in items)
                base = statistics.fmean(i["baseline"] for i in items)
                ratio = statistics.fmean(problem.entropy_bound(i["priors"]) / i["baseline"]
                                         for i in items)
                binary = statistics.fmean(problem.binary_entropy_sum(i["priors"])
                                          / i["baseline"] for i in items)
                support.show("\nset %s: defectives %.2f, baseline %.2f, bound/baseline %.3f, "
                             "binary entropies/baseline %.3f" % (seed, d, base, ratio, binary))
                # the held-out set's figures, +- 3 standard deviations of 500-sets
                # (docs/data.md, "The fit": 6.37 +- 3 x 0.31, 54.19 +- 3 x 2.53,
                # 0.75 +- 3 x 0.023)
                self.assertTrue(5.4 <= d <= 7.3, d)
                self.assertTrue(46.6 <= base <= 61.8, base)
                self.assertTrue(0.68 <= binary <= 0.82, binary)
                self.assertTrue(0.75 <= ratio <= 0.90, ratio)     # 12 sets: 0.82 +- 0.024
                counts = [sum(i["family"] == f for i in items) for f in problem.FAMILIES]
                # each family has chance 1/3: 500/3 +- 3.2 standard deviations
                self.assertTrue(all(133 <= c <= 200 for c in counts), counts)
                self.assertEqual(sum(counts), 500)
                self.assertTrue(all(problem.N_MIN <= i["n"] <= problem.N_MAX for i in items))

    def test_bad_files_and_folders_are_named(self):
        broken = support.write(self, "broken.jsonl", "{\n")
        for args, words in ((["--stats", "/nonexistent.jsonl"], "cannot read /nonexistent.jsonl"),
                            (["--stats", broken], "broken.jsonl line 1: "),
                            (["--count", "2", "--out", "/nonexistent/x.jsonl"],
                             "cannot write '/nonexistent/x.jsonl'")):
            with self.subTest(args=args):
                status, out, err = support.run_command(self, "grader/instances.py", *args)
                self.assertEqual((status, out), (2, ""))
                self.assertIn(words, err)

    def test_families_are_drawn_and_defectives_have_a_stream_of_their_own(self):
        items = instances.draw(300, "families")
        runs = sum(a["family"] != b["family"] for a, b in zip(items, items[1:]))
        self.assertNotEqual([i["family"] for i in items[:6]], list(problem.FAMILIES) * 2)
        self.assertTrue(150 <= runs <= 250, runs)     # about 2/3 of 299 neighbours differ
        for index in range(5):
            with self.subTest(index=index):
                item = items[index]
                chance = random.Random("families/%d/defectives" % index)
                expected = []
                while not expected:
                    expected = [i for i, p in enumerate(item["priors"]) if chance.random() < p]
                self.assertEqual(item["defectives"], expected)
                rng = random.Random("families/%d" % index)
                self.assertEqual(item["n"], rng.randint(problem.N_MIN, problem.N_MAX))
                self.assertEqual(item["family"], rng.choice(problem.FAMILIES))

    def test_stats_command(self):
        status, out, _ = support.run_command(self, "grader/instances.py", "--stats",
                                             support.SAMPLE)
        self.assertEqual(status, 0)
        row = support.lines_of(out)
        stats = instances.stats(instances.draw(40, instances.SAMPLE_SEED))
        self.assertEqual(row["instances"], "40")
        for key, value in stats.items():
            self.assertEqual(row[key], str(value), key)


if __name__ == "__main__":
    unittest.main()
