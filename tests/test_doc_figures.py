"""The figures PROGRAM.md and README.md quote that no other test runs a
command for: settings (autoresearch.toml, compose.yaml), the code's
constants, the sequential tests' defaults and design, the baseline's worked
examples, the comparisons of the calibration tester with binary splitting
and a few rows of the sign test's simulated table, each computed here from
the code that makes it, in process and on little work (a few seconds all
told).

The figures a command prints are checked where a test runs that command:
tests/test_docs.py (the data table), test_fit.py (the fit and the headroom),
test_cheat_flag.py and test_cheat_power.py (the flag), test_sprt.py (the
exact table), test_betting.py (the mean test's table), test_bench.py (the
round trip), test_doc_commands.py (the README's run)."""

import itertools
import json
import math
import os
import re
import statistics
import tomllib
import unittest

import support
import betting_table
from arh_grader import client, report, result
from arh_grader.compare import betting, binomial, sprt, sprt_exact
from arh_grader.compare import state as compare_state
from group_testing import calibration, cheat, fit, headroom, instances, pairs, problem, seeds


def read(name):
    with open(os.path.join(support.ROOT, name), encoding="utf-8") as f:
        return f.read()


def flat(text):
    return " ".join(text.split())


def said(case, text, doc="PROGRAM.md"):
    """Fail unless `doc` holds `text`, line breaks and spaces aside."""
    case.assertTrue(flat(text) in flat(read(doc)), "%s does not say %r" % (doc, text))


def table_rows(doc, header):
    """The body rows of the Markdown table of `doc` whose header line starts
    with `header`, as lists of stripped cells."""
    text = read(doc)
    start = text.index(header)
    lines = text[start:].split("\n\n")[0].splitlines()[2:]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]


class SettingsTest(unittest.TestCase):
    """autoresearch.toml's deadlines and MMI, compose.yaml's walls."""

    def test_the_deadlines_and_the_mmi(self):
        with open(os.path.join(support.ROOT, "autoresearch.toml"), "rb") as f:
            settings = tomllib.load(f)
        grader = settings["grader"]
        said(self, "| time for one instance, all its tests included | %d s | `timeout` |"
             % grader["instance_timeout_s"])
        said(self, "| time for the whole run | %d s | `timeout` |" % grader["run_timeout_s"])
        said(self, "| time for the worker to start (your module's import included) | %d s "
             "| `no_answer` |" % grader["worker_start_timeout_s"])
        mmi = "%g" % settings["metric"]["mmi"]
        self.assertEqual(settings["metric"]["mmi_kind"], "absolute")
        for text in ("so the MMI is %s absolute" % mmi, "The MMI (%s)" % mmi,
                     "falls by less than the MMI (%s, `autoresearch.toml`)" % mmi,
                     "lower `relative_tests` by %s to count" % mmi):
            with self.subTest(text=text):
                said(self, text)

    def test_the_walls_of_compose_yaml(self):
        compose = read("compose.yaml")

        def number(pattern):
            return int(re.search(pattern, compose).group(1))

        memory = number(r"\n\s+mem_limit: (\d+)m")
        self.assertEqual(number(r"\n\s+memswap_limit: (\d+)m"), memory)     # no swap
        pids = number(r"\n\s+pids_limit: (\d+)")
        files = number(r"nofile: \{soft: (\d+), hard: \d+\}")
        tmp = number(r'tmpfs: \["/tmp:size=(\d+)m"\]')
        log = number(r"max-size: (\d+)m")
        self.assertEqual(number(r'max-file: "(\d+)"'), 1)
        oom = number(r"\n\s+oom_score_adj: (\d+)")
        rows = ("| memory (`mem_limit`, `memswap_limit`: no swap beyond it) | %d MiB |" % memory,
                "| processes and threads (`pids_limit`) | %d |" % pids,
                "| open files and sockets (`ulimits` `nofile`) | %d |" % files,
                "| `/tmp` (`tmpfs`, in the worker's memory) | %d MiB |" % tmp,
                "| stdout and stderr (json-file log) | %d MiB, one file |" % log)
        for row in rows:
            with self.subTest(row=row):
                said(self, row)
        said(self, "`EAGAIN` (just short of %d children" % pids)
        said(self, "`EMFILE` (just short of %d files" % files)
        said(self, "%d MiB of memory and no swap, %d processes, %d open files, a read-only "
             "root with a %d MiB `/tmp` in its memory, logs of %d MiB" % (
                 memory, pids, files, tmp, log), "README.md")
        said(self, "`oom_score_adj` %d (the host's first process to kill)" % oom, "README.md")
        self.assertIn('dns: ["127.0.0.1"]', compose)
        said(self, '(`dns: ["127.0.0.1"]`)', "README.md")
        url = re.search(r"AR_ORACLE_URL: (\S+)", compose).group(1)
        said(self, "`AR_ORACLE_URL` (`%s`)" % url, "README.md")


