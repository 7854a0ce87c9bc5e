"""Twenty questions as the template's run engine sees it
(arh_grader.engine): sessions with this problem's counting policy, the
rounds' entries and the run's figures.

    plugin = Plugin(pool=sets.pool_of(animals)[1])   # the set's pool, for the bound
    engine.evaluate(items, problem=plugin, ...)

A round's verdict is never `wrong`: the tester answers nothing, and the
oracle's session says whether a guess found the animal. A round that ends at
its budget scores 0, and is no failure.

REPORT describes the rounds' entries to the template's report
(arh_grader.report, the command tq/report.py): a round's score against its
bound, a ceiling, higher being better.
"""

import operator
import os
import statistics

from arh_grader import Policy, report

from tq import problem, score

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(PROJECT))      # the repository, in a checkout
MAX_BODY = 64           # bytes of a query at most: {"guess": 1471} with room to spare
SUSPECT_BITS = 20.0     # saved bits over a set at which a run is flagged (honest: p <= 2**-20)
DIGITS = 6              # decimals kept of every figure
POLICY = Policy(count_invalid=problem.INVALID_QUERIES_COUNTED,
                over_cap="fail" if problem.OVER_BUDGET_FAILS else "end",
                ends=problem.ends_round if problem.CORRECT_ENDS_ROUND else None)


def describe(entry):
    """A round's words in the report's picture."""
    return "round %d: %d calls, %s, score %.4f, bound %.4f" % (
        entry["index"], entry["calls"], "found" if entry["found"] else "not found",
        entry["score"], entry["bound"])


REPORT = report.Report(
    score_name="mean_score", bound_name="bound", bound_short="bound",
    bound=operator.itemgetter("bound"), lower_is_better=False,
    fields={"index": (int,), "calls": (int,), "found": (bool,), "score": report.NUMBER,
            "bound": report.NUMBER, "saved_bits": report.NUMBER},
    same_set=("bound",), count="calls",
    labels=(("index", "%5d", "index"),),
    figures=(("calls", "%5d", "calls"),
             ("found", "%5s", lambda entry: "true" if entry["found"] else "false"),
             ("score", "%8.6f", "score"), ("bound", "%8.6f", "bound"),
             ("gap", "%+9.6f", lambda entry: entry["bound"] - entry["score"]),
             ("saved_bits", "%+10.6f", "saved_bits")),
    rows="below_bound", describe=describe,
    axes=("bound (the round's best expected score)", "score (found - 0.02 x calls)"),
    reference=(score.round_score(True, 1), "found at the first call (0.98)"),
    win=("a higher score", "a lower score"), digits=DIGITS,
    across=("round (its index in the set)", operator.itemgetter("index")))


class Plugin:
    SCORE = "score"
    REPEATED = ("calls", "found", "transcript")   # what --repeat compares, in order
    # what the worker reads beside Python and its tester: the template worker
    # it is built on (the repository's harness/) and the problem's data
    WORKER_READS = (os.path.join(ROOT, "harness"), os.path.join(PROJECT, "data"))
    check_query = staticmethod(problem.check_query)
    answer_query = staticmethod(problem.answer_query)
    check_instance = staticmethod(problem.check_instance)

    def __init__(self, *, pool):
        self.pool = pool

    def session(self, item):
        return {"secret": problem.secret_of(item), "cap": score.BUDGET,
                "max_body": MAX_BODY, "policy": POLICY}

    def request(self, item):
        return {}

    def judge(self, item, answer, session):
        return None

    def entry(self, index, item, session):
        found, calls = session.ended_by_answer, session.tests
        candidates = self.pool - min(index, self.pool - 1)
        return {"index": index, "calls": calls, "found": found,
                "score": round(score.round_score(found, calls), DIGITS),
                "bound": round(score.round_bound(pool=self.pool,
                                                 index=min(index, self.pool - 1)), DIGITS),
                "saved_bits": round(score.saved_bits(found=found, calls=calls,
                                                     candidates=candidates), DIGITS),
                "transcript": session.digest}

    def summary(self, entries):
        figures = {"mean_score": None, "bound": None, "found": None, "calls": None,
                   "saved_bits": None, "suspect": False}
        if entries:
            figures.update(
                mean_score=round(statistics.fmean(e["score"] for e in entries), DIGITS),
                bound=round(statistics.fmean(e["bound"] for e in entries), DIGITS),
                found=sum(e["found"] for e in entries),
                calls=round(statistics.fmean(e["calls"] for e in entries), DIGITS),
                saved_bits=round(sum(e["saved_bits"] for e in entries), DIGITS))
            figures["suspect"] = figures["saved_bits"] >= SUSPECT_BITS
        return figures

    def summary_lines(self, result):
        return ["%s: %s" % (key, result[key]) for key in
                ("mean_score", "bound", "found", "calls", "instances", "saved_bits")] + [
            "suspect: %s" % ("true" if result["suspect"] else "false")]
