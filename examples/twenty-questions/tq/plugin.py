"""Twenty questions as the template's run engine sees it
(arh_grader.engine): sessions with this problem's counting policy, the
rounds' entries and the run's figures.

    plugin = Plugin(pool=sets.pool_of(animals)[1])   # the set's pool, for the bound
    engine.evaluate(items, problem=plugin, ...)

A round's verdict is never `wrong`: the tester answers nothing, and the
oracle's session says whether a guess found the animal. A round that ends at
its budget scores 0, and is no failure.
"""

import statistics

from arh_grader import Policy

from tq import problem, score

MAX_BODY = 64           # bytes of a query at most: {"guess": 1471} with room to spare
SUSPECT_BITS = 20.0     # saved bits over a set at which a run is flagged (honest: p <= 2**-20)
DIGITS = 6              # decimals kept of every figure
POLICY = Policy(count_invalid=problem.INVALID_QUERIES_COUNTED,
                over_cap="fail" if problem.OVER_BUDGET_FAILS else "end",
                ends=problem.ends_round if problem.CORRECT_ENDS_ROUND else None)


class Plugin:
    SCORE = "score"
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