class ConstantsTest(unittest.TestCase):
    """Definitions the documents quote, against the code's constants."""

    def test_the_instances(self):
        low, high = problem.N_MIN, problem.N_MAX
        said(self, "(`n` is %d to %d)" % (low, high))
        said(self, "Each instance draws `n` uniformly from %d..%d" % (low, high))
        said(self, "Each instance has %d to %d items" % (low, high), "README.md")
        self.assertEqual(len(problem.FAMILIES), 3)
        said(self, "one of the three families below, each with chance 1/3")
        for n in (low, 100, high):
            self.assertEqual(problem.cap(n), 2 * n + 64)
        said(self, "| tests on one instance | `2n + 64` (valid and invalid ones alike) "
             "| `oracle_cap` |")
        said(self, "Priors keep %d significant digits." % instances.PRIOR_DIGITS)
        said(self, "the public sample `sample/items.jsonl` is its first %d instances of the "
             "seed `%s`" % (instances.SAMPLE_COUNT, instances.SAMPLE_SEED))
        with open(support.SAMPLE, encoding="utf-8") as f:
            sample = [json.loads(line) for line in f]
        self.assertEqual(len(sample), instances.SAMPLE_COUNT)
        self.assertTrue(all(item["defectives"] for item in sample))
        said(self, "| `sample/items.jsonl` | the public sample: %d instances with their "
             "defectives |" % len(sample), "README.md")

    def test_the_fit_s_settings_and_targets(self):
        said(self, "measures each figure on %d disjoint sets of %d (`--sets`)"
             % (fit.SETS, fit.SET_SIZE))
        said(self, "measures %d sets of %d from these families against it"
             % (fit.SAMPLE_SETS, fit.SAMPLE_SIZE))
        held = {key: value for key, _, value in fit.TARGETS}
        said(self, "%s defectives and %s baseline tests a mean, a sum of binary entropies "
             "over the baseline of %s, the calibration tester at %s with a bootstrap "
             "standard error of %s, and a floor of %s tests for the raw baseline's mean" % (
                 held["defectives"], held["baseline"], held["binary_entropy_ratio"],
                 held["calibration"], held["calibration_se"], held["baseline_floor"]))
        said(self, "(the held-out set: %s and 2 x %s)"
             % (held["calibration"], held["calibration_se"]))
        share = re.search(r"\(([0-9.]+)% of ([0-9.]+)\)", read("PROGRAM.md"))
        self.assertEqual(share.group(2), held["baseline"])
        self.assertLess(abs(float(share.group(1)) / 100 * float(held["baseline"])
                            - float(held["baseline_floor"])), 0.06)
        platform = re.search(r"sample \((\d+) / (\d+) / (\d+), ([0-9.]+) defectives, ([0-9.]+) "
                             r"baseline\s+tests, ([0-9.]+) summed entropies", read("PROGRAM.md"))
        self.assertEqual(sum(int(c) for c in platform.groups()[:3]), fit.SAMPLE_SIZE)
        self.assertEqual(platform.groups()[3:], (fit.SAMPLE_TARGETS["defectives"],
                                                 fit.SAMPLE_TARGETS["baseline"],
                                                 fit.SAMPLE_TARGETS["binary_entropy_ratio"]))
        before = fit.BEFORE
        said(self, "uniform `p` log-uniform in [%g, %g]; two-tier `f ~ U[%g, %.2f]`, "
             "`p ~ U[%.2f, %.2f]`, the rest log-uniform in [%g, %g]; log-normal "
             "`s ~ U[%g, %g]`, `pbar` log-uniform in [%g, %g]" % (
                 *before["uniform"]["prior"], *before["two-tier"]["fraction"],
                 *before["two-tier"]["high"], *before["two-tier"]["low"],
                 *before["log-normal"]["spread"], *before["log-normal"]["mean"]))

    def test_the_held_out_family_counts_are_those_of_chances_one_third(self):
        counts = re.search(r"500\s+instances, families (\d+) / (\d+) / (\d+),",
                           read("PROGRAM.md")).groups()
        counts = [int(c) for c in counts]
        total = sum(counts)
        self.assertEqual(total, 500)
        expected = total / 3
        sd = math.sqrt(total / 3 * 2 / 3)
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        said(self, "(%d is %.1f standard deviations from %.1f, and the three together give "
             "chi-square %.1f on 2 degrees of freedom, p = %.2f)"
             % (min(counts), (expected - min(counts)) / sd, expected, chi2, math.exp(-chi2 / 2)))

    def test_the_cheat_flag_s_constants(self):
        bits = "%g" % cheat.SUSPECT_BITS
        for text in ("At `cheat_bits >= %s` the run is marked" % bits,
                     "a challenger whose `cheat_bits` reach %s is rejected" % bits,
                     "with probability at most 2^-%s." % bits,
                     "for a challenger whose `cheat_bits` reached %s |" % bits,
                     "and whether it reached %s |" % bits):
            with self.subTest(text=text):
                said(self, text)
        kappas = cheat.KAPPAS
        self.assertEqual((kappas[0], kappas[1], kappas[-1]), (2.0 ** -18, 2.0 ** -17, 1.0))
        said(self, "`KAPPAS` are the %d bets `2^%d, 2^%d, ..., 1`" % (
            len(kappas), math.log2(kappas[0]), math.log2(kappas[1])))

    def test_the_other_constants(self):
        said(self, "<= 1 / ln 2 = %.2f" % (1 / math.log(2)))
        self.assertEqual(report.TOP, 10)
        said(self, "and the ten instances furthest above their floor")
        self.assertEqual(compare_state.REPLAYS, 3)
        said(self, "three comparisons, the last among them, run again with the same tests")
        said(self, "A challenger past its deadline on %d comparisons in a row is rejected"
             % compare_state.TIMEOUTS_IN_A_ROW)
        for name in ("test_hostile_tester.py", "test_hostile_client.py"):
            grace = float(re.search(r"\nGRACE = ([0-9.]+)", read("tests/" + name)).group(1))
            said(self, "the result is written within the deadline that ran out plus %g s"
                 % grace)
        kernels = re.search(r"files from Linux ([0-9.]+), TCP ports from ([0-9.]+), signals and "
                            r"abstract Unix\s+sockets from ([0-9.]+)\)",
                            read("grader/arh_grader/sandbox.py")).groups()
        said(self, "kernel %s or newer for files, %s for ports, %s for signals" % kernels)

    def test_the_kinds_the_intervals_and_the_honest_runs(self):
        kinds = result.SUBMISSION_KINDS
        rows = table_rows("PROGRAM.md", "| kind | what happened | what to do |")
        self.assertEqual({row[0].strip("`") for row in rows[:len(kinds)]}, set(kinds))
        said(self, "gets one of the first %s kinds" % {5: "five"}[len(kinds)])
        self.assertEqual(report.CONFIDENCE, 0.95)
        said(self, "with `mean_difference_ci95`, its %g%% interval by Student's t"
             % (100 * report.CONFIDENCE))
        import test_cheat_flag
        said(self, "Honest testers over {:,} instances".format(
            len(test_cheat_flag.HONEST_SEEDS) * test_cheat_flag.HONEST_COUNT))

    def test_the_headroom_s_set_and_the_reader_s_savings(self):
        said(self, 'on the set `instances.draw(%d, "%s")`' % (headroom.COUNT, headroom.SEED))
        shown = re.search(r"grader/headroom\.py` measures (?:the same )?on (\d+) instances",
                          flat(read("PROGRAM.md")))
        self.assertEqual(int(shown.group(1)), headroom.COUNT)
        with open(support.SAMPLE, encoding="utf-8") as f:
            sample = [json.loads(line) for line in f]
        bits = statistics.fmean(problem.surprise(item["priors"], item["defectives"])
                                for item in sample)
        self.assertTrue(10 <= bits < 100, bits)
        said(self, "Reading the answers saves tens of bits an instance.")

    def test_the_worker_ends_soon_after_local_py(self):
        poll = float(re.search(r"\nPARENT_POLL = ([0-9.]+)", read("harness/arh_worker.py")).group(1))
        self.assertLess(poll, 0.5)
        said(self, "(the worker's group ends within a second; a process that left the group "
             "lives on)")

    def test_the_readme_s_versions_and_ports(self):
        self.assertIn("sys.version_info < (3, 11)", read("tests/support.py"))
        self.assertIn("\nfor version in 3.11 3.13; do\n", read(".ci/run"))
        said(self, "Both need Python 3.11 or newer", "README.md")
        said(self, "`.ci/run` runs them on Python 3.11 and 3.13", "README.md")
        self.assertEqual((client.CONTRACT, client.FIRST), ((1, 1), (1, 0)))
        said(self, "(`contract: %d.%d`, the one the worker's `/health` names; none is %d.%d)"
             % (client.CONTRACT + client.FIRST), "README.md")
        worker = read("harness/arh_worker.py")             # the template's default
        port = re.search(r'"AR_ORACLE_URL", "http://127\.0\.0\.1:(\d+)/"', worker).group(1)
        said(self, "serving the oracle on `--oracle-port` (%s by default, the worker's default "
             "`AR_ORACLE_URL`)" % port, "README.md")
        script = read(".ci/docker.sh")
        self.assertIn("\nSUITE=trixie ", script)
        self.assertIn('debootstrap --variant=minbase --include=python3 "$SUITE"', script)
        said(self, "a minimal Debian trixie root with Python 3.13, made by `debootstrap "
             "--variant=minbase --include=python3 trixie`", "README.md")


