"""arh_grader/compare/betting.py on group testing's testers: the mean
test's decisions and error rates, and the confidence sequence's coverage,
simulated in process on the differences of real tester pairs
(group_testing/pairs.py), and the manual's table of them; and
grader/compare.py's new rules run for real: the mean test on the pairs
built to fool a sign test (the 5% fix's first comparisons the rule in
process, to the bit), three timeouts in a row, the public seeds. The
mean test on numbers made by hand, which needs no problem:
tests/sdk/test_betting_rules.py."""

import os
import random
import statistics
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: support
import support  # noqa: E402
from arh_grader.compare import betting  # noqa: E402
from arh_grader.compare import state as compare_state  # noqa: E402
from group_testing import fit, instances, pairs  # noqa: E402

SEED = "compare-test"
COUNT = 600            # instances the pools are computed on
PLAYED = 40            # comparisons the 5% fix plays for real
STREAM = 1000          # instances of its seed the rule runs on in process


def pool_of(challenger, incumbent=pairs.SPLITTING):
    items = instances.draw(COUNT, pairs.SEED)
    return pairs.differences(pairs.load(challenger), pairs.load(incumbent), items)


class DecisionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fix = pool_of(pairs.ALONE)
        cls.ninety = pool_of(pairs.NINETY)
        cls.near = pool_of("tests/testers/posterior.py", "tests/testers/informed.py")

    def test_the_pairs_are_what_they_are_built_to_be(self):
        nonzero = sum(d != 0 for d in self.fix) / len(self.fix)
        self.assertTrue(0.02 < nonzero < 0.08 and sum(self.fix) < 0, nonzero)
        wins = sum(d < 0 for d in self.ninety) / len(self.ninety)
        self.assertTrue(wins > 0.85 and sum(self.ninety) > 0, wins)

    def test_the_5_percent_fix_is_accepted_and_the_90_percent_winner_never(self):
        for name, pool, most, least in (("5% fix", self.fix, 10, 9),
                                        ("90% winner", self.ninety, 0, 0)):
            with self.subTest(pair=name):
                accepted = 0
                for seed in range(10):
                    rng = random.Random("%s/%d" % (name, seed))
                    record = betting.run(betting.Settings(),
                                         (rng.choice(pool) for _ in range(5000)))
                    accepted += record.decision == "accept"
                self.assertTrue(least <= accepted <= most, accepted)

    def test_error_rates_and_coverage_on_null_pairs(self):
        settings = betting.Settings()
        runs = 150
        slack = 3 * (0.05 * 0.95 / runs) ** 0.5
        for target, wrong in ((0.0, "accept"), (-settings.delta, "reject")):
            with self.subTest(target=target):
                found = betting.simulate(settings, betting.shifted(self.near, target),
                                         runs=runs, seed="null/%r" % target)
                self.assertAlmostEqual(found["m"], target, places=12)
                rate = found["accept"] if wrong == "accept" else 1 - found["accept"]
                self.assertLessEqual(rate, 0.05 + slack, found)
                self.assertGreaterEqual(found["coverage"], 0.95 - slack, found)

    def test_coverage_at_the_stop_conditional_on_accept(self):
        for name, pool in (("5% fix", self.fix), ("near", self.near)):
            with self.subTest(pair=name):
                found = betting.simulate(betting.Settings(), betting.shifted(pool, -0.0025),
                                         runs=100, seed="coverage/" + name)
                self.assertGreater(found["accept"], 0.1, found)
                self.assertGreaterEqual(found["coverage_accepted"], 0.9, found)

    def test_the_manual_table_has_what_the_command_prints(self):
        """The header and the rows at E[d] = -0.05 (the cheapest) of
        `python3 grader/betting_table.py --runs 1000`, run here in process, and
        the pairs' standard deviations the manual quotes beside it."""
        pools = pairs.pools()
        lines = list(betting.characteristics_table(betting.Settings(), pools,
                                                   targets=(-0.05,), runs=1000))
        self.assertEqual(len(lines), 2 + len(pairs.PAIRS))
        for line in lines:
            support.assert_quoted(self, line + "\n", support.COMPARISON)
        spread = {name: statistics.stdev(pool) for name, pool in pools.items()}
        with open(os.path.join(support.ROOT, support.COMPARISON), encoding="utf-8") as f:
            text = " ".join(f.read().split())
        for words in ("a pair near the floor (differences of standard deviation %.2f) always "
                      "decides" % spread["posterior vs informed"],
                      "for pairs with differences of standard deviation %.1f to %.1f" % (
                          spread["informed vs calibration"], spread["calibration vs splitting"])):
            self.assertIn(words, text)


