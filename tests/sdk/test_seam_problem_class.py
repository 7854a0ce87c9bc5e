"""The template's seam is one class, arh_grader.Problem, here on the toy
problem (toy.py): its abstract members are the ones its docstring lists, a
class lacking one cannot be made, its docstring's example makes one, a
session's Spec carries the rules and the instance at once, and the engine,
not the problem, owns the console's verdict lines. Every problem object
in the tree, group testing's and twenty questions' among them:
tests/end_to_end/test_seam_problem.py."""

import inspect
import statistics
import textwrap
import unittest

import support  # noqa: F401  (puts grader/ on the path)
import toy
from arh_grader import Policy, Problem, QueryError, Session, engine
from arh_grader import problem as problem_module


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
    def test_the_abstract_members_are_the_documented_ones(self):
        self.assertEqual(problem_module.required(), documented_required())
        self.assertEqual(len(documented_required()), 17)

    def test_a_class_lacking_a_required_member_cannot_be_made(self):
        whole = {k: v for k, v in vars(toy.Trivia).items() if not k.startswith("__")}
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
        spec = toy.PROBLEM.session(toy.ITEM)
        self.assertEqual((spec.secret, spec.cap, spec.max_body, spec.policy),
                         (toy.SECRET, toy.BUDGET, 64, toy.TRIVIA))
        self.assertEqual((spec.check, spec.answer),
                         (toy.PROBLEM.check_query, toy.PROBLEM.answer_query))
        session = Session.of(spec)          # nothing else needed: a right guess ends it
        self.assertEqual(session.submit(b'{"guess":7}')[:2], (200, b'{"correct":true}'))
        self.assertEqual((session.tests, session.ended_by_answer), (1, True))


class StatusLinesTest(unittest.TestCase):
    """The engine prints the verdict's lines; a problem gives only its figures."""

    class Refusing(toy.Trivia):
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


if __name__ == "__main__":
    unittest.main()
