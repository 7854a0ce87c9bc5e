"""The fit and the headroom: the tables docs/data.md and docs/scoring.md
show, and the figures the manual quotes of them, are what grader/fit.py
and grader/headroom.py print, and the strongest tester is exact and
deterministic."""

import os
import re
import time
import unittest

import support
from group_testing import fit, headroom, instances, problem

COMMAND_TIMEOUT = 1200      # seconds: a generous bound for the full fit on busy cores
CHECKED = 24                # instances each fixture tester runs on twice, every family's


def program(doc=support.DATA):
    """The text of a document: the data's reference unless named."""
    with open(os.path.join(support.ROOT, doc), encoding="utf-8") as f:
        return f.read()


def table_lines(stdout):
    return [line for line in stdout.splitlines() if line.startswith("|")]


def table_rows(stdout):
    """The body rows of the command's table, as lists of stripped cells."""
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in table_lines(stdout)[2:]]


def said(text, doc=support.DATA):
    """`doc` says `text`, line breaks aside: a figure the test computes."""
    if " ".join(text.split()) not in " ".join(program(doc).split()):
        raise AssertionError("%s does not say %r" % (doc, text))


class TablesTest(unittest.TestCase):
    def check_shown(self, *args, seconds, doc=support.DATA):
        """The command's table is in `doc`, line for line, and the
        command takes well under `seconds` (ten times or more what the manual
        says it takes: a loose bound); its stdout."""
        started = time.monotonic()
        status, out, err = support.run_command(self, *args, timeout=COMMAND_TIMEOUT)
        self.assertLess(time.monotonic() - started, seconds, " ".join(args))
        self.assertEqual(status, 0, err)
        lines = table_lines(out)
        self.assertGreater(len(lines), 3, out)
        self.assertIn("\n".join(lines) + "\n", program(doc), " ".join(args))
        return out

    def test_fit_table_for_the_current_families(self):
        out = self.check_shown("grader/fit.py", seconds=900)        # "about ten seconds"
        rows = table_rows(out)
        distances = [float(row[3]) for row in rows]
        self.assertTrue(all(abs(d) <= 2.0 for d in distances), distances)
        self.assertEqual(rows[-1][0], "raw baseline tests' floor (2 SE), tests")
        self.assertTrue(all(abs(d) <= 0.5 for d in distances[:-1]), distances)
        mean, held, distance = rows[-1][1].split(" +- ")[0], rows[-1][2], rows[-1][3]
        said("every figure now lies within half a standard deviation but the raw baseline's "
             "floor, %.1f away" % abs(float(distance)))
        said("the raw baseline's floor (%s against %s, %s)" % (mean, held, distance))

    def test_fit_table_before_the_fit(self):
        rows = table_rows(self.check_shown("grader/fit.py", "--before", seconds=900))
        entropies, se, floor = rows[2], rows[4], rows[5]
        said("the summed binary entropies came out at %s of the baseline and the calibration "
             "tester's standard error at %s, %.0f of its standard deviations short of %s"
             % (entropies[1].split(" +- ")[0], se[1].split(" +- ")[0], -float(se[3]), se[2]))
        said("before the fit it was %s, %.1f deviations short"
             % (floor[1].split(" +- ")[0], -float(floor[3])))

    def test_fit_table_of_sets_of_forty(self):
        rows = table_rows(self.check_shown("grader/fit.py", "--sample", seconds=450))   # "a few seconds"
        platform = [float(row[3]) for row in rows[:3]]
        self.assertTrue(all(d < 0 for d in platform), platform)       # the sets lie below it
        ours = instances.stats(support.PROBLEM.load_set(support.SAMPLE))
        ours = [ours[key] for key in ("defectives_mean", "baseline_mean",
                                      "binary_entropy_ratio_mean")]
        below = []
        for row, value in zip(rows[:3], ours):
            mean, sd = (float(x) for x in row[1].split(" +- "))
            below.append((mean - float(value)) / sd)
        self.assertTrue(all(d > 0 for d in below), below)
        said("The platform's sample lies %.1f, %.1f and %.1f standard deviations above the "
             "sets' means; ours (%s, %s, %s) %.1f, %.1f and %.1f below them"
             % (*(-d for d in platform), *ours, *below))

    def test_headroom_table_and_what_is_left(self):
        out = self.check_shown("grader/headroom.py", seconds=300,    # "about half a minute"
                               doc=support.SCORING)
        left = support.lines_of(out)["strongest_above_floor"]
        value, mmis = re.fullmatch(r"([0-9.]+) \(([0-9.]+) MMIs\)", left).groups()
        self.assertIn("strongest we have is %.3f (%s MMI) above the information floor"
                      % (float(value), mmis), " ".join(program(support.SCORING).split()))
        rows = {row[0]: row for row in table_rows(out)}
        informed, strongest = rows["informed"], rows["strongest"]
        floor = float(rows["information floor"][1])
        said("So a tester that uses the priors well is about %s MMIs below the calibration "
             "tester" % strongest[4].lstrip("+"), support.SCORING)
        said("a tester that uses the priors well is about %s MMIs below the calibration "
             "tester" % strongest[4].lstrip("+"), support.MANUAL)
        said("binary splitting scores %s, the calibration tester %s, the strongest tester we "
             "have %s, the information floor %s" % (
                 rows["binary splitting"][1], rows["calibration"][1], strongest[1],
                 rows["information floor"][1]), support.MANUAL)
        said("and splits positive pools by posterior mass, gets within about %.2f of it"
             % (float(informed[1]) - floor), support.SCORING)
        for row in (informed, strongest):               # "saves about a quarter"
            self.assertLess(abs(1 - float(row[1]) - 0.25), 0.05, row)
        said("A tester that uses them well saves about a quarter of binary splitting's tests",
             support.MANUAL)

    def test_the_documented_settings_are_the_generators(self):
        text = program(support.MANUAL)
        bullets = text[text.index("- **uniform**"):text.index("Priors keep")]
        shown = [(float(a), float(b)) for a, b in
                 re.findall(r"\[([0-9.]+), ([0-9.]+)\]", bullets)]
        got = instances.FAMILY_SETTINGS
        self.assertEqual(shown, [got["uniform"]["prior"], got["two-tier"]["fraction"],
                                 got["two-tier"]["high"], got["two-tier"]["low"],
                                 got["log-normal"]["spread"], got["log-normal"]["mean"]])
        self.assertIn("min(%s, exp(" % got["log-normal"]["cap"], bullets)


