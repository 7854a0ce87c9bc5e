"""The cheat flag's power: the best plan the planner (tests/planner.py)
finds for a tester that reads every answer, against the flag it replaced and
against cheat.py's.

On the 500-instance set of seed group-testing-500 (drawn here) and on the
sample (read at test time: its figures may move), each test prints, with
GT_SHOW=1, one line on stderr, `power: <set> <flag> best <score> floor <floor> strategy <name>`,
which docs/cheating.md quotes. The old flag let a reader sit far below the
information floor; against the new one the best plan found stays within
0.03 of it on 500 instances. On the sample's 40 instances no flag at 2^-20
can do that: SUSPECT_BITS saved on its smallest baselines are let through by
any valid flag (an honest tester aimed at them saves them with chance
2^-20), and they are worth SUSPECT_BITS / (b_min N) of score (`allowance`).
"""

import math
import sys
import unittest

import support
import planner
from group_testing import cheat, instances, pairs

OLD_GAP = 0.08          # score below the floor the old flag let through, at least
NEW_GAP = 0.03          # score below the floor the new flag lets through, at most (500 set)
SAMPLE_SLACK = 1.5      # the sample's bound: floor - NEW_GAP - SAMPLE_SLACK * allowance
LUCKY_BITS = 18         # bits a lucky plan saves at most: any valid flag misses it 3 times in 4
HONEST = "tests/testers/informed.py"    # the lucky plan's honest counts (the best on the sample)


def allowance(sets):
    """SUSPECT_BITS saved on the smallest baseline, in score."""
    return cheat.SUSPECT_BITS / min(sets.baseline) / sets.count


class PowerTest(unittest.TestCase):
    def report(self, name, flag, plan, sets):
        support.show("\npower: %s %s best %.4f floor %.4f strategy %s; cheat_bits %.2f, old %.2f"
                     % (name, flag, plan.score, sets.floor, plan.strategy,
                        plan.statistics["cheat_bits"], plan.old_bits))

    def check(self, name, sets):
        old = planner.best_plan(sets, planner.OldFlag)
        self.report(name, "old", old, sets)
        new = planner.best_plan(sets, planner.NewFlag)
        self.report(name, "new", new, sets)
        support.assert_quoted(self, "| %s | %.4f | %.4f | %.4f |"
                              % (name, sets.floor, old.score, new.score), support.CHEATING)
        with self.subTest(flag="old"):
            self.assertLess(old.old_bits, cheat.SUSPECT_BITS)      # unflagged by the old
            self.assertLess(old.score, sets.floor - OLD_GAP)
            self.assertIs(old.statistics["suspect"], True)         # flagged by the new
        with self.subTest(flag="new"):
            self.assertIs(new.statistics["suspect"], False)
            self.assertLess(new.statistics["cheat_bits"], cheat.SUSPECT_BITS)
        return new

    def test_500_set(self):
        sets = planner.Instances(instances.draw(500, "group-testing-500"))
        new = self.check("group-testing-500", sets)
        self.assertGreaterEqual(new.score, sets.floor - NEW_GAP)
        support.assert_quoted(self, "the reader gains at most %.4f below the floor"
                              % (sets.floor - new.score), support.CHEATING)

    def test_sample(self):
        sets = planner.Instances(support.PROBLEM.load_set(support.SAMPLE))
        new = self.check("sample", sets)
        support.show("\npower: sample allowance %.4f" % allowance(sets))
        support.assert_quoted(self, "`20 / (b_min N)` = %.4f of the score" % allowance(sets),
                              support.CHEATING)
        self.assertGreaterEqual(new.score,
                                sets.floor - NEW_GAP - SAMPLE_SLACK * allowance(sets))

    def test_no_flag_can_hold_the_sample_to_the_floor(self):
        """An honest tester's counts with no test on the few instances
        planner.lucky picks: on the sample it sits more than NEW_GAP below
        the floor, and any flag at 2^-20 misses it at least 3 times in 4.
        On 500 instances the same plan gains little."""
        found = {}
        for name, items in (("sample", support.PROBLEM.load_set(support.SAMPLE)),
                            ("group-testing-500", instances.draw(500, "group-testing-500"))):
            sets = planner.Instances(items)
            find = pairs.load(HONEST)
            honest = [pairs.tests_of(find, it) for it in items]
            tests, chosen = planner.lucky(sets, honest, budget=LUCKY_BITS)
            bits = math.fsum(sets.surprise[i] for i in chosen)
            found[name] = (sets.score(honest), sets.score(tests), sets.floor, len(chosen), bits)
            support.show("\npower: %s lucky plan %.4f (honest %.4f, floor %.4f): no test on %d "
                         "instances, %.2f bits" % (name, sets.score(tests), sets.score(honest),
                                                  sets.floor, len(chosen), bits))
            self.assertLessEqual(bits, LUCKY_BITS)
        honest, plan, floor, count, bits = found["sample"]
        self.assertLess(plan, floor - NEW_GAP)
        support.assert_quoted(self, "scores %.4f, %.4f below the sample's floor of %.4f, by "
                              "answering %d instances (%.2f bits of surprise) with no test"
                              % (plan, floor - plan, floor, count, bits), support.CHEATING)
        honest, plan, floor, count, bits = found["group-testing-500"]
        self.assertLess(honest - plan, 0.01)
        support.assert_quoted(self, "on group-testing-500 the same plan gains %.4f" % (honest - plan),
                              support.CHEATING)

    def test_flags_computed_afresh_agree_with_the_running_sums(self):
        sets = planner.Instances(support.PROBLEM.load_set(support.SAMPLE))
        tests = planner.greedy(sets, planner.NewFlag)
        self.assertAlmostEqual(planner.NewFlag(sets, tests).value(),
                               sets.statistics(tests)["cheat_bits"], places=4)
        old = sets.statistics(tests)
        bits = max(old["saved_bits"], old["weighted_saved_bits"],
                   old["max_saved_bits"] - math.log2(sets.count)) - math.log2(3)
        self.assertAlmostEqual(planner.OldFlag(sets, tests).value(), bits, places=4)


if __name__ == "__main__":
    unittest.main()
