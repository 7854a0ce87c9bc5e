"""The task (gi/task.py): the problems it draws, the same on every
machine, and the check of a solution, which refuses every way a mapping
can be wrong; and the rules beside it (gi/rules.py): a set's lines, the
files a worker hands over, the score and the budgets."""

import base64
import hashlib
import json
import unittest

import gi_support  # noqa: F401  (the project and the SDK on sys.path)
from gi import rules, sets, task

# sha256 of generate_problem(150, 7) as canonical JSON, on Python 3.11 and 3.13
PROBLEM_150_7 = "a916babf3d60e5082da572110fa9f06f204c6f912d1dce417e7c6f71495d1228"


def canonical(problem):
    return json.dumps(problem, sort_keys=True, separators=(",", ":")).encode()


class TaskTest(unittest.TestCase):
    def test_a_problem_is_the_same_bytes_everywhere(self):
        problem = task.generate_problem(150, 7)
        self.assertEqual(hashlib.sha256(canonical(problem)).hexdigest(), PROBLEM_150_7)
        self.assertEqual(problem["num_nodes"], 150)
        self.assertEqual(len(problem["edges_g1"]), len(problem["edges_g2"]))
        self.assertEqual(problem["edges_g2"], sorted(problem["edges_g2"]))
        self.assertTrue(all(u < v for u, v in problem["edges_g1"] + problem["edges_g2"]))
        chance = len(problem["edges_g1"]) / (150 * 149 / 2)
        self.assertLess(abs(chance - task.EDGE_CHANCE), 0.02)
        self.assertNotEqual(canonical(problem), canonical(task.generate_problem(150, 8)))

    def test_bad_arguments_are_named(self):
        for n, seed, named in ((1, 0, "1"), ("9", 0, "'9'"), (10, 1.5, "1.5")):
            with self.subTest(n=n, seed=seed):
                with self.assertRaises(ValueError) as caught:
                    task.generate_problem(n, seed)
                self.assertIn(named, str(caught.exception))

    def test_the_check_accepts_the_relabelling_and_refuses_every_fault(self):
        problem = {"num_nodes": 4, "edges_g1": [[0, 1], [1, 2], [2, 3]],
                   "edges_g2": [[0, 3], [1, 3], [1, 2]]}    # the path 0-1-2-3 as 2-1-3-0
        good = {"mapping": [2, 1, 3, 0]}
        self.assertTrue(task.is_solution(problem, good))
        self.assertEqual(task.why_not(problem, good), "the answer is a solution")
        for answer, words in (
                ({"mapping": [2, 1, 3]}, "not a list of 4 nodes"),
                ({"mapping": [2, 2, 3, 0]}, "not a permutation"),
                ({"mapping": [2, 1, 3, 4]}, "not a permutation"),
                ({"mapping": [2.0, 1, 3, 0]}, "not a permutation"),
                ({"mapping": [True, 1, 3, 0]}, "not a permutation"),
                ({"mapping": [0, 1, 2, 3]}, "edge (0, 1) of G1 maps to (0, 1)"),
                ({"mapping": [2, 1, 3, 0], "extra": 1}, "not {\"mapping\""),
                ([2, 1, 3, 0], "not {\"mapping\""),
                (None, "not {\"mapping\"")):
            with self.subTest(answer=answer):
                self.assertFalse(task.is_solution(problem, answer))
                self.assertIn(words, task.why_not(problem, answer))

    def test_both_graphs_of_a_drawn_problem_have_the_same_degrees(self):
        problem = task.generate_problem(140, 3)
        g2 = {tuple(e) for e in problem["edges_g2"]}
        degree1 = [0] * 140
        for u, v in problem["edges_g1"]:
            degree1[u] += 1
            degree1[v] += 1
        degree2 = [0] * 140
        for u, v in g2:
            degree2[u] += 1
            degree2[v] += 1
        self.assertEqual(sorted(degree1), sorted(degree2))