class CountingTest(unittest.TestCase):
    def test_a_wrong_answer_is_refused(self):
        item = instances.draw_instance("count", 0)
        with self.assertRaises(ValueError):
            fit.count_tests(lambda n, priors, test: [], item)

    def test_binary_splitting_counts_the_baseline(self):
        find = headroom.load_find("tests/testers/splitting.py")
        for item in instances.draw(20, "count"):
            self.assertEqual(fit.count_tests(find, item), item["baseline"])


class StrongestTesterTest(unittest.TestCase):
    def test_exact_deterministic_and_under_the_cap(self):
        for path in ("tests/testers/posterior.py", "tests/testers/strongest.py"):
            self.check_exact(headroom.load_find(path), path)

    def check_exact(self, find, path):
        """Twice on each of CHECKED instances: the same pools, each a set of
        items, no more of them than the cap allows, and the defectives. (That
        it names the defectives of every instance of the headroom's 500 is
        checked there: fit.count_tests refuses a wrong answer.)"""
        for index, item in enumerate(instances.draw(CHECKED, "posterior-check")):
            with self.subTest(tester=path, index=index):
                runs = []
                for _ in range(2):
                    pools = []
                    truth = set(item["defectives"])

                    def test(pool, pools=pools, truth=truth):
                        pools.append(tuple(pool))
                        return not truth.isdisjoint(pool)

                    self.assertEqual(find(item["n"], item["priors"], test),
                                     item["defectives"])
                    runs.append(pools)
                self.assertEqual(runs[0], runs[1])
                self.assertLessEqual(len(runs[0]), problem.cap(item["n"]))
                self.assertTrue(all(pool and len(set(pool)) == len(pool) for pool in runs[0]))


if __name__ == "__main__":
    unittest.main()
