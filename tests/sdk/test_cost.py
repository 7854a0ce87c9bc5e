"""arh_grader/compare/cost.py, the `cost_to_decide` lines after a
near-zero reject, on differences drawn here (no problem): the lines appear
exactly when the rule says, their figures are those of the very test
(betting.simulate) within the tolerance the module's docstring states,
they are the same for the same differences, the option they print
accepts more often than the settings that rejected, and two adversaries:
heavy tails (rare large losses, where a normal approximation errs by a
third) and values past the clip (a tester past its deadline, where an
estimate on the raw values sees no gain at all)."""

import math
import random
import statistics
import time
import unittest

import support  # noqa: F401  (puts grader/ on the path)
from arh_grader.compare import betting, cost

SIZE = 2000            # differences a pool holds
RUNS = 120             # simulated runs a check


def pool(kind):
    """Differences of mean about 0 (shifted later): `near`, 40% zeros and a
    normal spread of 0.06 (a pair near the floor); `tail`, 1% losses of 0.9
    (heavy tails); `cap`, 0.4% of 3.0 (past the clip) and its clipped mean
    -0.006 while its raw mean is above 0."""
    rng = random.Random("cost/" + kind)
    if kind == "near":
        return [0.0 if rng.random() < 0.4 else rng.gauss(0, 0.06) for _ in range(SIZE)]
    if kind == "tail":
        return [0.9 if rng.random() < 0.01 else rng.gauss(-0.012, 0.01) for _ in range(SIZE)]
    values = [3.0 if rng.random() < 0.004 else rng.gauss(0, 0.02) for _ in range(SIZE)]
    rest = [k for k, d in enumerate(values) if d != 3.0]
    step = (-0.006 * SIZE - math.fsum(betting.clip(d) for d in values)) / len(rest)
    for k in rest:
        values[k] += step
    return values


def rejected(values, settings=None, *, seed):
    """A record of the default test on values drawn from `values`, and the
    differences it saw."""
    rng = random.Random(seed)
    stream = [rng.choice(values) for _ in range(50000)]
    record = betting.run(settings or betting.Settings(), stream)
    return record, stream[:record.comparisons]


def near_zero_reject(values):
    """The first seed's (record, differences) whose run rejects with a mean
    in [-2 delta, 0): the rule's case."""
    for seed in range(100):
        record, seen = rejected(values, seed="near-zero/%d" % seed)
        if record.decision == betting.REJECT and -0.01 <= cost.mean_of(seen) < 0:
            return record, seen
    raise AssertionError("no near-zero reject in 100 seeds")


class RuleTest(unittest.TestCase):
    def test_the_lines_appear_exactly_on_a_near_zero_reject(self):
        near = betting.shifted(pool("near"), -0.002)
        record, seen = near_zero_reject(near)
        found = cost.lines(record, seen)
        self.assertEqual([line.split(": ", 1)[0] for line in found],
                         ["cost_to_decide", "cost_to_decide.delta_%g" % cost.candidates(
                             cost.mean_of(seen), 0.005)[0],
                          "cost_to_decide.delta_%g" % cost.candidates(
                              cost.mean_of(seen), 0.005)[1], "cost_to_decide.option"])
        cases = {   # name: (record, differences, verdict) and whether lines appear
            "accept": (*rejected(betting.shifted(pool("near"), -0.02), seed="a"), None, False),
            "far reject": (*rejected(betting.shifted(pool("near"), 0.012), seed="b"), None,
                           False),
            "near reject, no gain": (*rejected([0.0] * 10 + [0.001], seed="c"), None, True),
            "suspect": (record, seen, (betting.REJECT, "suspect: ..."), False),
            "timeouts": (record, seen, (betting.REJECT, "timeouts: ..."), False),
            "empty": (betting.MeanRecord(), [], None, False)}
        for name, (record, seen, verdict, shown) in cases.items():
            with self.subTest(case=name):
                self.assertEqual(bool(cost.lines(record, seen, verdict=verdict)), shown)
                self.assertEqual(cost.applies(record, verdict, seen), shown)
        record, seen = cases["near reject, no gain"][:2]
        self.assertEqual(record.reason, betting.REJECTED)
        self.assertEqual(cost.lines(record, seen)[0].split(": ", 1),
                         ["cost_to_decide", "none: the mean difference +0.0001 (within 2 x "
                          "delta = 0.01 of 0) is no gain; were it the true mean, the test "
                          "accepts with probability at most alpha = 0.05 at any --delta, and "
                          "a smaller one only takes longer to reject"])

    def test_the_candidates_are_1_2_5_values_at_most_the_mean_and_delta(self):
        for mean, delta, expected in ((-0.0023, 0.005, (0.002, 0.001)),
                                      (-0.0012, 0.005, (0.001, 0.0005)),
                                      (-0.0049, 0.005, (0.002, 0.001)),
                                      (-0.008, 0.005, (0.005, 0.002)),
                                      (-0.001, 0.005, (0.001, 0.0005))):
            with self.subTest(mean=mean):
                self.assertEqual(cost.candidates(mean, delta), expected)

    def test_the_same_differences_give_the_same_lines_quickly(self):
        record, seen = near_zero_reject(betting.shifted(pool("near"), -0.002))
        start = time.process_time()
        first = cost.lines(record, seen)
        spent = time.process_time() - start
        self.assertEqual(cost.lines(record, list(seen)), first)
        self.assertLess(spent, 0.5)
        big = [random.Random(k).choice(seen) for k in range(5000)]
        start = time.process_time()
        cost.accepting(big, max_comparisons=5000)
        cost.rejecting_nothing(big, delta=0.001, max_comparisons=5000)
        cost.rejecting_nothing(big, delta=0.0005, max_comparisons=5000)
        self.assertLess(time.process_time() - start, 0.5)


