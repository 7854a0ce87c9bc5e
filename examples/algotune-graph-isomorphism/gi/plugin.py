"""Graph isomorphism as the SDK sees it: one arh_grader.Problem,
GraphIsomorphism, and its one instance, PROBLEM, which the SDK's commands
are handed.

Its count is not the oracle's: a run asks the worker once for the files
of src/ (its /solve, in a session of the oracle whose cap is 0, so the
worker that runs nothing also calls nothing), then counts the solver on
every problem of the set in one emulated Python (gi/emulator.py) and
checks every answer natively with the task's is_solution. So evaluate()
is its own; everything else (the set's loading, the result, the kinds,
the console, the local run, the report) is the SDK's.

    result = PROBLEM.evaluate(items, oracle=oracle, worker=client, settings=settings)

A run is invalid at the first of: the worker's fault (the SDK's kinds),
files that are not a solver (bad_source), the solver's (the emulator's
kinds, then over_item_budget, the earliest problem first), then a wrong
answer (wrong).
"""

import operator
import os

from arh_grader import Problem, QueryError, engine
from arh_grader.result import Failure

from gi import comparison, emulator, rules, task

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(PROJECT))      # the repository, in a checkout
MEASURE_CAP = 10 ** 12          # instructions a measuring run may take
MEASURE_TIMEOUT_S = 7200        # seconds it may take
SET_SIZE = "set_size"           # the key load_set adds: the problems of the item's set


