"""Group testing's part of a comparison (grader/compare.py): what it
watches over the comparisons so far, both testers' cheat flags, what each
comparison's instance gives the summary (its cap, its information floor),
and the baseline and cap the state file's check reads (the rest of a
comparison is the SDK's, arh_grader.compare).

    watch = comparison.Watch()
    watch.add(instance, (challenger_tests, incumbent_tests))   # None: past the deadline
    watch.verdict(record)          # (decision, reason): suspect, timeouts, or the record's
    watch.caps, watch.floors       # per comparison: 2n + 64; surprise / baseline
    baseline_and_cap(seed, index)  # of instance `index` drawn with `seed`
"""

from arh_grader.compare import sprt
from arh_grader.compare import state as compare_state
from arh_grader.compare.state import ROLES

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
    each (cheat.running_statistics: valid at any stopping time)."""

    def __init__(self):
        self.entries = {role: [] for role in ROLES}
        self.caps, self.late = [], 0         # each comparison's cap; challenger timeouts
        self.floors = []                     # each comparison's information floor

    def add(self, instance, tests):
        for role, count in zip(ROLES, tests):
            if count is not None:
                self.entries[role].append(cheat_entry(instance, count))
        self.caps.append(problem.cap(instance["n"]))
        self.floors.append(floor(instance))
        self.late = self.late + 1 if tests[0] is None else 0

    def statistics(self, role):
        return cheat.running_statistics(self.entries[role])

    def verdict(self, record):
        """(decision, reason): the record's, unless the challenger is suspect
        or passed its deadline TIMEOUTS_IN_A_ROW times in a row."""
        found = self.statistics("challenger")
        if found["suspect"]:
            return sprt.REJECT, ("suspect: the challenger's cheat_bits reached %.1f, where an "
                                 "honest tester reaches %g with probability at most 2**-%g"
                                 % (found["cheat_bits"], cheat.SUSPECT_BITS,
                                    cheat.SUSPECT_BITS))
        if self.late >= compare_state.TIMEOUTS_IN_A_ROW and record.decision == sprt.CONTINUE:
            return sprt.REJECT, ("timeouts: the challenger passed its deadline on %d "
                                 "comparisons in a row" % self.late)
        return record.decision, record.reason

    def lines(self):
        lines = []
        for role in ROLES:
            found = self.statistics(role)
            lines.append("cheat_bits.%s: %s" % (role, "-" if found["cheat_bits"] is None
                                                 else "%.3f" % found["cheat_bits"]))
            lines.append("suspect.%s: %s" % (role, "true" if found["suspect"] else "false"))
        return lines