class CommandTest(unittest.TestCase):
    def compare(self, challenger, incumbent, *args):
        state = os.path.join(support.tmpdir(self), "state.json")
        status, stdout, stderr = support.run_command(
            self, "grader/compare.py", "--challenger", challenger, "--incumbent", incumbent,
            "--state", state, *args, timeout=600)
        return status, support.lines_of(stdout), stderr, state

    def test_the_command_plays_the_rule_the_simulations_run_on(self):
        """The first PLAYED comparisons of each pair built to fool a sign
        test against binary splitting, run for real, are the rule run in
        process on the same instances: the same counts and the same e-values,
        to the bit. On the seed's stream the rule then accepts the 5% fix and
        rejects the 90% winner, as the simulations above find on every
        stream (nine in ten or more for the fix)."""
        for name, source, delta, decision in (("5% fix", pairs.ALONE, betting.DELTA, "accept"),
                                              ("90% winner", pairs.NINETY, 0.02, "reject")):
            with self.subTest(pair=name):
                tester = support.write(self, "challenger.py", source)
                status, out, err, state = self.compare(
                    tester, support.SPLITTING, "--seed", SEED, "--delta", repr(delta),
                    "--max-comparisons", str(PLAYED))
                self.assertEqual(status, 0, err)
                self.assertEqual((out["decision"], out["reason"], out["comparisons"]),
                                 ("reject", "max_comparisons", str(PLAYED)))
                saved = compare_state.load_json(state)
                items = [instances.draw_instance(SEED, k) for k in range(STREAM)]
                challenger, incumbent = pairs.load(source), pairs.load(pairs.SPLITTING)
                self.assertEqual(saved["comparisons"], [
                    [fit.count_tests(challenger, item), fit.count_tests(incumbent, item),
                     item["baseline"]] for item in items[:PLAYED]])
                differences = pairs.differences(challenger, incumbent, items)
                record = betting.run(betting.Settings(delta=delta, max_comparisons=PLAYED),
                                     differences[:PLAYED])
                self.assertEqual(saved["record"], {
                    "comparisons": PLAYED, "decision": record.decision,
                    "reason": record.reason, "e_accept": record.e_accept,
                    "e_reject": record.e_reject})
                whole = betting.run(betting.Settings(delta=delta), differences)
                self.assertEqual(whole.decision, decision)
                support.show("\n%s: %s after %d comparisons in process"
                             % (name, decision, whole.comparisons))

    def test_three_timeouts_in_a_row_reject(self):
        spin = [instances.draw_instance(SEED, k)["n"] for k in range(3)]
        looping = support.write(self, "looping.py", "def find(n, priors, test):\n"
                                "    while n in %r:\n        pass\n    return []\n" % (spin,))
        status, out, err, _ = self.compare(looping, support.SPLITTING, "--seed", SEED,
                                           "--instance-timeout", "3")
        self.assertEqual(status, 0, err)
        self.assertEqual((out["decision"], out["reason"], out["comparisons"]),
                         ("reject", "timeouts: the challenger passed its deadline on 3 "
                          "comparisons in a row", "3"))
        self.assertEqual(out["timeouts"], "challenger 3, incumbent 0")

    def test_the_public_seeds_are_refused_by_name(self):
        for seed in ("group-testing-sample", "group-testing-500"):
            with self.subTest(seed=seed):
                status, out, err, _ = self.compare(support.SPLITTING, support.SPLITTING,
                                                   "--seed", seed)
                self.assertEqual((status, out), (2, {}))
                self.assertIn("--seed %r is the" % seed, err)


if __name__ == "__main__":
    unittest.main()