class BaselineExamplesTest(unittest.TestCase):
    def test_the_worked_examples_are_binary_splitting_s_tests(self):
        text = flat(read("PROGRAM.md"))
        paragraph = text[text.index("With `n = 8` and defectives"):]
        paragraph = paragraph[:paragraph.index("Other splittings count differently")]

        def items(code):
            if ".." in code:
                low, high = code.strip("[]").split("..")
                return list(range(int(low), int(high) + 1))
            return json.loads(code)

        shown, unresolved = [], None
        for code, sign in re.findall(r"`([^`]+)`(?: ([+-])(?![0-9]))?", paragraph):
            if code.startswith("{"):
                shown.append((sorted(json.loads("[%s]" % code.strip("{}"))), []))
            elif code.startswith("U = "):
                unresolved = items(code[4:])
                if sign:
                    shown[-1][1].append((unresolved, sign == "+"))
            elif code == "U":
                shown[-1][1].append((unresolved, sign == "+"))
            elif code.startswith("[") and sign:
                shown[-1][1].append((items(code), sign == "+"))
        counts = [int(c) for c in re.findall(r"(\d+) tests", paragraph)]
        self.assertEqual(len(shown), 2, paragraph)
        for (defectives, trace), count in zip(shown, counts):
            with self.subTest(defectives=defectives):
                made = []

                def test(pool, truth=set(defectives), made=made):
                    made.append((list(pool), not truth.isdisjoint(pool)))
                    return made[-1][1]

                self.assertEqual(sorted(calibration.split(range(8), test)), defectives)
                self.assertEqual(made, trace)
                self.assertEqual(problem.baseline_tests(8, defectives), count)
                self.assertEqual(len(made), count)


