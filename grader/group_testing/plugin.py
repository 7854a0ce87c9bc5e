"""Group testing as the template's SDK sees it: one arh_grader.Problem,
GroupTesting, and its one instance, PROBLEM, which the run engine, the
local run, a comparison's testers and the report are all handed: each
instance's session, request, verdict and entry in result.json, the run's
figures, the report's description of an instance, and the paths of its
worker, sample and settings.

    engine.evaluate(items, problem=plugin.PROBLEM, oracle=..., worker=...)

A verdict is `schema` or `wrong` for a bad answer, None for a right one;
the figures are the score (relative_tests), the measures of the possible,
the bytes and the cheat statistics (cheat.py).
"""

import os
import statistics

from arh_grader import Failure, Problem
from arh_grader.benchmark import Bench
from arh_grader.problem import NUMBER

from . import cheat, comparison, instances, problem, seeds, splitting

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGITS = 6              # decimals kept of every float in the result
SCORE = "score"                 # the entry key that progress lines average
COLOURS = {"uniform": "#1f77b4", "two-tier": "#e6550d", "log-normal": "#2ca02c"}
FIGURES = ("relative_tests", "information_floor", "entropy_bound", "binary_entropy_ratio",
           "tests", "instances", "saved_bits", "weighted_saved_bits", "max_saved_bits",
           "capped_bits", "scaled_capped_bits", "weighted_capped_bits", "spike_bits",
           "cheat_bits", "suspect")                 # the console's figures, in order
FAMILY_FIGURES = ("relative_tests", "information_floor", "entropy_bound",
                  "binary_entropy_ratio")           # the console's figures of each family


def _round(x):
    return round(x, DIGITS)


def _floor(entries):
    """Mean over instances of surprise / baseline: the score no tester beats on
    average, since a deterministic tester saves s bits with probability <= 2**-s."""
    return _round(statistics.fmean(e["surprise"] / e["baseline"] for e in entries))


def floor(entry):
    """An instance's information floor: its surprise over its baseline."""
    return entry["surprise"] / entry["baseline"]


class GroupTesting(Problem):
    """Find the defective items of an instance with the fewest pooled tests."""

    SCORE, DIGITS, COUNT = SCORE, DIGITS, "tests"
    REPEATED = ("tests", "invalid_tests", "transcript")   # what --repeat compares, in order
    ROOT = ROOT             # the repository: autoresearch.toml, harness/, src/, grader/
    RESAMPLING_SEED = seeds.MMI
    SAMPLE = os.path.join(ROOT, "sample", "items.jsonl")

    # ---- the oracle's rules and an instance's session ----

    check_query = staticmethod(problem.check_query)
    answer_query = staticmethod(problem.answer_query)
    check_instance = staticmethod(problem.check_instance)

    def secret(self, item):
        return problem.secret_of(item)

    def cap(self, item):
        return problem.cap(item["n"])

    def max_body(self, item):
        return problem.max_body(item["n"])

    def request(self, item):
        return {"n": item["n"], "priors": item["priors"]}

    def judge(self, item, answer, session):
        """The answer's verdict: Failure `schema` or `wrong`, or None."""
        try:
            problem.check_answer(answer, item["defectives"], item["n"])
        except problem.AnswerError as e:
            return Failure(e.kind, str(e))
        return None

    # ---- the result and the console ----

    def entry(self, index, item, session):
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
            "count_surprise": _round(problem.count_surprise(item["priors"],
                                                            item["defectives"])),
            "defective_count": len(item["defectives"]),
            "transcript": session.digest,
        }

    def summary(self, entries):
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
        figures.update(relative_tests=self.mean(entries, "score"),
                       tests=self.mean(entries, "tests"),
                       entropy_bound=self.mean(entries, "bound_ratio"),
                       binary_entropy_ratio=self.mean(entries, "binary_entropy_ratio"),
                       information_floor=_floor(entries))
        for family in problem.FAMILIES:
            mine = [e for e in entries if e["family"] == family]
            if mine:
                figures["families"][family] = {
                    "instances": len(mine),
                    "relative_tests": self.mean(mine, "score"),
                    "entropy_bound": self.mean(mine, "bound_ratio"),
                    "binary_entropy_ratio": self.mean(mine, "binary_entropy_ratio"),
                    "information_floor": _floor(mine)}
        return figures

    CONSOLE = FIGURES       # the console's figures, in order, before the families'

    def summary_lines(self, result):
        """A valid result's figures as `key: value` lines (CONSOLE's), its
        families' figures, then the suspect run's warning (the engine's
        `status:` and `kind:` come before)."""
        lines = super().summary_lines(result)
        for family, row in result["families"].items():
            lines += ["%s.%s: %s" % (key, family, row[key]) for key in FAMILY_FIGURES]
        if result["suspect"]:
            lines.append("warning: the tester saved more bits below the information its "
                         "instances hold than an honest tester does with probability 2**-%.1f"
                         % result["cheat_bits"])
        return lines

    # ---- the report (grader/report.py) ----

    SCORE_NAME, BOUND_NAME, BOUND_SHORT = "relative_tests", "information_floor", "floor"
    LOWER_IS_BETTER = True
    FIELDS = {"index": (int,), "family": (str,), "n": (int,), "tests": (int,),
              "baseline": (int,), "score": NUMBER, "surprise": NUMBER}
    POSITIVE, SAME_SET = ("baseline",), ("family", "n", "baseline", "surprise")
    GROUP, GROUPS, COLOURS = "family", problem.FAMILIES, COLOURS
    LABELS = (("index", "%5d", "index"), ("family", "%-10s", "family"), ("n", "%3d", "n"))
    FIGURES = (("tests", "%5d", "tests"), ("baseline", "%8d", "baseline"),
               ("score", "%8.6f", "score"), ("floor", "%8.6f", floor),
               ("gap", "%+9.6f", lambda entry: entry["score"] - floor(entry)),
               ("bits", "%+7.1f", lambda entry: entry["tests"] - entry["surprise"]))
    AXES = ("information floor (surprise / baseline)", "score (tests / baseline)")
    REFERENCE = (1.0, "binary splitting (1.0)")
    WIN = ("fewer tests", "more tests")

    def bound(self, entry):
        return floor(entry)

    def describe(self, entry):
        """An instance's words in the picture."""
        return "instance %d (%s, n = %d): %d tests, baseline %d, score %.4f, floor %.4f" % (
            entry["index"], entry["family"], entry["n"], entry["tests"], entry["baseline"],
            entry["score"], floor(entry))

    # ---- the comparison (grader/compare.py) ----

    COMPARISON = comparison.Rules   # group testing's rules of a comparison

    # ---- the bench (grader/bench.py) ----

    BENCH = Bench(      # pools of the last items of 512, the last one defective: positive
        item={"n": problem.N_MAX, "defectives": [problem.N_MAX - 1]},
        query=lambda size: {"pool": list(range(problem.N_MAX - size, problem.N_MAX))},
        size=50, sizes=range(1, problem.N_MAX + 1),
        size_help="items of the pool each round trip sends",
        draw=instances.draw, tester=splitting.__file__,
        expected=lambda item: item["baseline"])


PROBLEM = GroupTesting()
