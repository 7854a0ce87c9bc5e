"""Group testing as the template's run engine sees it (arh_grader.engine):
each instance's session, request, verdict and entry in result.json, and
the run's figures.

    engine.evaluate(items, problem=plugin.PROBLEM, oracle=..., worker=...)

A verdict is `schema` or `wrong` for a bad answer, None for a right one;
the figures are the score (relative_tests), the measures of the possible,
the bytes and the cheat statistics (cheat.py).
"""

import json
import statistics

from arh_grader import Failure, engine

from . import cheat, problem

DIGITS = 6              # decimals kept of every float in the result

SCORE = "score"                 # the entry key that progress lines average


def check_instance(item):
    problem.check_instance(item)


def session(item):
    """The oracle session of an instance: its secret, cap and body limit."""
    n = item["n"]
    return {"secret": problem.secret_of(item), "cap": problem.cap(n),
            "max_body": problem.max_body(n)}


def request(item):
    return {"n": item["n"], "priors": item["priors"]}


def judge(item, answer, session):
    """The answer's verdict: Failure `schema` or `wrong`, or None."""
    try:
        problem.check_answer(answer, item["defectives"], item["n"])
    except problem.AnswerError as e:
        return Failure(e.kind, str(e))
    return None


def entry(index, item, session):
    """One instance's entry in result.json."""
    bound = problem.entropy_bound(item["priors"])
    binary = problem.binary_entropy_sum(item["priors"])
    return {
        "index": index, "family": item["family"], "n": item["n"],
        "tests": session.tests, "baseline": item["baseline"],
        "score": _round(session.tests / item["baseline"]),
        "invalid_tests": session.invalid,
        "query_bytes": session.query_bytes, "answer_bytes": session.answer_bytes,
        "bound": _round(bound), "bound_ratio": _round(bound / item["baseline"]),
        "binary_entropy_sum": _round(binary),
        "binary_entropy_ratio": _round(binary / item["baseline"]),
        "surprise": _round(problem.surprise(item["priors"], item["defectives"])),
        "count_surprise": _round(problem.count_surprise(item["priors"], item["defectives"])),
        "defective_count": len(item["defectives"]),
        "transcript": session.digest,
    }


def summary(entries):
    """The run's figures: the score, the measures of the possible, the
    bytes, the cheat statistics and the families' figures."""
    figures = {"relative_tests": None, "tests": None, "entropy_bound": None,
               "binary_entropy_ratio": None, "information_floor": None,
               "query_bytes": sum(e["query_bytes"] for e in entries),
               "answer_bytes": sum(e["answer_bytes"] for e in entries),
               "families": {}}
    figures.update(cheat.statistics(entries))
    if not entries:
        return figures
    figures.update(relative_tests=_round(statistics.fmean(e["score"] for e in entries)),
                   tests=_round(statistics.fmean(e["tests"] for e in entries)),
                   entropy_bound=_round(statistics.fmean(e["bound_ratio"] for e in entries)),
                   binary_entropy_ratio=_round(statistics.fmean(
                       e["binary_entropy_ratio"] for e in entries)),
                   information_floor=_floor(entries))
    for family in problem.FAMILIES:
        mine = [e for e in entries if e["family"] == family]
        if mine:
            figures["families"][family] = {
                "instances": len(mine),
                "relative_tests": _round(statistics.fmean(e["score"] for e in mine)),
                "entropy_bound": _round(statistics.fmean(e["bound_ratio"] for e in mine)),
                "binary_entropy_ratio": _round(statistics.fmean(
                    e["binary_entropy_ratio"] for e in mine)),
                "information_floor": _floor(mine)}
    return figures


def summary_lines(result):
    """`key: value` lines of a result for the console (engine.summary_lines)."""
    if result["status"] != "valid":
        return engine.summary_lines(result, problem=PROBLEM)
    lines = ["status: %s" % result["status"], "kind: none"]
    for key in ("relative_tests", "information_floor", "entropy_bound",
                "binary_entropy_ratio", "tests",
                "instances", "saved_bits", "weighted_saved_bits", "max_saved_bits",
                "capped_bits", "scaled_capped_bits", "weighted_capped_bits", "spike_bits",
                "cheat_bits", "suspect"):
        lines.append("%s: %s" % (key, json.dumps(result[key])))
    for family, row in result["families"].items():
        for key in ("relative_tests", "information_floor", "entropy_bound",
                    "binary_entropy_ratio"):
            lines.append("%s.%s: %s" % (key, family, row[key]))
    if result["suspect"]:
        lines.append("warning: the tester saved more bits below the information its "
                     "instances hold than an honest tester does with probability 2**-%.1f"
                     % result["cheat_bits"])
    return lines


def _round(x):
    return round(x, DIGITS)


def _floor(entries):
    """Mean over instances of surprise / baseline: the score no tester beats on
    average, since a deterministic tester saves s bits with probability <= 2**-s."""
    return _round(statistics.fmean(e["surprise"] / e["baseline"] for e in entries))


class _Plugin:
    """This module's functions as the engine's problem object."""

    SCORE = SCORE
    REPEATED = ("tests", "invalid_tests", "transcript")   # what --repeat compares, in order
    check_query = staticmethod(problem.check_query)
    answer_query = staticmethod(problem.answer_query)
    check_instance = staticmethod(check_instance)
    session = staticmethod(session)
    request = staticmethod(request)
    judge = staticmethod(judge)
    entry = staticmethod(entry)
    summary = staticmethod(summary)

    @staticmethod
    def summary_lines(result):
        return summary_lines(result)[2:]


PROBLEM = _Plugin()