class SequentialTestsTest(unittest.TestCase):
    """The two tests' defaults and design, as the manual states them."""

    def test_the_mean_test_s_settings(self):
        s = betting.Settings()
        lambdas = betting.LAMBDAS
        said(self, "For each bet lambda of a grid of %s (%.2f down to %.3f)" % (
            {10: "ten"}[len(lambdas)], lambdas[0], lambdas[-1]))
        said(self, "accepted (`accept_bound`) once their mean reaches 1/alpha = %g" % (1 / s.alpha))
        said(self, "accepted with probability at most alpha = %g" % s.alpha)
        said(self, "once the mean of prod (1 + lambda (d + delta)) reaches 1/beta = %g"
             % (1 / s.beta))
        said(self, "a challenger that gains delta = %g or more is rejected so with probability "
             "at most beta = %g" % (s.delta, s.beta))
        said(self, "After %d comparisons (`--max-comparisons`) it stops" % s.max_comparisons)
        said(self, "delta is %g so that a gain of %g" % (s.delta, s.delta))
        said(self, "every real gain down to its `--delta` (%g)" % s.delta)
        said(self, "with probability at least %g." % betting.CONFIDENCE)
        said(self, "clipped to [-%g, %g]" % (betting.CLIP, betting.CLIP))

    def test_the_sign_test_s_settings(self):
        s = sprt.Settings()
        said(self, "H1: it wins %g (`--delta %g`). Each win adds ln %g to the log-likelihood "
             "ratio, each loss ln %g; the challenger is accepted at ln %g = %.3f (`upper_bound`) "
             "and rejected at -%.3f (`lower_bound`), for alpha = beta = %g" % (
                 s.p1, s.delta, math.exp(s.win_step), math.exp(s.loss_step),
                 (1 - s.beta) / s.alpha, s.upper, -s.lower, s.alpha))
        self.assertEqual(s.alpha, s.beta)
        self.assertEqual(sprt.TRUNCATION, 2)
        said(self, "After %d decisive comparisons (`--max-decisive`, twice the fixed sample)"
             % s.max_decisive)
        said(self, "From the %dth comparison on, the test rejects (`draw_ceiling`) once the "
             "draws show the draw rate to be above %g (`--draw-ceiling`)"
             % (s.min_sample, s.draw_ceiling))
        said(self, "ln(t (t + 1) / (%g x %d))" % (s.draw_alpha, s.min_sample))
        said(self, "add up to %g (`--draw-alpha`)" % s.draw_alpha)
        said(self, "A challenger that only ever draws is rejected at comparison %d."
             % sprt_exact.all_draws_end(s))

    def test_the_fixed_sample_and_the_sizes_that_fail(self):
        n = binomial.fixed_sample_size(0.05, 0.05, 0.1)
        c, size, power = binomial.binomial_test(n, 0.05, 0.6)
        said(self, "It is %d (c = %d, size %.4f, power %.4f)" % (n, c, size, power))
        said(self, "| `fixed_sample`, `of_fixed_sample` | %d;" % n)
        z = statistics.NormalDist().inv_cdf(0.95)
        normal = math.ceil(((z * 0.5 + z * math.sqrt(0.6 * 0.4)) / 0.1) ** 2)
        said(self, "The normal approximation says %d" % normal)

        def works(m):
            _, size, power = binomial.binomial_test(m, 0.05, 0.6)
            return size <= 0.05 and power >= 0.95

        failing = [m for m in range(normal, 300) if not works(m)]
        every = max(failing) + 1
        self.assertTrue(all(works(m) for m in range(every, 700)))
        later = [m for m in failing if m > n]
        runs = []
        for m in later:
            if runs and m == runs[-1][1] + 1:
                runs[-1][1] = m
            else:
                runs.append([m, m])
        words = ["%d to %d" % tuple(r) if r[0] != r[1] else "%d" % r[0] for r in runs]
        said(self, "neither %s nor %s has the power; nor have %s and %s: each n has its own "
             "cutoff, and only from %d on does every n work"
             % (failing[0], failing[1], ", ".join(words[:-1]), words[-1], every))
        self.assertEqual(failing[:2], [normal, normal + 1])
        self.assertEqual(n, normal + 2)


