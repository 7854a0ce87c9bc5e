"""The template's seam is one class, arh_grader.Problem: every problem
object in the tree is one, its abstract members are the ones its docstring
lists, a class lacking one cannot be made, its docstring's example makes
one, and the engine, not the problem, owns the console's verdict lines
(group testing's plug-in among the problems). Who imports whom across the
seam: test_seam_imports.py."""

import ast
import inspect
import json
import os
import statistics
import subprocess
import sys
import textwrap
import unittest

import support
from support import python_files
from arh_grader import Policy, Problem, QueryError, engine
from arh_grader import problem as problem_module
from group_testing import plugin
import test_policy

GRADER = os.path.join(support.ROOT, "grader")
TQ = os.path.join(support.ROOT, "examples", "twenty-questions")

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


def documented_required():
    """The names under `Required` in Problem's docstring."""
    text = problem_doc().split("Required (")[1].split("Optional (")[0]
    return sorted(line.split()[0].split("(")[0] for line in text.splitlines()[1:]
                  if line.startswith("    ") and line.strip())


def problem_doc():
    """Problem's docstring with its common indent removed (3.13's compiler
    removes it already, 3.11's keeps it)."""
    return inspect.cleandoc(Problem.__doc__)


class ProblemTest(unittest.TestCase):
    def test_every_problem_object_in_the_tree_is_a_problem(self):
        files = sorted(p for top in ("grader", "examples", "tests")
                       for p in module_level_problems(os.path.join(support.ROOT, top)))
        self.assertEqual(files, [
            "examples/twenty-questions/tq/plugin.py", "grader/group_testing/plugin.py",
            "tests/sdk/test_policy.py"])
        for modules, path in ((["group_testing.plugin"], [GRADER]),
                              (["tq.plugin"], [TQ, GRADER]),
                              (["test_policy"], [os.path.join(support.ROOT, "tests"), GRADER])):
            done = subprocess.run([sys.executable, "-c", PROBLEMS, ",".join(modules), *path],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(json.loads(done.stdout), dict.fromkeys(modules, True))
        self.assertIsInstance(test_policy.PROBLEM, Problem)

    def test_the_abstract_members_are_the_documented_ones(self):
        self.assertEqual(problem_module.required(), documented_required())
        self.assertEqual(len(documented_required()), 18)

    def test_a_class_lacking_a_required_member_cannot_be_made(self):
        whole = {k: v for k, v in vars(test_policy.Trivia).items() if not k.startswith("__")}
        type("Whole", (Problem,), whole)()
        for name in problem_module.required():
            with self.subTest(member=name):
                lacking = type("Lacking", (Problem,),
                               {k: v for k, v in whole.items() if k != name})
                with self.assertRaisesRegex(TypeError, r"^Can't instantiate abstract class "
                                            r"Lacking .*abstract method.*\b%s\b" % name):
                    lacking()

    def test_the_docstrings_minimal_example_makes_a_problem(self):
        doc = problem_doc()
        code = textwrap.dedent(doc[doc.index("    class Guess(Problem):"):
                                   doc.index("PROBLEM = Guess()") + len("PROBLEM = Guess()")])
        namespace = {"Problem": Problem, "QueryError": QueryError, "statistics": statistics}
        exec(compile(code, "Problem's example", "exec"), namespace)
        guess = namespace["PROBLEM"]
        spec = guess.session({"number": 41})
        self.assertEqual((spec.secret, spec.cap, spec.max_body, spec.policy),
                         (41, 20, 16, Policy()))
        self.assertEqual((spec.check, spec.answer), (guess.check_query, guess.answer_query))

    def test_a_session_spec_carries_the_rules_and_the_instance_at_once(self):
        item = support.PROBLEM.load_set(support.SAMPLE)[0]
        spec = plugin.PROBLEM.session(item)
        self.assertEqual((spec.cap, spec.max_body), (2 * item["n"] + 64,
                                                     plugin.problem.max_body(item["n"])))
        self.assertIs(spec.check, plugin.problem.check_query)
        self.assertIs(spec.answer, plugin.problem.answer_query)


class StatusLinesTest(unittest.TestCase):
    """The engine prints the verdict's lines; a problem gives only its figures."""

    class Refusing(test_policy.Trivia):
        def summary_lines(self, result):
            if result["status"] != "valid":
                raise AssertionError("a failed run's lines are the engine's")
            return super().summary_lines(result)

    def test_a_valid_run_gets_the_engines_status_then_the_problems_figures(self):
        problem = self.Refusing()
        result = engine.summarize(problem, [{"index": 0, "calls": 2, "score": 1.0,
                                             "transcript": ""}])
        self.assertEqual(engine.summary_lines(result, problem=problem),
                         ["status: valid", "kind: none", "mean_score: 1.0"])

    def test_a_failed_run_gets_the_engines_lines_alone(self):
        problem = self.Refusing()
        result = engine.summarize(problem, [], engine.Failure("timeout", "late\x07", 3))
        self.assertEqual(engine.summary_lines(result, problem=problem),
                         ["status: invalid", "kind: timeout", "instance: 3",
                          "message: late\\x07"])

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
