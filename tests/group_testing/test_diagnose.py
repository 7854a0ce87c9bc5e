"""grader/diagnose.py and group_testing/diagnosis.py: one instance's tests
and the bits each gained, checked exactly: the rows against the oracle's
count, the chances against enumeration of every defective set, the
sampled estimates against the exact chances, and the manual's example
against the command's output."""

import functools
import json
import math
import os
import re
import unittest

import support
from group_testing import diagnosis, problem

ROW = re.compile(r"^ *(\d+) +(\d+|-) +(positive|negative|invalid) +(\S+) +(\S+) +"
                 r"(exact|sampled|none) +(\S+) +(\S+)$")
QUOTED_ROWS = (1, 2, 3, 4, 5, 22, 38)   # the rows of sample instance 0 the manual shows
QUOTED_KEYS = ("instance", "family", "n", "defectives", "tests", "exact_tests", "surprise",
               "bits_gained", "answer_bits", "bits_wasted", "bits_wasted_gained",
               "baseline", "score")
# a tiny instance whose pools cross: positive pools that share items, so
# that the constraints they leave come in components of several
TINY_PRIORS = [0.3, 0.2, 0.25, 0.4, 0.15, 0.35, 0.1, 0.3]
TINY_POOLS = [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6, 7, 0], [1, 3, 5, 7], [0, 4], [5, 6],
              [2], [1, 3], [7]]


@functools.lru_cache(maxsize=None)
def diagnose(*args):
    """(status, stdout, stderr) of grader/diagnose.py with `args`, run once
    for the whole module (its output is deterministic)."""
    return support.run_command(None, "grader/diagnose.py", *args, timeout=120)


def rows_of(stdout):
    return [ROW.match(line).groups() for line in stdout.splitlines() if ROW.match(line)]


def entropy(q):
    return 0.0 if q in (0.0, 1.0) else -(q * math.log2(q) + (1 - q) * math.log2(1 - q))


def enumerated(priors, pools, answers):
    """P(pool positive | the answers before it, at least one defective) for
    each test, by enumerating all 2**n defective sets."""
    n = len(priors)
    alive = {}
    for mask in range(1, 1 << n):
        chosen = {i for i in range(n) if mask >> i & 1}
        alive[frozenset(chosen)] = math.prod(p if i in chosen else 1 - p
                                             for i, p in enumerate(priors))
    chances = []
    for pool, answer in zip(pools, answers):
        total = math.fsum(alive.values())
        chances.append(math.fsum(w for s, w in alive.items() if not s.isdisjoint(pool)) / total)
        alive = {s: w for s, w in alive.items() if (not s.isdisjoint(pool)) == answer}
    return chances


def answered(pools, truth):
    return [not set(truth).isdisjoint(pool) for pool in pools]