def entries(seed, challenger, incumbent):
    """(challenger's tests, incumbent's, instance) of each comparison of a
    compare.py run on `seed`, counted here as its workers would."""
    for index in itertools.count():
        item = instances.draw_instance(seed, index)
        yield pairs.tests_of(challenger, item), pairs.tests_of(incumbent, item), item


class CalibrationAgainstSplittingTest(unittest.TestCase):
    """What compare.py decides on the calibration tester and binary
    splitting, each comparison counted in process."""

    SPLIT = staticmethod(pairs.load(pairs.SPLITTING))

    def comparisons(self, seed, challenger, incumbent, test):
        found = entries(seed, challenger, incumbent)
        if test == "mean":
            record = betting.run(betting.Settings(), ((a - b) / item["baseline"]
                                                      for a, b, item in found))
        else:
            record = sprt.run(sprt.Settings(), (compare_state.outcome(a, b)
                                                for a, b, _ in found))
        return record.decision, record.comparisons

    def test_by_the_mean(self):
        accept = self.comparisons("compare-test", calibration.find, self.SPLIT, "mean")
        reject = self.comparisons("compare-test", self.SPLIT, calibration.find, "mean")
        self.assertEqual((accept[0], reject[0]), ("accept", "reject"))
        said(self, "Calibration against binary splitting is accepted in %d comparisons and the "
             "reverse rejected in %d (`compare-test`); identical testers are rejected after %d."
             % (accept[1], reject[1], betting.run(betting.Settings(), [0.0] * 5000).comparisons))

    def test_by_the_sign(self):
        seeds = ("a", "b", "c", "d", "e", "f", "compare-test")
        found = [self.comparisons(seed, calibration.find, self.SPLIT, "sign") for seed in seeds]
        self.assertEqual({decision for decision, _ in found}, {"accept"})
        counts = [count for _, count in found]
        reverse = self.comparisons("compare-test", self.SPLIT, calibration.find, "sign")
        self.assertEqual(reverse[0], "reject")
        said(self, "The calibration tester against binary splitting is accepted in %d to %d "
             "comparisons (seeds `a` to `f` and `compare-test`), the reverse is rejected in %d "
             "(`compare-test`)." % (min(counts), max(counts), reverse[1]))


