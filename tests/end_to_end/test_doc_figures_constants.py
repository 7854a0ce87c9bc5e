"""The code's constants PROGRAM.md, docs/ and README.md quote, each against the
constant: the instances and the public sample, the fit's settings and
targets, the held-out family counts, the cheat flag's constants, the
report's, the comparison's and the sandbox's, the kinds and intervals of a
result, the headroom's set, the worker's parent watch, and the README's
versions and ports; each computed here from the code that makes it, in
process and on little work.

The documents' other figures no command prints: test_doc_figures_settings.py
(autoresearch.toml, compose.yaml), test_doc_figures_sequential.py (the two
sequential tests' defaults and design) and test_doc_figures_testers.py (the
baseline's worked examples, the calibration tester against binary splitting,
the simulated tables). The figures a command prints are checked where a test
runs that command: test_docs.py (the data table), test_fit.py (the fit
and the headroom), test_cheat_flag.py and test_cheat_power.py (the flag),
test_sprt_command.py (the exact table), test_betting.py (the mean test's
table), test_bench.py (the round trip), test_doc_commands.py (the README's
run)."""

import json
import math
import re
import statistics
import unittest

import support
from support import (CHEATING, COMPARISON, DATA, LOCAL_RUN, MANUAL, SCORING, flat, read,
                     said, table_rows)
