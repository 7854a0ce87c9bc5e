"""The template's seam is one class, arh_grader.Problem, seen across the
tree: every problem object in it is one (group testing's plug-in, twenty
questions', graph isomorphism's and the SDK tests' toy), group testing's
sessions carry its rules, and its console figures hold no verdict line,
which is the engine's. The class itself on the toy problem (its members,
its docstring's example, the engine's verdict lines):
tests/sdk/test_seam_problem_class.py. Who imports whom across the seam:
test_seam_imports.py."""

import ast
import json
import os
import subprocess
import sys
import unittest

import support
import toy
from support import python_files
from arh_grader import Problem, engine
from group_testing import plugin

GRADER = os.path.join(support.ROOT, "grader")
TQ = os.path.join(support.ROOT, "examples", "twenty-questions")
GI = os.path.join(support.ROOT, "examples", "algotune-graph-isomorphism")

PROBLEMS = """
import json, sys
sys.path[:0] = sys.argv[2:]
from arh_grader import Problem
found = {}
for name in sys.argv[1].split(","):
    module = __import__(name, fromlist=["PROBLEM"])
    found[name] = isinstance(module.PROBLEM, Problem)
print(json.dumps(found))
"""


def module_level_problems(folder):
    """The files of `folder` that bind PROBLEM at their top level."""
    for path in python_files(folder):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if "PROBLEM" in names:
                yield os.path.relpath(path, support.ROOT)


class ProblemTest(unittest.TestCase):
    def test_every_problem_object_in_the_tree_is_a_problem(self):
        files = sorted(p for top in ("grader", "examples", "tests")
                       for p in module_level_problems(os.path.join(support.ROOT, top)))
        self.assertEqual(files, [
            "examples/algotune-graph-isomorphism/gi/plugin.py",
            "examples/twenty-questions/tq/plugin.py", "grader/group_testing/plugin.py",
            "tests/sdk/toy.py"])
        for modules, path in ((["group_testing.plugin"], [GRADER]),
                              (["tq.plugin"], [TQ, GRADER]),
                              (["gi.plugin"], [GI, GRADER]),
                              (["toy"], [os.path.join(support.ROOT, "tests", "sdk"),
                                         os.path.join(support.ROOT, "tests"), GRADER])):
            done = subprocess.run([sys.executable, "-c", PROBLEMS, ",".join(modules), *path],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(json.loads(done.stdout), dict.fromkeys(modules, True))
        self.assertIsInstance(toy.PROBLEM, Problem)

    def test_a_session_spec_carries_the_rules_and_the_instance_at_once(self):
        item = support.PROBLEM.load_set(support.SAMPLE)[0]
        spec = plugin.PROBLEM.session(item)
        self.assertEqual((spec.cap, spec.max_body), (2 * item["n"] + 64,
                                                     plugin.problem.max_body(item["n"])))
        self.assertIs(spec.check, plugin.problem.check_query)
        self.assertIs(spec.answer, plugin.problem.answer_query)


class StatusLinesTest(unittest.TestCase):
    """The engine prints the verdict's lines; a problem gives only its figures."""

    def test_group_testings_figures_hold_no_status_line(self):
        entries = [plugin.PROBLEM.entry(0, item, type("S", (), dict(
            tests=item["baseline"], invalid=0, query_bytes=1, answer_bytes=1, digest="")))
            for item in support.PROBLEM.load_set(support.SAMPLE)[:3]]
        result = engine.summarize(plugin.PROBLEM, entries)
        figures = plugin.PROBLEM.summary_lines(result)
        self.assertEqual(figures[0], "relative_tests: 1.0")
        self.assertFalse([line for line in figures if line.startswith(("status:", "kind:"))])
        self.assertEqual(support.engine.summary_lines(result, problem=support.PROBLEM),
                         ["status: valid", "kind: none"] + figures)


if __name__ == "__main__":
    unittest.main()