class GraphIsomorphism(Problem):
    """Map a graph onto its relabelled copy with the fewest instructions."""

    SCORE, SCORE_NAME, COUNT = "score", "instruction_ratio", "instructions"
    BOUND_NAME = "floor"                 # no least work is known: 0 (bound)
    LOWER_IS_BETTER = True
    REPEATED = ("instructions", "score")  # what --repeat compares, in order
    WORKER_READS = (os.path.join(ROOT, "harness"),)    # the template it is built on
    ROOT, REPOSITORY = PROJECT, ROOT      # its folder, in the repository it is part of
    COMMANDS = os.path.join(PROJECT, "gi")
    SAMPLE = os.path.join(PROJECT, "sample", "items.jsonl")
    TESTER = os.path.join(PROJECT, "src", rules.ENTRY)
    CONSOLE = ("instruction_ratio", "instructions", "import_instructions", "instances")
    AXES = ("n (the problem's nodes)", "score (instructions / the reference's)")
    REFERENCE = (1.0, "the reference (1.0)")
    ACROSS = (AXES[0], operator.itemgetter("n"))    # the picture's across-axis: no bound varies
    check_instance = staticmethod(rules.check_instance)
    COMPARISON = comparison.Rules        # a comparison of two solvers, on the metric

    def check_query(self, secret, query):
        raise QueryError("this problem's worker makes no oracle calls")

    def answer_query(self, secret, query):
        raise QueryError("this problem's worker makes no oracle calls")

    def secret(self, item):
        return None

    def cap(self, item):
        return 0

    def max_body(self, item):
        return 16

    def bound(self, entry):
        return 0.0

    def entry(self, index, item, session):
        """Never called: evaluate makes the entries (entry_of)."""
        raise NotImplementedError("graph isomorphism's entries come from its emulated run")

    def load_set(self, path):
        """The set's items, each with SET_SIZE, the number of the set's
        problems: a problem's score shares the import among them as its ref
        does, whichever of them a run takes (--limit, --only)."""
        items = super().load_set(path)
        return [dict(item, **{SET_SIZE: len(items)}) for item in items]

    def entry_of(self, index, item, work, imported, problems):
        return {"index": index, "n": item["n"], "seed": item["seed"], "instructions": work,
                "ref": item["instructions"],
                "score": round(rules.score(problems, work, imported, item["instructions"]),
                               self.DIGITS)}

    def summary(self, entries, imported=None):
        """The run's figures; `imported`, the solver's import, is known to
        evaluate alone, which gives it (engine.summarize's call has None)."""
        none = not entries or imported is None
        return {"instruction_ratio": self.mean(entries, "score"),
                "instructions": None if none else self.total(entries, "instructions") + imported,
                "import_instructions": None if none else imported,
                "floor": None if not entries else 0.0}

    def files(self, worker, oracle, settings):
        """The files of src/ the worker hands over, checked: {path: bytes}."""
        worker.wait_healthy(timeout=min(settings.worker_start_timeout_s, settings.run_timeout_s))
        token = oracle.open(self.session(None))
        try:
            answer = worker.solve({"token": token, "deadline": settings.instance_timeout_s},
                                  timeout=settings.instance_timeout_s)
        finally:
            oracle.close(token)
        if isinstance(answer, dict) and set(answer) == {"error"}:
            raise Failure("bad_source", str(answer["error"]))
        try:
            return rules.files_of(answer)
        except ValueError as e:
            raise Failure("bad_source", str(e)) from None

    def evaluate(self, items, *, oracle, worker, settings, transcripts=None, progress=None,
                 indexes=None):
        indexes = list(range(len(items))) if indexes is None else list(indexes)
        entries, imported = [], None
        try:
            files = self.files(worker, oracle, settings)
            problems = [task.generate_problem(item["n"], item["seed"]) for item in items]
            size = items[0].get(SET_SIZE, len(items)) if items else 1   # a list
            cap = rules.run_cap(items, size)        # not from load_set is a set of its own
            run = emulator.run(files, problems, cap=cap,    # the plugin's stop for any one
                               timeout_s=settings.run_timeout_s)   # item, and the run's
            imported = run.import_instructions
            wrong = None
            for k, work in enumerate(run.counts):
                entry = self.entry_of(indexes[k], items[k], work, imported, size)
                entries.append(entry)
                if entry["score"] > rules.ITEM_FACTOR:
                    entry["kind"] = "over_item_budget"
                    raise Failure("over_item_budget", "problem %d took %d instructions, a score "
                                  "of %.2f: over %d times the incumbent's"
                                  % (indexes[k], work, entry["score"], rules.ITEM_FACTOR),
                                  indexes[k])
                if wrong is None and (k >= len(run.answers) or
                                      not task.is_solution(problems[k], run.answers[k])):
                    wrong = k
                if progress:
                    progress(indexes[k], entry)
            if run.kind is None and imported + sum(run.counts) > cap:
                raise Failure("over_budget", "the solver took %d instructions in all, over the "
                              "run's cap of %d" % (imported + sum(run.counts), cap))
            if run.kind is not None:
                at = len(run.counts)
                raise Failure(run.kind, run.message, indexes[at] if at < len(items) else None)
            if wrong is not None:
                entries[wrong]["kind"] = "wrong"
                raise Failure("wrong", "problem %d: %s" % (indexes[wrong], task.why_not(
                    problems[wrong], run.answers[wrong] if wrong < len(run.answers) else None)),
                    indexes[wrong])
        except Failure as failure:
            return engine.summarize(self, entries, failure)
        result = engine.summarize(self, entries)
        result.update(self.summary(entries, imported))
        return result


    def measure(self, files, items):
        """Each of `items` with "instructions" set to the count of the solver
        made of `files` ({path: bytes}), its import shared evenly; ValueError
        when the run fails or an answer is wrong, naming the problem."""
        problems = [task.generate_problem(item["n"], item["seed"]) for item in items]
        run = emulator.run(files, problems, cap=MEASURE_CAP,
                           timeout_s=MEASURE_TIMEOUT_S)
        if run.kind is not None:
            raise ValueError("the solver's run failed (%s): %s" % (run.kind, run.message))
        out = []
        for item, problem, work, answer in zip(items, problems, run.counts, run.answers):
            if not task.is_solution(problem, answer):
                raise ValueError("the solver's answer to n=%d seed=%d is wrong: %s"
                                 % (item["n"], item["seed"], task.why_not(problem, answer)))
            out.append({"n": item["n"], "seed": item["seed"],
                        "instructions": len(items) * work + run.import_instructions})
        return out


PROBLEM = GraphIsomorphism()