class RulesTest(unittest.TestCase):
    def test_a_set_line_is_checked_by_name(self):
        good = {"n": 150, "seed": 3, "instructions": 10}
        rules.check_instance(good)
        for bad, named in (({"n": 150, "seed": 3}, "['n', 'seed']"),
                           (dict(good, n=139), "139"), (dict(good, n=181), "181"),
                           (dict(good, seed=-1), "-1"), (dict(good, seed="3"), "'3'"),
                           (dict(good, instructions=0), "0"), ([1], "list")):
            with self.subTest(line=bad):
                with self.assertRaises(ValueError) as caught:
                    rules.check_instance(bad)
                self.assertIn(named, str(caught.exception))

    def test_the_sample_is_the_sample_seed_s_draw(self):
        with open(gi_support.PROJECT + "/sample/items.jsonl", encoding="utf-8") as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(len(lines), sets.SAMPLE_COUNT)
        self.assertEqual([{"n": x["n"], "seed": x["seed"]} for x in lines],
                         sets.draw(sets.SAMPLE_COUNT, sets.SAMPLE_SEED))
        for line in lines:
            rules.check_instance(line)

    def test_the_score_and_the_run_s_cap(self):
        self.assertEqual(rules.score(24, 100, 240, 2640), 1.0)
        items = [{"instructions": 1000}, {"instructions": 3000}]
        self.assertEqual(rules.run_cap(items, 2), rules.CAP_SLACK + rules.ITEM_FACTOR * 2000)
        self.assertEqual(rules.run_cap(items[:1], 2), rules.CAP_SLACK + rules.ITEM_FACTOR * 500)

    def test_a_loaded_set_gives_each_problem_the_set_s_size(self):
        """A run of part of a set scores as the refs were measured: with the
        import shared among all the set's problems."""
        from gi import plugin
        items = plugin.PROBLEM.load_set(plugin.PROBLEM.SAMPLE)
        self.assertEqual({item[plugin.SET_SIZE] for item in items}, {sets.SAMPLE_COUNT})
        item = items[0]
        work = (item["instructions"] - 1000) // sets.SAMPLE_COUNT
        self.assertEqual(plugin.PROBLEM.entry_of(0, item, work, 1000, item[plugin.SET_SIZE])
                         ["score"], round((sets.SAMPLE_COUNT * work + 1000)
                                          / item["instructions"], plugin.PROBLEM.DIGITS))

    def test_the_files_a_worker_hands_over(self):
        def answer(files):
            return {"files": {p: base64.b64encode(d).decode() for p, d in files.items()}}
        got = rules.files_of(answer({"solver.py": b"x = 1\n", "lib/a.py": b""}))
        self.assertEqual(got, {"solver.py": b"x = 1\n", "lib/a.py": b""})
        many = {"f%d.py" % k: b"" for k in range(rules.MAX_FILES)}
        for bad, words in (
                ({"files": {"a.py": "eA=="}}, "no solver.py"),
                (answer({"solver.py": b"", "../x": b""}), "'../x' is not a plain"),
                (answer({"solver.py": b"", "/x": b""}), "'/x' is not a plain"),
                (answer({"solver.py": b"", "a//b": b""}), "'a//b' is not a plain"),
                (answer({"solver.py": b"", "a": b"", "a/b": b""}), "'a' is both"),
                ({"files": {"solver.py": "not base64!"}}, "is not base64"),
                ({"files": {"solver.py": 7}}, "not base64 text"),
                (answer(dict(many, **{"solver.py": b""})), "65 files; at most 64"),
                (answer({"solver.py": b"x" * (rules.MAX_BYTES + 1)}), "bytes of files"),
                ({"files": []}, "not {\"files\""), (None, "not {\"files\"")):
            with self.subTest(words=words):
                with self.assertRaises(ValueError) as caught:
                    rules.files_of(bad)
                self.assertIn(words, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