class SimulatedTablesTest(unittest.TestCase):
    """The simulated tables: what the manual reads off the mean test's
    (whose rows at E[d] = -0.05 test_betting.py makes again), and the
    cheapest rows of the sign test's, made again here: each row has a seed
    of its own, so it comes out the same alone."""

    def test_the_mean_test_s_table(self):
        header = "| pair | E[d] | P(accept), "
        rows = table_rows("PROGRAM.md", header)
        runs = int(re.search(r"\| pair \| E\[d\] \| P\(accept\), (\d+) runs \|",
                             read("PROGRAM.md")).group(1))
        said(self, "(`grader/group_testing/pairs.py`, %d instances each" % pairs.COUNT)
        said(self, "%d runs a cell (`python3 grader/betting_table.py` prints it with %d runs a "
             "cell" % (runs, betting_table.RUNS))
        self.assertEqual([name for name, *_ in pairs.PAIRS],
                         list(dict.fromkeys(row[0] for row in rows)))
        self.assertEqual(len(rows), len(pairs.PAIRS) * len(betting.TARGETS))
        no_better = [float(r[2]) for r in rows if float(r[1]) >= 0]
        said(self, "A challenger no better (E[d] >= 0) is accepted at most %.3f of the time"
             % max(no_better))
        near = [r for r in rows if r[0] == "posterior vs informed" and r[1] == "-0.0050"]
        said(self, "one with a real gain of 0.005 near the floor %s" % near[0][2])
        self.assertEqual({r[5] for r in rows if r[0] == "posterior vs informed"}, {"0.000"})
        self.assertIn("if n < 86:", pairs.ALONE)
        said(self, "the 5% fix is the strongest tester's pools when n < 86")
        self.assertEqual(round(100 * (86 - problem.N_MIN) / (problem.N_MAX - problem.N_MIN + 1)),
                         5)

    def test_the_sign_test_s_table(self):
        rows = table_rows("PROGRAM.md", "| win rate | draw rate | P(accept), ")
        runs = int(re.search(r"\| win rate \| draw rate \| P\(accept\), (\d+) runs \|",
                             read("PROGRAM.md")).group(1))
        said(self, "Simulated, {:,} runs a row with a fixed seed".format(runs))
        self.assertIn('"--runs", type=int, default=%d' % runs, read("grader/arh_grader/compare/sprt_cli.py"))
        self.assertEqual(len(rows), len(sprt_exact.P_VALUES) * len(sprt_exact.Q_VALUES))
        lines = list(sprt_exact.characteristics_table(sprt.Settings(), runs=runs,
                                                      seed=seeds.SPRT, p_values=(0.3, 0.8),
                                                      q_values=(0.0, 0.5)))[2:]
        for line in lines:
            with self.subTest(row=line[:14]):
                self.assertIn(line + "\n", read("PROGRAM.md"))
        ceiling = [float(r[4]) for r in rows if r[1] == "0.95"]
        self.assertTrue(all(abs(c - 220) <= 10 for c in ceiling), ceiling)
        said(self, "A row of draws at 0.95 ends on the ceiling in about 220 comparisons")


if __name__ == "__main__":
    unittest.main()