class FiguresTest(unittest.TestCase):
    def check_accepting(self, values, delta, maximum, *, seed, runs=RUNS):
        """The accept side's figures against `runs` runs of the test at `delta`."""
        found = cost.accepting(values, max_comparisons=maximum)
        run = betting.simulate(betting.Settings(delta=delta, max_comparisons=maximum), values,
                               runs=runs, seed=seed)
        support.show("\n%s: P(accept) %.3f vs %.3f, comparisons %.0f vs %.0f"
                     % (seed, found["accept"], run["accept"], found["comparisons"],
                        run["mean"]))
        self.assertLess(abs(found["accept"] - run["accept"]), 0.08, (found, run))
        self.assertLess(abs(found["comparisons"] / run["mean"] - 1), 0.25, (found, run))
        return found, run

    def test_the_accept_side_is_the_tests_own(self):
        for kind, target, delta, maximum in (("near", -0.004, 0.002, 5000),
                                             ("near", -0.0025, 0.002, 5000)):
            with self.subTest(kind=kind, target=target):
                self.check_accepting(betting.shifted(pool(kind), target), delta, maximum,
                                     seed="accept/%s/%r" % (kind, target))

    def test_a_challenger_that_gains_nothing_is_rejected_when_they_say(self):
        values = betting.shifted(pool("near"), 0.0)
        for delta in (0.005, 0.0025):
            with self.subTest(delta=delta):
                mean = cost.rejecting_nothing(values, delta=delta, max_comparisons=20000)
                run = betting.simulate(betting.Settings(delta=delta, max_comparisons=20000),
                                       values, runs=RUNS // 2, seed="nothing/%r" % delta)
                self.assertLess(abs(mean / run["mean"] - 1), 0.25, (mean, run))

    def test_heavy_tails_the_exact_logs_and_not_a_normal_approximation(self):
        """1% losses of 0.9: a normal approximation of each bet's log-wealth
        (drift lam |m| - lam^2 var / 2) is a third slower than the test;
        the module's exact logs are within its tolerance."""
        values = betting.shifted(pool("tail"), -0.004)
        found, run = self.check_accepting(values, 0.004, 10000, seed="tail/-0.004")
        m, var = statistics.fmean(values), statistics.pvariance(values)
        normal = min(math.log(len(betting.LAMBDAS) / 0.05) / (lam * -m - lam * lam * var / 2)
                     for lam in betting.LAMBDAS if lam * -m > lam * lam * var / 2)
        self.assertGreater(normal / run["mean"], 1.3, (normal, run))

    def test_values_past_the_clip_count_as_the_test_counts_them(self):
        """Raw differences of mean above 0 (a cap of 3.0 on 0.4%) whose
        clipped mean, the test's and the summary's, is -0.006: the lines
        promise what the test does, where the raw values would say that
        there is no gain to keep."""
        values = pool("cap")
        self.assertGreater(statistics.fmean(values), 0.005)
        self.assertAlmostEqual(cost.mean_of(values), -0.006, places=9)
        record = betting.MeanRecord()
        record.decision, record.reason, record.comparisons = "reject", "max_comparisons", SIZE
        found = cost.lines(record, values)
        self.assertTrue(found[0].startswith("cost_to_decide: the mean difference -0.0060 is a "
                                            "near-zero reject"), found)
        option = found[-1].split(": ", 1)[1].split(" (")[0]
        # |m| > delta: the run was cut short, and the lines say by how much
        self.assertEqual(option, "--delta 0.005 --max-comparisons 8000")
        said = float(found[1].split("P(accept) ")[1].split()[0])
        accepting, run = self.check_accepting(values, 0.005, 8000, seed="cap")
        self.assertGreater(run["accept"], 0.9)
        self.assertLess(abs(said - run["accept"]), 0.08)


class OptionTest(unittest.TestCase):
    def test_the_printed_option_accepts_more_often_than_the_settings_that_rejected(self):
        """On a near-zero reject's own differences (the observed mean, -0.002
        or so), the test at the printed --delta and --max-comparisons, run
        for real on them, accepts more often than at the defaults, about as
        often as the lines say."""
        record, seen = near_zero_reject(betting.shifted(pool("near"), -0.002))
        found = cost.lines(record, seen)
        option = found[-1].split(": ", 1)[1].split(" (")[0].split()
        settings = dict(zip(option[::2], option[1::2]))
        chosen = betting.Settings(delta=float(settings["--delta"]),
                                  max_comparisons=int(settings.get("--max-comparisons", 5000)))
        better = betting.simulate(chosen, seen, runs=RUNS // 2, seed="option/chosen")
        before = betting.simulate(betting.Settings(), seen, runs=RUNS // 2,
                                  seed="option/default")
        said = float(found[1].split("P(accept) ")[1].split()[0])
        support.show("\noption %s: P(accept) %.3f (lines %.2f), defaults %.3f"
                     % (" ".join(option), better["accept"], said, before["accept"]))
        self.assertGreater(better["accept"], before["accept"] + 0.2)
        self.assertLess(abs(better["accept"] - said), 0.08)


if __name__ == "__main__":
    unittest.main()
