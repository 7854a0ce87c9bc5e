"""The rules of group testing: queries, answers, the baseline, instances and
the information measures, against tables and brute force."""

import importlib.util
import itertools
import json
import math
import unittest

import support
from support import problem
from arh_grader import QueryError


def load_splitting():
    spec = importlib.util.spec_from_file_location("splitting_tester", support.SPLITTING)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class QueryTest(unittest.TestCase):
    SECRET = problem.secret_of({"n": 8, "defectives": [2, 5]})

    def test_valid_pools(self):
        for pool, positive in (([0], False), ([2], True), ([7, 6, 5], True),
                               (list(range(8)), True), ([0, 1, 3, 4, 6, 7], False)):
            with self.subTest(pool=pool):
                query = {"pool": pool}
                problem.check_query(self.SECRET, query)
                self.assertIs(problem.is_positive(self.SECRET, query), positive)
                self.assertEqual(json.loads(problem.answer_query(self.SECRET, query)),
                                 {"positive": positive})

    def test_invalid_queries_name_the_bad_value(self):
        for query, words in (
                ({"pool": []}, "1 to 8 items, got 0"),
                ({"pool": list(range(9))}, "1 to 8 items, got 9"),
                ({"pool": [1, 1]}, "distinct"),
                ({"pool": [8]}, "item 8 is out of range 0..7"),
                ({"pool": [-1]}, "item -1 is out of range"),
                ({"pool": [True]}, "integers, got True"),
                ({"pool": [1.0]}, "integers, got 1.0"),
                ({"pool": [[1]]}, "integers, got [1]"),
                ({"pool": "1"}, "must be a list, got '1'"),
                ({"pool": [1], "x": 1}, "the one key 'pool'"),
                ([1, 2], "the one key 'pool', got [1, 2]"),
                (None, "got None")):
            with self.subTest(query=query):
                with self.assertRaises(QueryError) as caught:
                    problem.check_query(self.SECRET, query)
                self.assertIn(words, str(caught.exception))

    def test_cap_and_body_bound(self):
        self.assertEqual(problem.cap(64), 192)
        self.assertEqual(problem.cap(512), 1088)
        for n in (64, 100, 512):
            with self.subTest(n=n):
                widest = json.dumps({"pool": list(range(n))})     # with spaces
                self.assertLessEqual(len(widest), problem.max_body(n))


class AnswerTest(unittest.TestCase):
    def test_kinds(self):
        truth = [3, 9, 20]
        for answer, kind, words in (
                ([3, 9], "wrong", "not the set of defectives"),
                ([3, 9, 20, 21], "wrong", "not the set of defectives"),
                ([20, 9, 3], "wrong", "position 1 is smaller than the one before"),
                ([3, 9, 9, 20], "wrong", "position 2 repeats the one before"),
                ([3, 9, 64], "wrong", "64 is out of range 0..63"),
                ([-1, 3, 9, 20], "wrong", "-1 is out of range"),
                ((3, 9, 20), "schema", "got a tuple"),
                ({"d": [3]}, "schema", "got an object"),
                ([3, 9, 20.0], "schema", "item at position 2 is a float"),
                ([True, 9, 20], "schema", "item at position 0 is a boolean"),
                (["3"], "schema", "item at position 0 is a string"),
                (None, "schema", "got null"),
                ([[3, 9, 20]], "schema", "item at position 0 is a list")):
            with self.subTest(answer=answer):
                with self.assertRaises(problem.AnswerError) as caught:
                    problem.check_answer(answer, truth, 64)
                self.assertEqual(caught.exception.kind, kind)
                self.assertIn(words, str(caught.exception))
        problem.check_answer([3, 9, 20], truth, 64)

    def test_messages_never_name_a_defective(self):
        truth = [11, 23, 47]
        for answer in ([11, 23], [47, 23, 11], [11, 23, 23, 47], [11, 23, 47, 50],
                       [11.0, 23, 47], ["11", "23"], [[11, 23, 47]], {"d": [11, 23]}):
            with self.subTest(answer=answer):
                with self.assertRaises(problem.AnswerError) as caught:
                    problem.check_answer(answer, truth, 64)
                for item in truth:
                    self.assertNotRegex(str(caught.exception), r"\b%d\b" % item)