from arh_grader import client, report, result
from arh_grader.compare import state as compare_state
from group_testing import cheat, fit, headroom, instances, problem


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
        said(self, "The sample `sample/items.jsonl` is the first %d instances of the seed "
             "`%s`" % (instances.SAMPLE_COUNT, instances.SAMPLE_SEED))
        with open(support.SAMPLE, encoding="utf-8") as f:
            sample = [json.loads(line) for line in f]
        self.assertEqual(len(sample), instances.SAMPLE_COUNT)
        self.assertTrue(all(item["defectives"] for item in sample))
        said(self, "| `sample/items.jsonl` | the public sample: %d instances with their "
             "defectives |" % len(sample), "README.md")

    def test_the_fit_s_settings_and_targets(self):
        said(self, "measures each figure on %d disjoint sets of %d (`--sets`)"
             % (fit.SETS, fit.SET_SIZE), DATA)
        said(self, "measures %d sets of %d from these families against it"
             % (fit.SAMPLE_SETS, fit.SAMPLE_SIZE), DATA)
        held = {key: value for key, _, value in fit.TARGETS}
        said(self, "%s defectives and %s baseline tests a mean, a sum of binary entropies "
             "over the baseline of %s, the calibration tester at %s with a bootstrap "
             "standard error of %s, and a floor of %s tests for the raw baseline's mean" % (
                 held["defectives"], held["baseline"], held["binary_entropy_ratio"],
                 held["calibration"], held["calibration_se"], held["baseline_floor"]), DATA)
        said(self, "(the held-out set: %s and 2 x %s)"
             % (held["calibration"], held["calibration_se"]), (MANUAL, SCORING))
        share = re.search(r"\(([0-9.]+)% of ([0-9.]+)\)", read(DATA))
        self.assertEqual(share.group(2), held["baseline"])
        self.assertLess(abs(float(share.group(1)) / 100 * float(held["baseline"])
                            - float(held["baseline_floor"])), 0.06)
        platform = re.search(r"sample \((\d+) / (\d+) / (\d+), ([0-9.]+) defectives, ([0-9.]+) "
                             r"baseline\s+tests, ([0-9.]+) summed entropies", read(DATA))
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
                 *before["log-normal"]["spread"], *before["log-normal"]["mean"]), DATA)

    def test_the_held_out_family_counts_are_those_of_chances_one_third(self):
        counts = re.search(r"500\s+instances, families (\d+) / (\d+) / (\d+),",
                           read(DATA)).groups()
        counts = [int(c) for c in counts]
        total = sum(counts)
        self.assertEqual(total, 500)
        expected = total / 3
        sd = math.sqrt(total / 3 * 2 / 3)
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        said(self, "(%d is %.1f standard deviations from %.1f, and the three together give "
             "chi-square %.1f on 2 degrees of freedom, p = %.2f)"
             % (min(counts), (expected - min(counts)) / sd, expected, chi2, math.exp(-chi2 / 2)),
             DATA)

    def test_the_cheat_flag_s_constants(self):
        bits = "%g" % cheat.SUSPECT_BITS
        for text, docs in (("At `cheat_bits >= %s` the run is marked" % bits, MANUAL),
                           ("a challenger whose `cheat_bits` reach %s is rejected" % bits,
                            (MANUAL, COMPARISON)),
                           ("with probability at most 2^-%s." % bits, COMPARISON),
                           ("for a challenger whose `cheat_bits` reached %s |" % bits, COMPARISON),
                           ("and whether it reached %s |" % bits, COMPARISON)):
            with self.subTest(text=text):
                said(self, text, docs)
        kappas = cheat.KAPPAS
        self.assertEqual((kappas[0], kappas[1], kappas[-1]), (2.0 ** -18, 2.0 ** -17, 1.0))
        said(self, "`KAPPAS` are the %d bets `2^%d, 2^%d, ..., 1`" % (
            len(kappas), math.log2(kappas[0]), math.log2(kappas[1])), CHEATING)

    def test_the_other_constants(self):
        said(self, "<= 1 / ln 2 = %.2f" % (1 / math.log(2)), SCORING)
        self.assertEqual(report.TOP, 10)
        said(self, "and the ten instances furthest above their floor")
        self.assertEqual(compare_state.REPLAYS, 3)
        said(self, "three comparisons, the last among them, run again with the same tests",
             COMPARISON)
        said(self, "A challenger past its deadline on %d comparisons in a row is rejected"
             % compare_state.TIMEOUTS_IN_A_ROW, (MANUAL, COMPARISON))
        for name in ("end_to_end/test_hostile_tester.py", "sdk/test_hostile_client.py"):
            grace = float(re.search(r"\nGRACE = ([0-9.]+)", read("tests/" + name)).group(1))
            said(self, "the result is written within the deadline that ran out plus %g s"
                 % grace, LOCAL_RUN)
        kernels = re.search(r"files from Linux ([0-9.]+), TCP ports from ([0-9.]+), signals and "
                            r"abstract Unix\s+sockets from ([0-9.]+)\)",
                            read("grader/arh_grader/sandbox.py")).groups()
        said(self, "kernel %s or newer for files, %s for ports, %s for signals" % kernels,
             LOCAL_RUN)

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
            len(test_cheat_flag.HONEST_SEEDS) * test_cheat_flag.HONEST_COUNT), CHEATING)

    def test_the_headroom_s_set_and_the_reader_s_savings(self):
        said(self, 'on the set `instances.draw(%d, "%s")`' % (headroom.COUNT, headroom.SEED),
             SCORING)
        said(self, "On the set of seed `%s`" % headroom.SEED)
        shown = re.search(r"grader/headroom\.py` measures (?:the same )?on (\d+) instances",
                          flat(read(MANUAL)))
        self.assertEqual(int(shown.group(1)), headroom.COUNT)
        with open(support.SAMPLE, encoding="utf-8") as f:
            sample = [json.loads(line) for line in f]
        bits = statistics.fmean(problem.surprise(item["priors"], item["defectives"])
                                for item in sample)
        self.assertTrue(10 <= bits < 100, bits)
        said(self, "Reading the answers saves tens of bits an instance.", CHEATING)

    def test_the_worker_ends_soon_after_local_py(self):
        poll = float(re.search(r"\nPARENT_POLL = ([0-9.]+)", read("harness/arh_worker.py")).group(1))
        self.assertLess(poll, 0.5)
        said(self, "(the worker's group ends within a second; a process that left the group "
             "lives on)", LOCAL_RUN)

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


if __name__ == "__main__":
    unittest.main()
