"""Group testing's rules of a comparison (grader/compare.py runs the SDK's
arh_grader/commands/compare.py with them): an instance drawn with the
seed, a tester's tests, the cheat statistics of both testers over the
comparisons so far, each instance's cap and information floor, and the
total gain against a reference (--reference, a third tester, or binary
splitting), the rest of a comparison being the SDK's.

    rules = comparison.Rules(PROBLEM)   # PROBLEM.comparison()
    rules.draw(seed, index)             # instance `index` of the set drawn with `seed`
    watch = comparison.Watch()
    watch.add(instance, (challenger_tests, incumbent_tests))   # None: past the deadline
    watch.caps, watch.floors       # per comparison: 2n + 64; surprise / baseline
    baseline_and_cap(seed, index)  # of instance `index` drawn with `seed`

An entry is [challenger tests, incumbent tests, baseline], then the
reference's tests with --reference, a tester past its deadline written
null: its score is its tests over the baseline, the cap's past the
deadline, lower being better.
"""

from arh_grader.compare import rules as compare_rules
from arh_grader.compare import state as compare_state
from arh_grader.compare import total as compare_total
from arh_grader.compare.state import REFERENCE, ROLES

from . import cheat, instances, problem


def baseline_and_cap(seed, index):
    """(baseline, cap) of instance `index` of the set drawn with `seed`: what
    arh_grader.compare.state.check compares an entry with."""
    instance = instances.draw_instance(seed, index)
    return instance["baseline"], problem.cap(instance["n"])


def cheat_entry(instance, tests):
    """What the cheat statistics need of one instance a tester solved."""
    priors, defectives = instance["priors"], instance["defectives"]
    return {"tests": tests, "n": instance["n"], "defective_count": len(defectives),
            "surprise": problem.surprise(priors, defectives),
            "count_surprise": problem.count_surprise(priors, defectives)}


def floor(instance):
    """The instance's information floor, in score: its surprise over its
    baseline (as local.py's `information_floor`, per instance)."""
    return problem.surprise(instance["priors"], instance["defectives"]) / instance["baseline"]


class Watch:
    """Both testers' cheat flags over the comparisons so far, looked at after
    each (cheat.running_statistics: valid at any stopping time), and each
    comparison's cap and floor."""

    def __init__(self):
        self.entries = {role: [] for role in ROLES}
        self.caps = []                       # each comparison's cap
        self.floors = []                     # each comparison's information floor

    def add(self, instance, tests):
        for role, count in zip(ROLES, tests):
            if count is not None:
                self.entries[role].append(cheat_entry(instance, count))
        self.caps.append(problem.cap(instance["n"]))
        self.floors.append(floor(instance))

    def statistics(self, role):
        return cheat.running_statistics(self.entries[role])

    def lines(self):
        lines = []
        for role in ROLES:
            found = self.statistics(role)
            lines.append("cheat_bits.%s: %s" % (role, "-" if found["cheat_bits"] is None
                                                 else "%.3f" % found["cheat_bits"]))
            lines.append("suspect.%s: %s" % (role, "true" if found["suspect"] else "false"))
        return lines


class Rules(compare_rules.Rules):
    """Group testing's comparison: instances of a seed, tests counted, the
    cheat watch, and --reference with the total gain."""

    PUBLIC_SEEDS = {instances.SAMPLE_SEED: "the public sample's seed",
                    "group-testing-500": "the seed of the 500-instance set (grader/headroom.py)"}
    TIMEOUT_TYPE = float          # checked with the other options: a UsageError names it
    HELP = dict(compare_rules.Rules.HELP, sample_result="a local.py result.json whose "
                "relative_tests and status go in the log row")

    def __init__(self, problem):
        super().__init__(problem)
        self.watch = Watch()

    def add_options(self, parser):
        parser.add_argument("--reference", metavar="TESTER",
                            help="the tester the total gain is against, run on the same "
                                 "instances (the platform's incumbent; default: binary "
                                 "splitting, no run)")

    def parsed(self, parser, args):
        """Nothing: the tester files are checked with the other options."""

    def roles(self, args):
        return ROLES + ((REFERENCE,) if args.reference else ())

    def draw(self, seed, index):
        return instances.draw_instance(seed, index)

    def drawn(self, item):
        return item["baseline"]

    def play(self, session):
        return session.tests

    def outcome(self, entry):
        return compare_state.outcome(entry[0], entry[1])

    def difference(self, index, entry):
        return compare_state.difference(entry, self.watch.caps[index])

    def added(self, index, item, entry):
        self.watch.add(item, entry[:2])

    def suspect(self, comparisons):
        found = self.watch.statistics("challenger")
        if not found["suspect"]:
            return None
        return ("suspect: the challenger's cheat_bits reached %.1f, where an honest tester "
                "reaches %g with probability at most 2**-%g"
                % (found["cheat_bits"], cheat.SUSPECT_BITS, cheat.SUSPECT_BITS))

    def check(self, path, data, *, settings, seed, testers):
        return compare_state.check(path, data, settings=settings, seed=seed, testers=testers,
                                   instance=baseline_and_cap)

    def failure_text(self, seed, index, item, role, failure):
        return ("%s: comparison %d (instance index %d of seed %r, n=%d, family %s): the %s "
                "failed: %s" % (failure.kind, index + 1, index, seed, item["n"],
                                item["family"], role, failure.message))

    def replayed(self, seed, index, item, role, play, failure):
        return "makes %s tests" % (failure.kind if failure else
                                   "timeout" if play is None else play)

    def lines(self, comparisons, args):
        return (compare_total.lines(comparisons, caps=self.watch.caps, floors=self.watch.floors,
                                    mmi=self.mmi(), reference=args.reference)
                + self.watch.lines())

    def cells(self, comparisons, args):
        return {"total_gain": compare_total.cell(compare_total.total_gain(
                    comparisons, self.watch.caps)),
                "reference": args.reference or compare_total.SPLITTING}