class LibraryTest(unittest.TestCase):
    def test_a_first_test_gains_the_entropy_of_its_pool(self):
        # the priors hold the condition of at least one defective, as the
        # surprise does: P(Q positive) = (1 - prod_Q (1 - p)) / (1 - prod_all (1 - p))
        item = support.PROBLEM.load_set(support.SAMPLE)[0]
        priors = item["priors"]
        none = math.prod(1 - p for p in priors)
        for pool in ([0], list(range(40)), list(range(0, 304, 3)), list(range(304))):
            with self.subTest(pool_size=len(pool)):
                q = (1 - math.prod(1 - priors[i] for i in pool)) / (1 - none)
                row, = diagnosis.diagnose(priors, [pool], [True])
                self.assertEqual(row["method"], "exact")
                self.assertAlmostEqual(row["p_positive"], q, places=12)
                self.assertAlmostEqual(row["gained"], entropy(q), places=12)
                self.assertAlmostEqual(row["answer_bits"], -math.log2(q), places=12)

    def test_exact_chances_are_those_of_every_set_enumerated(self):
        for truth in ([2], [0, 5], [1, 3, 4], [6, 7], list(range(8))):
            answers = answered(TINY_POOLS, truth)
            rows = diagnosis.diagnose(TINY_PRIORS, TINY_POOLS, answers)
            with self.subTest(truth=truth):
                self.assertEqual([r["method"] for r in rows], ["exact"] * len(rows))
                for row, chance in zip(rows, enumerated(TINY_PRIORS, TINY_POOLS, answers)):
                    self.assertAlmostEqual(row["p_positive"], chance, places=12)
                    self.assertAlmostEqual(row["gained"], entropy(chance), places=12)
        # a run that tests every item alone identifies the set: its answers
        # tell exactly the surprise
        truth = [1, 4]
        pools = TINY_POOLS[:5] + [[i] for i in range(8)]
        rows = diagnosis.diagnose(TINY_PRIORS, pools, answered(pools, truth))
        figures = diagnosis.totals(rows, priors=TINY_PRIORS, defectives=truth, baseline=9)
        self.assertAlmostEqual(figures["answer_bits"], problem.surprise(TINY_PRIORS, truth),
                               places=12)
        self.assertEqual(figures["tests"], 13)
        self.assertAlmostEqual(figures["bits_wasted"], 13 - figures["surprise"], places=12)
        self.assertAlmostEqual(figures["bits_wasted_gained"], 13 - figures["bits_gained"],
                               places=12)

    def test_sampled_chances_lie_within_a_few_standard_errors(self):
        truth = [0, 5]
        answers = answered(TINY_POOLS, truth)
        exact = enumerated(TINY_PRIORS, TINY_POOLS, answers)
        sampled = diagnosis.diagnose(TINY_PRIORS, TINY_POOLS, answers, method="sampled",
                                     samples=3000, seed=1)
        self.assertEqual(sampled, diagnosis.diagnose(TINY_PRIORS, TINY_POOLS, answers,
                                                     method="sampled", samples=3000, seed=1))
        self.assertGreaterEqual(sum(row["se"] > 0 for row in sampled), 3)
        for row, chance in zip(sampled, exact):
            with self.subTest(test=row["test"]):
                # exact still where the pool meets no constraint or a known defective
                self.assertIn(row["method"], ("sampled", "exact"))
                self.assertLessEqual(abs(row["p_positive"] - chance), 4 * row["se"] + 1e-12)
        # auto samples only where the exact programme outgrows its states
        auto = diagnosis.diagnose(TINY_PRIORS, TINY_POOLS, answers, max_states=1)
        self.assertIn("sampled", {row["method"] for row in auto})
        self.assertEqual(auto[0]["method"], "exact")

    def test_bad_arguments_name_the_value(self):
        cases = [
            (([0.5, 1.5], [[0]], [True]), "1.5"),
            (([0.5, 0.5], [[0, 2]], [True]), "[0, 2]"),
            (([0.5, 0.5], [[0, 0]], [True]), "[0, 0]"),
            (([0.5, 0.5], [[0]], ["yes"]), "'yes'"),
            (([0.5, 0.5], [[0], [1]], [True]), "2 pools but 1 answers"),
            (([0.5, 0.5], [[0], [0]], [False, True]), "test 2 contradicts"),
            (([0.5, 0.5], [[0], [1]], [False, False]), "test 2 contradicts"),
        ]
        for args, named in cases:
            with self.subTest(args=args):
                with self.assertRaises(ValueError) as caught:
                    diagnosis.diagnose(*args)
                self.assertIn(named, str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            diagnosis.diagnose([0.5], [[0]], [True], method="guess")
        self.assertIn("'guess'", str(caught.exception))


class CommandTest(unittest.TestCase):
    def test_one_row_a_test_the_oracle_counted(self):
        for index in (0, 7):
            with self.subTest(index=index):
                status, stdout, stderr = diagnose("--tester", support.SPLITTING,
                                                  "--index", str(index))
                self.assertEqual(status, 0, stderr)
                out = support.tmpdir(self)
                status, _, stderr = support.run_command(
                    self, "grader/local.py", "--tester", support.SPLITTING, "--out", out,
                    "--only", str(index))
                self.assertEqual(status, 0, stderr)
                with open(os.path.join(out, "result.json"), encoding="utf-8") as f:
                    entry, = json.load(f)["items"]
                rows, figures = rows_of(stdout), support.lines_of(stdout)
                self.assertEqual(len(rows), entry["tests"])
                self.assertEqual([int(r[0]) for r in rows], list(range(1, len(rows) + 1)))
                self.assertEqual(figures["tests"], str(entry["tests"]))
                self.assertEqual(figures["baseline"], str(entry["baseline"]))
                self.assertEqual(figures["score"], "1.000000")
                self.assertEqual({r[5] for r in rows}, {"exact"})
                self.assertEqual(figures["surprise"], "%.4f" % entry["surprise"])
                self.assertEqual(figures["answer_bits"], figures["surprise"])
                first = rows[0]         # binary splitting tests every item first
                self.assertEqual(first[1:4], (str(entry["n"]), "positive", "1.000000"))
                self.assertEqual(first[6], "0.0000")
                self.assertIn("never a judge", stdout)

    def test_the_manual_quotes_its_output(self):
        status, stdout, stderr = diagnose("--tester", support.SPLITTING, "--index", "0")
        self.assertEqual(status, 0, stderr)
        lines = stdout.splitlines()
        quoted = [line for line in lines if ROW.match(line)
                  and int(ROW.match(line).group(1)) in QUOTED_ROWS]
        self.assertEqual(len(quoted), len(QUOTED_ROWS))
        quoted += [line for line in lines if line.split(": ")[0] in QUOTED_KEYS]
        quoted += [line for line in lines if line.startswith(("exact: ", "sampled: ", "  test"))]
        for line in quoted:
            with self.subTest(line=line):
                support.assert_quoted(self, line, support.LOCAL_RUN)

    def test_a_seed_draws_the_instance_instances_py_draws(self):
        _, sample, _ = diagnose("--tester", support.SPLITTING, "--index", "0")
        for args in (("--index", "0"), ("--count", "1")):
            with self.subTest(args=args):
                status, stdout, stderr = diagnose("--tester", support.SPLITTING,
                                                  "--seed", "group-testing-sample", *args)
                self.assertEqual(status, 0, stderr)
                self.assertIn("source: seed group-testing-sample", stdout)
                self.assertEqual([line for line in stdout.splitlines()
                                  if not line.startswith("source: ")],
                                 [line for line in sample.splitlines()
                                  if not line.startswith("source: ")])

    def test_a_tester_that_fails_exits_1_with_its_kind(self):
        tester = support.write(self, "tester.py",
                               "def find(n, priors, test):\n    test([0])\n"
                               "    raise RuntimeError('boom')\n")
        status, stdout, _ = support.run_command(self, "grader/diagnose.py", "--tester", tester,
                                                "--index", "1")
        self.assertEqual(status, 1)
        figures = support.lines_of(stdout)
        self.assertEqual((figures["status"], figures["kind"], figures["instance"]),
                         ("invalid", "no_answer", "1"))
        self.assertIn("boom", stdout)

    def test_bad_usage_exits_2_naming_the_value(self):
        missing = os.path.join(support.tmpdir(self), "missing.jsonl")
        blank = support.write(self, "blank.jsonl", "\n")
        cases = [
            (("--index", "-1"), "'-1'"),
            (("--index", "seven"), "'seven'"),
            (("--index", "40"), "--index 40 is past the end"),
            (("--index", "0", "--items", missing), repr(missing)),
            (("--index", "0", "--items", blank), "line 1 is blank"),
            (("--index", "0", "--tester", missing), repr(missing)),
            (("--seed", " ", "--index", "0"), "' '"),
            (("--seed", "7", "--count", "3", "--index", "3"), "--index 3 is past the end"),
            (("--seed", "7"), "--seed '7'"),
            (("--count", "3", "--index", "0"), "--count 3"),
            (("--index", "0", "--samples", "0"), "'0'"),
            ((), "--index K"),
        ]
        for args, named in cases:
            with self.subTest(args=args):
                status, stdout, stderr = support.run_command(self, "grader/diagnose.py", *args)
                self.assertEqual(status, 2, stderr)
                self.assertIn(named, stderr)
                self.assertEqual(stdout, "")


if __name__ == "__main__":
    unittest.main()
