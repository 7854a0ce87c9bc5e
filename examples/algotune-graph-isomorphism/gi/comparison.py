"""Graph isomorphism's rules of a comparison (gi/compare.py runs the SDK's
arh_grader/commands/compare.py with them): a problem drawn with the seed,
each solver's count on it, and its score against the reference, on the
metric.

Comparison k draws problem k - 1 of the seed (sets.draw, as a set is
drawn) and counts three solvers on it, each in an emulated run of its own
(gi/emulator.py, the same count as a run's): the challenger, the
incumbent and the reference (gi/reference/, the solver the refs are
measured with). A solver's play is [P, I], its work on the problem and
its import; its score is what a set's line would give it, (N * P + I) /
(N * P_ref + I_ref), with N = SET_SIZE, the platform's held-out set. The
SDK's tests then decide on the mean score difference (or on wins), the
metric's own: instruction_ratio is the mean of these scores over a set.

An entry is [challenger, incumbent, seed, reference], each [P, I], or
null for a solver past its deadline, whose score is ITEM_FACTOR, the most
a problem of a valid run scores (a comparison whose reference passed its
deadline is a draw).
"""

import os

from arh_grader import contender as sdk_contender
from arh_grader.compare import rules
from arh_grader.compare import state as compare_state
from arh_grader.result import Failure

from gi import emulator, sets, task
from gi.rules import ITEM_FACTOR

REFERENCE = "reference"                   # the third role
REFERENCE_SOLVER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "reference", "solver.py")
SET_SIZE = 128                            # the platform's held-out set: N of the score
PLAY_CAP = 10 ** 11                       # instructions of one play at most (the plugin's stop)


class SolverContender(sdk_contender.Contender):
    """A solver of a comparison: its worker hands over the files of its
    folder once (the worker's rules, bad_source otherwise) and is stopped;
    each run then counts those files on one problem under the emulator, in
    a run of its own. The solver file must keep its SHA-256 throughout.
    The count of the same files on the same problem is the same on every
    run, so `counted` ({(files, n, seed): (P, I)}, shared by the
    roles of one comparison run) spares a second run of identical files
    (an incumbent that is the reference)."""

    files = None

    def __init__(self, tester, *, counted, **options):
        super().__init__(tester, **options)
        self.counted = counted

    def run(self, index, item, *, timeout):
        """([P, I], None), or (None, Failure): `timeout` past the deadline,
        else the run's kind (`wrong` for a wrong mapping)."""
        self.check_file()
        if self.files is None:
            try:
                self.start()
                self.files = self.problem.files(self.worker, self.oracle,
                                                self.problem.settings())
            except Failure as failure:
                failure.index = index
                return None, failure
            finally:
                self.stop()
        key = (tuple(sorted(self.files.items())), item["n"], item["seed"])
        if key in self.counted:
            return list(self.counted[key]), None
        problem = task.generate_problem(item["n"], item["seed"])
        run = emulator.run(self.files, [problem], cap=PLAY_CAP, timeout_s=timeout)
        if run.kind == "solver_timeout":
            return None, Failure("timeout", run.message, index)
        if run.kind is not None:
            return None, Failure(run.kind, run.message, index)
        if not task.is_solution(problem, run.answers[0]):
            return None, Failure("wrong", task.why_not(problem, run.answers[0]), index)
        self.counted[key] = (run.counts[0], run.import_instructions)
        return [run.counts[0], run.import_instructions], None


class Rules(rules.Rules):
    """Problems drawn with the seed, three solvers counted on each, the
    score against the reference; each comparison named by its seed."""

    PUBLIC_SEEDS = {sets.SAMPLE_SEED: "the public sample's seed (sample/items.jsonl)"}
    HELP = {"seed": "the problems' seed (any string; default: a random one)",
            "instance_timeout": "each solver's deadline on one problem's emulated run, in "
                                "seconds (default: autoresearch.toml's instance_timeout_s)"}
    DRAWN = "seed"

    def __init__(self, problem):
        super().__init__(problem)
        self.counted = {}                 # the counts of this run, by files and problem

    def add_options(self, parser):
        parser.add_argument("--reference", metavar="SOLVER", default=REFERENCE_SOLVER,
                            help="the solver each score is against (default: the one the "
                                 "refs are measured with, gi/reference/solver.py)")

    def roles(self, args):
        return compare_state.ROLES + (REFERENCE,)

    def contender(self, tester, *, role, oracle, start_timeout, private=()):
        return SolverContender(tester, role=role, problem=self.problem, oracle=oracle,
                               start_timeout=start_timeout, private=private,
                               counted=self.counted)

    def draw(self, seed, index):
        """Problem `index` of the set sets.draw draws with `seed`."""
        return sets.draw(index + 1, seed)[index]

    def play(self, session):
        return session

    def score_in(self, entry, k):
        """The score of play k of `entry` against its reference play."""
        play, ref = entry[k], entry[3]
        if play is None or ref is None:
            return float(ITEM_FACTOR)
        return (SET_SIZE * play[0] + play[1]) / (SET_SIZE * ref[0] + ref[1])

    def difference(self, index, entry):
        return self.score_in(entry, 0) - self.score_in(entry, 1)

    def outcome(self, entry):
        return compare_state.outcome(*(None if entry[k] is None else self.score_in(entry, k)
                                       for k in (0, 1)))

    def suspect(self, comparisons):
        return None                       # the walls, not a statistic, keep the answers out

    def bad_entry(self, seed, index, entry):
        def is_play(x):
            return (type(x) is list and len(x) == 2
                    and all(type(c) is int and c >= 0 for c in x))
        if (type(entry) is not list or len(entry) != 4
                or not all(x is None or is_play(x) for x in entry[:2] + entry[3:])):
            return "it must be [challenger, incumbent, seed, reference], each [P, I] or null"
        if entry[2] != self.draw(seed, index)["seed"]:
            return "it is not problem %d of the seed %r" % (index, seed)
        return None

    def shown(self, play):
        return "[P %d, I %d]" % tuple(play)

    def replayed(self, seed, index, item, role, play, failure):
        return "counts %s" % (failure.kind if failure else
                              "timeout" if play is None else self.shown(play))

    def lines(self, comparisons, args):
        mean = {role: sum(self.score_in(e, k) for e in comparisons) / len(comparisons)
                for role, k in (("challenger", 0), ("incumbent", 1))} if comparisons else {}
        return ["set_size: %d" % SET_SIZE] + [
            "instruction_ratio.%s: %.6f" % (role, value) for role, value in mean.items()]
