"""The documents say what the code does: docs/data.md's table of the sets is
what its commands print, the MMI the manual and docs/scoring.md quote is
what those commands measure, docs/scoring.md's halving figure is what the
halving tester makes on the sample, and the README opens with the two
commands."""

import importlib.util
import json
import os
import re
import statistics
import subprocess
import unittest

import support
from group_testing import fit


def program_table():
    """docs/data.md's table of the sets: {set name: {column: cell}}."""
    with open(os.path.join(support.ROOT, support.DATA), encoding="utf-8") as f:
        rows = [line.strip().strip("|").split("|") for line in f
                if line.startswith("| ") and "|---" not in line]
    header = next(r for r in rows if r[0].strip() == "set")
    table = {}
    for row in rows:
        if len(row) == len(header) and row[0].strip() != "set":
            table[row[0].strip()] = {h.strip(): c.strip() for h, c in zip(header, row)}
    return table


def said(case, text):
    """Fail `case` unless the manual and docs/scoring.md both say `text`,
    line breaks aside."""
    support.said(case, text, (support.MANUAL, support.SCORING))


class ProgramTableTest(unittest.TestCase):
    COLUMNS = {"instances": "instances",
               "families (uniform / two-tier / log-normal)": "families",
               "defectives, mean": "defectives_mean",
               "baseline tests, mean": "baseline_mean",
               "entropy bound / baseline, mean": "bound_ratio_mean",
               "binary entropies / baseline, mean": "binary_entropy_ratio_mean",
               "information floor": "information_floor"}

    def check_row(self, row, items_path, out):
        status, stats_out, err = support.run_command(self, "grader/instances.py", "--stats",
                                                     items_path)
        self.assertEqual(status, 0, err)
        stats = support.lines_of(stats_out)
        for column, key in self.COLUMNS.items():
            self.assertEqual(row[column], stats[key], column)
        status, _, err = support.run_command(self, "grader/local.py", "--tester",
                                             "grader/group_testing/calibration.py", "--items", items_path,
                                             "--out", out)
        self.assertEqual(status, 0, err)
        status, mmi_out, err = support.run_command(self, "grader/mmi.py",
                                                   os.path.join(out, "result.json"))
        self.assertEqual(status, 0, err)
        mmi = support.lines_of(mmi_out)
        self.assertEqual(row["calibration tester"], mmi["relative_tests"])
        self.assertEqual(row["its floor"], mmi["floor"])
        return mmi

    def test_sample_row(self):
        mmi = self.check_row(program_table()["sample"], support.SAMPLE, support.tmpdir(self))
        said(self, "the 40-instance sample's floor (%s for the calibration tester)" % mmi["floor"])

    def test_500_row_and_the_mmi_it_supports(self):
        folder = support.tmpdir(self)
        items = os.path.join(folder, "set500.jsonl")
        status, _, err = support.run_command(self, "grader/instances.py", "--count", "500",
                                             "--seed", "group-testing-500", "--out", items)
        self.assertEqual(status, 0, err)
        mmi = self.check_row(program_table()["seed group-testing-500"], items, folder)
        self.assertTrue(0.76 <= float(mmi["relative_tests"]) <= 0.82, mmi)
        self.assertTrue(0.012 <= float(mmi["floor"]) <= 0.030, mmi)
        self.assertEqual(mmi["floor_within_mmi"], "true")
        said(self, "On a 500-instance set it scores about %.2f with a floor near %s"
             % (float(mmi["relative_tests"]), mmi["floor"]))


class HalvingFigureTest(unittest.TestCase):
    def test_recursive_halving_on_the_sample(self):
        with open(os.path.join(support.ROOT, support.SCORING), encoding="utf-8") as f:
            text = " ".join(f.read().split())
        shown = re.search(r"each positive half is cut again\) makes ([0-9.]+) times", text)
        spec = importlib.util.spec_from_file_location(
            "halving", os.path.join(support.TESTERS, "halving.py"))
        halving = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(halving)
        with open(support.SAMPLE, encoding="utf-8") as f:
            items = [json.loads(line) for line in f]
        self.assertEqual(shown.group(1), "%.3f" % statistics.fmean(
            fit.scores(halving.find, items)))