class BaselineTest(unittest.TestCase):
    def test_equals_frozen_binary_splitting_on_the_sample(self):
        splitting = load_splitting()
        with open(support.SAMPLE) as f:
            items = [json.loads(line) for line in f]
        for item in items:
            truth, count = set(item["defectives"]), [0]

            def test(pool):
                count[0] += 1
                return not truth.isdisjoint(pool)
            with self.subTest(n=item["n"]):
                self.assertEqual(splitting.find(item["n"], item["priors"], test),
                                 item["defectives"])
                self.assertEqual(count[0], item["baseline"])
                self.assertEqual(problem.baseline_tests(item["n"], item["defectives"]),
                                 item["baseline"])

    def test_small_cases_by_hand(self):
        # one defective at 0 of 64: test all, then 6 halvings, then the rest (negative)
        self.assertEqual(problem.baseline_tests(64, [0]), 8)
        # all 4 defective: each round tests what is left, then halves to its first
        # item; once nothing is left there is no closing test
        self.assertEqual(problem.baseline_tests(4, [0, 1, 2, 3]), (1 + 2) + (1 + 1) + (1 + 1) + 1)


class InstanceTest(unittest.TestCase):
    def good(self):
        return {"n": 64, "family": "uniform", "priors": [0.02] * 64,
                "defectives": [5, 9], "baseline": problem.baseline_tests(64, [5, 9])}

    def test_good_instance_passes(self):
        problem.check_instance(self.good())

    def test_broken_instances(self):
        for change, words in (
                ({"n": 63, "priors": [0.02] * 63}, "n must be an integer in 64..512, got 63"),
                ({"n": 64.0}, "got 64.0"),
                ({"family": "flat"}, "got 'flat'"),
                ({"priors": [0.02] * 63}, "n = 64 numbers"),
                ({"priors": [0.0] + [0.02] * 63}, "prior 0 must be a number strictly"),
                ({"priors": [0.02] * 63 + [1.0]}, "prior 63 must be"),
                ({"priors": [0.02] * 63 + [1]}, "got 1"),
                ({"defectives": []}, "non-empty"),
                ({"defectives": [9, 5]}, "sorted and distinct, but 5 follows 9"),
                ({"defectives": [5, 5]}, "but 5 follows 5"),
                ({"defectives": [5, 64]}, "defective 64 is not an item index"),
                ({"defectives": [5, True]}, "defective True"),
                ({"baseline": 3}, "baseline is 3 but binary splitting takes 15"),
                ({"extra": 1}, "fields must be")):
            item = self.good()
            item.update(change)
            with self.subTest(change=change):
                with self.assertRaises(problem.SetError) as caught:
                    problem.check_instance(item)
                self.assertIn(words, str(caught.exception))


class InformationTest(unittest.TestCase):
    """The entropy bound and the surprise against enumeration of every set."""

    def brute(self, priors):
        sets = []
        for bits in itertools.product((0, 1), repeat=len(priors)):
            if any(bits):
                p = math.prod(q if b else 1 - q for q, b in zip(priors, bits))
                sets.append((bits, p))
        some = sum(p for _, p in sets)
        entropy = -sum(p / some * math.log2(p / some) for _, p in sets)
        return entropy, {bits: -math.log2(p / some) for bits, p in sets}

    def test_matches_brute_force_up_to_16_items(self):
        import random
        rng = random.Random(3)
        for n in range(1, 17):
            for shape in ("tiny", "mixed"):
                if shape == "tiny":
                    priors = [rng.uniform(1e-6, 1e-3) for _ in range(n)]
                else:
                    priors = [rng.uniform(0.001, 0.6) for _ in range(n)]
                with self.subTest(n=n, shape=shape):
                    entropy, surprises = self.brute(priors)
                    self.assertAlmostEqual(problem.entropy_bound(priors), entropy, delta=1e-9)
                    bits = next(iter(surprises))
                    chosen = [i for i, b in enumerate(bits) if b]
                    self.assertAlmostEqual(problem.surprise(priors, chosen), surprises[bits],
                                           delta=1e-9)

    def test_tiny_priors_keep_their_precision(self):
        # one item of 512 certain to be the defective when any is: 0 bits
        priors = [1e-12] * 512
        self.assertAlmostEqual(problem.entropy_bound(priors), 9.0, delta=1e-6)


if __name__ == "__main__":
    unittest.main()
