"""Twenty questions as the template's SDK sees it: one arh_grader.Problem,
TwentyQuestions, and its one instance, PROBLEM (the whole pool), which
the run engine, the local run, the comparison's testers and the report
are all handed: sessions with this problem's counting policy, the rounds'
entries, the run's figures, the report's description of a round, and the
paths of its worker, sample and settings.

    problem = PROBLEM.for_set(path)    # the set's pool, for the bound
    engine.evaluate(items, problem=problem, ...)

A round's verdict is never `wrong`: the tester answers nothing, and the
oracle's session says whether a guess found the animal. A round that ends at
its budget scores 0, and is no failure. Its report (arh_grader.report, the
command tq/report.py) shows a round's score against its bound, a ceiling,
higher being better.
"""

import operator
import os

from arh_grader import Policy, Problem, engine
from arh_grader.problem import NUMBER

from tq import comparison, data, problem, score, sets

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(PROJECT))      # the repository, in a checkout
MAX_BODY = 64           # bytes of a query at most: {"guess": 1471} with room to spare
SUSPECT_BITS = 20.0     # saved bits over a set at which a run is flagged (honest: p <= 2**-20)


class TwentyQuestions(Problem):
    """Find a hidden animal with yes/no questions and guesses; `pool`, the
    set's pool (sets.pool_of), sets each round's bound."""

    SCORE, COUNT = "score", "calls"
    REPEATED = ("calls", "found", "transcript")   # what --repeat compares, in order
    # what the worker reads beside Python and its tester: the template worker
    # it is built on (the repository's harness/) and the problem's data
    WORKER_READS = (os.path.join(ROOT, "harness"), os.path.join(PROJECT, "data"))
    ROOT, REPOSITORY = PROJECT, ROOT      # its folder, in the repository it is part of
    COMMANDS = os.path.join(PROJECT, "tq")
    SAMPLE = sets.DEV_FILE
    POLICY = Policy(count_invalid=problem.INVALID_QUERIES_COUNTED,
                    over_cap="fail" if problem.OVER_BUDGET_FAILS else "end",
                    ends=problem.ends_round if problem.CORRECT_ENDS_ROUND else None)
    CONSOLE = ("mean_score", "bound", "found", "calls", "instances", "saved_bits", "suspect")
    check_query = staticmethod(problem.check_query)
    answer_query = staticmethod(problem.answer_query)
    check_instance = staticmethod(problem.check_instance)

    def __init__(self, *, pool=data.ANIMALS):
        self.pool = pool

    def for_set(self, path):
        """The problem for the set at `path`: its bound needs the set's pool.
        A set that does not load gets the whole pool; engine.run reports it."""
        try:
            animals = [item["animal"] for item in self.load_set(path)]
        except engine.Failure:
            return TwentyQuestions(pool=data.ANIMALS)
        return TwentyQuestions(pool=sets.pool_of(animals)[1])

    def secret(self, item):
        return problem.secret_of(item)

    def cap(self, item):
        return score.BUDGET

    def max_body(self, item):
        return MAX_BODY

    def entry(self, index, item, session):
        found, calls = session.ended_by_answer, session.tests
        candidates = self.pool - min(index, self.pool - 1)
        return {"index": index, "calls": calls, "found": found,
                "score": round(score.round_score(found, calls), self.DIGITS),
                "bound": round(score.round_bound(pool=self.pool,
                                                 index=min(index, self.pool - 1)), self.DIGITS),
                "saved_bits": round(score.saved_bits(found=found, calls=calls,
                                                     candidates=candidates), self.DIGITS),
                "transcript": session.digest}

    def summary(self, entries):
        saved = self.total(entries, "saved_bits")
        return {"mean_score": self.mean(entries, "score"), "bound": self.mean(entries, "bound"),
                "found": self.total(entries, "found"), "calls": self.mean(entries, "calls"),
                "saved_bits": saved, "suspect": saved is not None and saved >= SUSPECT_BITS}

    # ---- the report (tq/report.py) ----

    SCORE_NAME, BOUND_NAME, LOWER_IS_BETTER = "mean_score", "bound", False
    FIELDS = {"index": (int,), "calls": (int,), "found": (bool,), "score": NUMBER,
              "bound": NUMBER, "saved_bits": NUMBER}
    SAME_SET = ("bound",)       # ROWS: below_bound, the SDK's
    FIGURES = (("calls", "%5d", "calls"),
               ("found", "%5s", lambda entry: "true" if entry["found"] else "false"),
               ("score", "%8.6f", "score"), ("bound", "%8.6f", "bound"),
               ("gap", "%+9.6f", lambda entry: entry["bound"] - entry["score"]),
               ("saved_bits", "%+10.6f", "saved_bits"))
    AXES = ("bound (the round's best expected score)", "score (found - 0.02 x calls)")
    REFERENCE = (score.round_score(True, 1), "found at the first call (0.98)")
    ACROSS = ("round (its index in the set)", operator.itemgetter("index"))
    bound = staticmethod(operator.itemgetter("bound"))

    def describe(self, entry):
        """A round's words in the report's picture."""
        return "round %d: %d calls, %s, score %.4f, bound %.4f" % (
            entry["index"], entry["calls"], "found" if entry["found"] else "not found",
            entry["score"], entry["bound"])

    # ---- the comparison (tq/compare.py) ----

    COMPARISON = comparison.Rules   # twenty questions' rules of a comparison


PROBLEM = TwentyQuestions()