class ManualShapeTest(unittest.TestCase):
    """Each problem's agents' manual is read in one go: at most MANUAL_LINES
    lines, its loop starting within its first third."""

    MANUAL_LINES = 300

    def test_each_manual_is_short_with_its_loop_early(self):
        for path, loop in (("PROGRAM.md", "## The experiment loop"),
                           ("examples/twenty-questions/PROGRAM.md", "## The loop"),
                           ("examples/algotune-graph-isomorphism/PROGRAM.md",
                            "## Comparing two solvers")):
            with self.subTest(manual=path):
                lines = support.read(path).splitlines()
                self.assertLessEqual(len(lines), self.MANUAL_LINES)
                self.assertIn(loop, lines)
                self.assertLessEqual(lines.index(loop) + 1, len(lines) / 3,
                                     "%s's loop starts at line %d of %d"
                                     % (path, lines.index(loop) + 1, len(lines)))


class ReadmeTest(unittest.TestCase):
    def test_opens_with_its_commands(self):
        with open(os.path.join(support.ROOT, "README.md"), encoding="utf-8") as f:
            head = f.read(1500)
        commands = re.findall(r"^(python3 [^\n#]+?)\s*(?:#.*)?$", head, re.M)
        self.assertEqual(commands[:3], ["python3 grader/local.py", "python3 tests/run.py",
                                        "python3 tests/run.py --quick"])

    def test_its_file_table_is_the_tree(self):
        """Every path the table names exists; every tracked top-level path and
        every command in grader/ is named; the table reads in a minute."""
        with open(os.path.join(support.ROOT, "README.md"), encoding="utf-8") as f:
            text = f.read()
        table = text[text.index("\n## Files\n"):]
        table = table[:table.index("\n## ", 1)]
        rows = [line for line in table.split("\n") if line.startswith("| `")]
        named = [path for row in rows for path in re.findall(r"`([^`]+)`", row.split(" | ")[0])]
        for path in named:
            with self.subTest(path=path):
                self.assertTrue(os.path.exists(os.path.join(support.ROOT, path)), path)
        tracked = subprocess.run(["git", "-C", support.ROOT, "ls-files"], capture_output=True,
                                 text=True, check=True).stdout.split()
        tops = {path.split("/")[0] for path in tracked} - {"LICENSE", "README.md"}
        for top in sorted(t for t in tops if not t.startswith(".")):
            with self.subTest(top=top):
                self.assertTrue(any(p.split("/")[0] == top for p in named), top)
        commands = sorted(name for name in os.listdir(os.path.join(support.ROOT, "grader"))
                          if name.endswith(".py"))
        grader_row = next(row for row in rows if row.startswith("| `grader/` |"))
        self.assertEqual(sorted(re.findall(r"`([a-z_]+\.py)`", grader_row)), commands)
        self.assertLessEqual(len(rows), 15)
        self.assertLessEqual(len(table.split()), 400)       # words: a minute's reading

    def test_ci_runs_the_readme_test_command(self):
        with open(os.path.join(support.ROOT, ".ci", "run"), encoding="utf-8") as f:
            script = f.read()
        self.assertIn('"$python" tests/run.py\n', script)
        self.assertIn("\nbash .ci/emulated.sh ", script)       # graph isomorphism's runs
        with open(os.path.join(support.ROOT, ".ci", "emulated.sh"), encoding="utf-8") as f:
            self.assertIn("-m unittest discover -s examples/algotune-graph-isomorphism/tests/"
                          "emulated\n", f.read())


if __name__ == "__main__":
    unittest.main()
