"""grader/report.py on real results of the sample: the numbers it prints are
result.json's, the picture is well-formed SVG with one mark per instance
and has a PNG beside it, read back with zlib, where the marks are,
a comparison counts wins, losses and draws as the items do, and every bad
file is named."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

import support
from arh_grader import report

SVG = "{http://www.w3.org/2000/svg}"


def rows(stdout, key):
    """The whitespace-split cells of the `key:` rows, header first."""
    return [line.split()[1:] for line in stdout.splitlines() if line.startswith(key + ": ")]


class ReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        """One run of the near-optimal tester and one of binary splitting on
        the sample, shared by the tests (they only read them)."""
        cls.folder = tempfile.mkdtemp(prefix="gt-report-")
        cls.addClassCleanup(shutil.rmtree, cls.folder, True)
        cls.paths = {}
        for name, tester in (("informed", support.INFORMED), ("splitting", support.SPLITTING)):
            out = os.path.join(cls.folder, name)
            status, _, stderr = support.run_command(None, "grader/local.py", "--tester",
                                                    tester, "--out", out)
            if status != 0:
                raise RuntimeError("local.py on %s: %s" % (name, stderr[-2000:]))
            cls.paths[name] = os.path.join(out, "result.json")
        with open(cls.paths["informed"], encoding="utf-8") as f:
            cls.result = json.load(f)
        with open(cls.paths["splitting"], encoding="utf-8") as f:
            cls.splitting = json.load(f)

    def report(self, *args):
        return support.run_command(self, "grader/report.py", *args)

    def test_the_numbers_printed_are_result_json_s(self):
        status, stdout, stderr = self.report(self.paths["informed"])
        self.assertEqual(status, 0, stderr)
        lines = support.lines_of(stdout)
        result = self.result
        self.assertEqual((lines["status"], lines["kind"], lines["instances"]),
                         ("valid", "none", "40"))
        self.assertEqual(float(lines["relative_tests"]), result["relative_tests"])
        self.assertEqual(float(lines["information_floor"]), result["information_floor"])
        self.assertAlmostEqual(float(lines["gap"]),
                               result["relative_tests"] - result["information_floor"], 6)
        table = rows(stdout, "family")
        self.assertEqual(table[0], ["family", "instances", "relative_tests",
                                    "information_floor", "gap"])
        self.assertEqual([r[0] for r in table[1:]], ["uniform", "two-tier", "log-normal", "all"])
        for name, count, score, floor, gap in table[1:]:
            with self.subTest(family=name):
                family = result if name == "all" else result["families"][name]
                self.assertEqual(int(count), family["instances"])
                self.assertEqual(float(score), family["relative_tests"])
                self.assertEqual(float(floor), family["information_floor"])
                self.assertAlmostEqual(float(gap), float(score) - float(floor), 6)

    def test_the_instances_furthest_above_their_floor(self):
        status, stdout, _ = self.report(self.paths["informed"], "--top", "5")
        self.assertEqual(status, 0)
        table = rows(stdout, "above_floor")
        self.assertEqual(table[0], ["index", "family", "n", "tests", "baseline", "score",
                                    "floor", "gap", "bits"])
        items = self.result["items"]
        gaps = sorted((i["score"] - i["surprise"] / i["baseline"] for i in items), reverse=True)
        self.assertEqual(len(table), 6)
        for row, gap in zip(table[1:], gaps):
            item = items[int(row[0])]
            with self.subTest(index=item["index"]):
                self.assertEqual([row[1], int(row[2]), int(row[3]), int(row[4]), float(row[5])],
                                 [item["family"], item["n"], item["tests"], item["baseline"],
                                  item["score"]])
                self.assertAlmostEqual(float(row[6]), item["surprise"] / item["baseline"], 6)
                self.assertAlmostEqual(float(row[7]), gap, 6)
                self.assertAlmostEqual(float(row[8]), item["tests"] - item["surprise"], 1)

    def test_the_picture_has_one_mark_per_instance(self):
        picture = os.path.join(support.tmpdir(self), "result.svg")
        status, stdout, stderr = self.report(self.paths["informed"], "--svg", picture)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(support.lines_of(stdout)["svg"], picture)
        root = ET.parse(picture).getroot()
        self.assertEqual(root.tag, SVG + "svg")
        marks = [c for c in root.iter(SVG + "circle") if c.get("class") == "instance"]
        self.assertEqual(len(marks), 40)
        self.assertEqual(sorted(int(c.get("data-index")) for c in marks), list(range(40)))
        colours = {}
        for mark in marks:
            colours.setdefault(mark.get("data-family"), set()).add(mark.get("fill"))
        self.assertEqual(sorted(colours), ["log-normal", "two-tier", "uniform"])
        self.assertTrue(all(len(c) == 1 for c in colours.values()), colours)
        self.assertEqual(len(set.union(*colours.values())), 3)
        words = " ".join(t.text or "" for t in root.iter(SVG + "text"))
        with open(self.paths["informed"]) as f:
            items = json.load(f)["items"]
        counts = ["%s (%d)" % (family, sum(1 for e in items if e["family"] == family))
                  for family in ("uniform", "two-tier", "log-normal")]
        for family in counts + ["score = floor", "information floor (surprise / baseline)"]:
            self.assertIn(family, words)
        self.assertEqual([c for c in root.iter(SVG + "circle")
                          if c.get("class") == "difference"], [])
        self.check_png(stdout, picture, root, marks)

    def check_png(self, stdout, picture, root, marks):
        """The PNG beside `picture` is as large as the SVG, and each circle
        of `marks` that no other mark or line touches is at its pixel in
        its colour (its fill at the style's fill-opacity 0.85, over white)."""
        png = picture[:-len(".svg")] + ".png"
        self.assertEqual(support.lines_of(stdout)["png"], png)
        width, height, rows = support.read_png(self, support.read_bytes(png))
        self.assertEqual((width, height), (int(root.get("width")), int(root.get("height"))))
        centres = [(float(c.get("cx")), float(c.get("cy"))) for c in marks]
        lines = [[float(e.get(k)) for k in ("x1", "y1", "x2", "y2")]
                 for e in root.iter(SVG + "line") if e.get("class") != "grid"]

        def near_a_line(x, y):
            for x1, y1, x2, y2 in lines:
                along = ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / (
                    (x2 - x1) ** 2 + (y2 - y1) ** 2)
                px, py = x1 + max(0, min(1, along)) * (x2 - x1), y1 + max(0, min(1, along)) * (
                    y2 - y1)
                if abs(px - x) < 8 and abs(py - y) < 8:
                    return True
            return False

        alone = [(c, (x, y)) for c, (x, y) in zip(marks, centres)
                 if all(abs(x - u) + abs(y - v) > 14 for u, v in centres if (u, v) != (x, y))
                 and not near_a_line(x, y)]
        self.assertGreaterEqual(len(alone), 5)
        for mark, (x, y) in alone:
            with self.subTest(index=mark.get("data-index")):
                fill = mark.get("fill")
                # over white, or over a grid line (#e4e4e4) that runs through it
                self.assertIn(rows[int(y)][int(x)], [tuple(
                    int(under + (int(fill[k:k + 2], 16) - under) * 0.85 + 0.5)
                    for k in (1, 3, 5)) for under in (255, 0xE4)])

    def test_against_counts_wins_losses_and_draws(self):
        picture = os.path.join(support.tmpdir(self), "against.svg")
        status, stdout, stderr = self.report(self.paths["informed"], "--against",
                                             self.paths["splitting"], "--svg", picture)
        self.assertEqual(status, 0, stderr)
        lines = support.lines_of(stdout)
        pairs = list(zip(self.result["items"], self.splitting["items"]))
        wins = sum(a["tests"] < b["tests"] for a, b in pairs)
        losses = sum(a["tests"] > b["tests"] for a, b in pairs)
        self.assertEqual(lines["W/L/D"], "%d/%d/%d" % (wins, losses, 40 - wins - losses))
        self.assertEqual(lines["compared"], "40")
        differences = [a["score"] - b["score"] for a, b in pairs]
        mean = float(lines["mean_difference"])
        self.assertEqual(mean, round(statistics.fmean(differences), 6))
        self.assertAlmostEqual(mean, self.result["relative_tests"] - 1.0, 5)
        low, high = json.loads(lines["mean_difference_ci95"])
        half = report.t_quantile(0.975, 39) * statistics.stdev(differences) / 40 ** 0.5
        self.assertAlmostEqual(low, mean - half, 5)
        self.assertAlmostEqual(high, mean + half, 5)
        self.assertIn("Student's t, 39 degrees of freedom", lines["interval"])
        lost = rows(stdout, "lost_most")[1:]
        self.assertEqual(len(lost), min(losses, report.TOP))
        for row in lost:
            self.assertGreater(int(row[3]), int(row[4]))
        root = ET.parse(picture).getroot()
        for kind in ("instance", "difference"):
            with self.subTest(mark=kind):
                self.assertEqual(len([c for c in root.iter(SVG + "circle")
                                      if c.get("class") == kind]), 40)
        self.check_png(stdout, picture, root, [c for c in root.iter(SVG + "circle")
                                               if c.get("class") == "difference"])

    def test_a_result_against_itself_is_all_draws(self):
        status, stdout, _ = self.report(self.paths["splitting"], "--against",
                                        self.paths["splitting"])
        lines = support.lines_of(stdout)
        self.assertEqual((status, lines["W/L/D"], lines["mean_difference"]), (0, "0/0/40", "0.0"))
        self.assertEqual(json.loads(lines["mean_difference_ci95"]), [0.0, 0.0])
        self.assertEqual(rows(stdout, "lost_most")[1:], [])

    def test_a_failed_run_reports_the_instances_that_passed(self):
        failed = dict(self.result, status="invalid", kind="wrong", index=39,
                      message="the answer is not the set of defectives\nmore")
        failed["items"] = self.result["items"][:39] + [dict(self.result["items"][39],
                                                            kind="wrong")]
        path = support.write(self, "result.json", json.dumps(failed))
        status, stdout, stderr = self.report(path, "--against", self.paths["splitting"])
        self.assertEqual(status, 0, stderr)
        lines = support.lines_of(stdout)
        self.assertEqual((lines["status"], lines["kind"], lines["instances"], lines["compared"]),
                         ("invalid", "wrong", "39", "39"))
        self.assertEqual(lines["message"], "the answer is not the set of defectives")

    def test_bad_files_are_named(self):
        folder = support.tmpdir(self)
        other_set = json.loads(json.dumps(self.splitting))
        other_set["items"][7]["surprise"] += 1.0
        bad_item = json.loads(json.dumps(self.result))
        bad_item["items"][3]["tests"] = "63"
        files = {"not.json": "{", "list.json": "[1, 2]", "other_set.json": json.dumps(other_set),
                 "bad_item.json": json.dumps(bad_item),
                 "none_shared.json": json.dumps(dict(self.splitting, items=[]))}
        for name, text in files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
        path = os.path.join(folder, "%s")
        missing = path % "missing.json"
        cases = [
            ((missing,), "cannot read %r: No such file or directory" % missing),
            ((path % "not.json",), "%r is not JSON: Expecting" % (path % "not.json")),
            ((path % "list.json",), "%r is not a result.json: it needs 'status' and an "
                                    "'items' list" % (path % "list.json")),
            ((path % "bad_item.json",), "%r is not a result.json: items[3]['tests'] is '63'"
             % (path % "bad_item.json")),
            ((self.paths["informed"], "--against", missing), "cannot read %r" % missing),
            ((self.paths["informed"], "--against", path % "other_set.json"),
             "%r and %r are results of different sets: instance 7 is"
             % (self.paths["informed"], path % "other_set.json")),
            ((self.paths["informed"], "--against", path % "none_shared.json"),
             "%r and %r have no instance that passed in both"
             % (self.paths["informed"], path % "none_shared.json")),
            ((self.paths["informed"], "--svg", os.path.join(folder, "no", "such.svg")),
             "cannot write %r" % os.path.join(folder, "no", "such.svg")),
            ((self.paths["informed"], "--svg", os.path.join(folder, "result.png")),
             "%r names the SVG, and its PNG would take its place"
             % os.path.join(folder, "result.png")),
        ]
        for args, words in cases:
            with self.subTest(args=[os.path.basename(a) for a in args]):
                status, stdout, stderr = self.report(*args)
                self.assertEqual((status, stdout), (2, ""))
                self.assertIn("report: " + words, stderr)


class UnitTest(unittest.TestCase):
    def test_t_quantiles_match_the_tables(self):
        for df, quantile in ((1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281),
                             (39, 2.0227), (120, 1.9799)):
            with self.subTest(df=df):
                self.assertAlmostEqual(report.t_quantile(0.975, df), quantile, 4)

    def test_display_path_is_relative_inside_the_current_folder(self):
        here = os.getcwd()
        outside = os.path.join(os.path.dirname(here), "elsewhere", "result.json")
        cases = [(os.path.join(here, "result", "result.json"),
                  os.path.join("result", "result.json")),
                 (outside, outside),
                 (os.path.join("out", "result.json"), os.path.join("out", "result.json"))]
        for path, shown in cases:
            with self.subTest(path=path):
                self.assertEqual(report.display_path(path), shown)

    def test_local_prints_the_command_that_draws_its_picture(self):
        """local.py run from a folder of its own, with a relative --out: the
        paths it prints are relative to that folder and the command works."""
        folder = support.tmpdir(self)
        done = subprocess.run(
            [sys.executable, os.path.join(support.GRADER, "local.py"), "--limit", "3",
             "--tester", support.SPLITTING, "--out", "out"], cwd=folder,
            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = support.lines_of(done.stdout)
        self.assertEqual(lines["result"], os.path.join("out", "result.json"))
        self.assertEqual(lines["report"], "python3 %s %s --svg %s" % (
            os.path.join(support.GRADER, "report.py"), os.path.join("out", "result.json"),
            os.path.join("out", "result.svg")))
        self.assertEqual(done.stdout.splitlines()[-1], "report: " + lines["report"])
        command = lines["report"].split()
        done = subprocess.run([sys.executable] + command[1:], cwd=folder,
                                      capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        root = ET.parse(os.path.join(folder, "out", "result.svg")).getroot()
        self.assertEqual(len([c for c in root.iter(SVG + "circle")
                              if c.get("class") == "instance"]), 3)


if __name__ == "__main__":
    unittest.main()
