"""grader/picture.py: the gap and history pictures, read back as XML, with
exact positions, and their PNGs beside them, read back with zlib (each mark
at its pixel in its colour); its errors; and, where Chromium is installed,
a render."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ET

import support
import picture
from group_testing import pictures

NS = {"s": "http://www.w3.org/2000/svg"}
ITEMS = [  # index, n, family, tests, surprise
    (0, 64, "uniform", 9, 7.25), (1, 300, "two-tier", 40, 21.5),
    (2, 128, "log-normal", 12, 12.75), (3, 512, "uniform", 50, 46.0),
    (4, 200, "two-tier", 20, 20.5), (5, 90, "log-normal", 7, 3.125),
]
HEADER = ["commit", "decision", "comparisons", "score_difference", "relative_tests",
          "status", "description"]
ROWS = [  # commit, decision, score_difference, status (total_gain after)
    ("a000001", "accept", "-0.0400 [-0.0600, -0.0200]", "keep", "-0.0400 [-0.0500, -0.0300]"),
    ("a000002", "reject", "0.0100 [-0.0100, 0.0300]", "discard", "-0.0150 [-0.0250, -0.005]"),
    ("a000003", "error", "-", "crash", "-"),
    ("a000004", "accept", "-0.0250 [-0.0400, -0.0100]", "keep", "-0.0700 [-0.0800, -0.0600]"),
]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-headless-shell")


def result_file(case, items=ITEMS, **extra):
    data = {"status": "valid", "relative_tests": 0.8125, "information_floor": 0.6923,
            "items": [{"index": i, "n": n, "family": f, "tests": t, "surprise": s,
                       "baseline": 60, "score": 0.5} for i, n, f, t, s in items]}
    data.update(extra)
    return support.write(case, "result.json", json.dumps(data))


def log_file(case, *, gain=False, header=HEADER, rows=ROWS):
    names = list(header) + ["total_gain", "reference"] * gain
    lines = ["\t".join(names)]
    for commit, decision, diff, status, total in rows:
        cells = {"commit": commit, "decision": decision, "comparisons": "40",
                 "score_difference": diff, "relative_tests": "0.9", "status": status,
                 "description": "idea <%s> & more" % commit, "total_gain": total,
                 "reference": "binary splitting"}
        lines.append("\t".join(cells[name] for name in names))
    return support.write(case, "results.tsv", "\n".join(lines) + "\n")


def run(*argv):
    """(status, stdout, stderr) of picture.main in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = picture.main(list(argv))
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


def png_of(case, svg_path, root):
    """The rows of the PNG beside `svg_path`, as large as the SVG `root`."""
    width, height, rows = support.read_png(case, support.read_bytes(svg_path[:-4] + ".png"))
    case.assertEqual((width, height), (int(root.get("width")), int(root.get("height"))))
    return rows


def blend(colour, alpha, under=255):
    """`colour` (#rrggbb) laid at `alpha` over the grey `under` (white, or a
    grid line's #e8e8e8), as bitmap.py rounds."""
    return tuple(int(under + (int(colour[k:k + 2], 16) - under) * alpha + 0.5)
                 for k in (1, 3, 5))


def frame(root):
    """(x_map, y_map) of the plot area: value -> px, as the picture rounds."""
    rect = root.find(".//s:rect[@class='frame']", NS)
    x, y = float(rect.get("x")), float(rect.get("y"))
    width, height = float(rect.get("width")), float(rect.get("height"))
    x0, x1 = map(float, rect.get("data-x-range").split())
    y0, y1 = map(float, rect.get("data-y-range").split())
    return (lambda v: float("%.2f" % (x + (v - x0) / (x1 - x0) * width)),
            lambda v: float("%.2f" % (y + height - (v - y0) / (y1 - y0) * height)))


class GapTest(unittest.TestCase):
    def draw(self, path, **options):
        out = os.path.join(support.tmpdir(self), "gap.svg")
        status, stdout, stderr = run("gap", "--result", path, "--out", out)
        self.assertEqual(status, 0, stderr)
        return ET.parse(out).getroot(), support.lines_of(stdout), out

    def test_one_circle_per_instance_where_its_bits_left_map_through_the_axes(self):
        root, lines, out = self.draw(result_file(self))
        circles = root.findall(".//s:circle[@class='instance']", NS)
        self.assertEqual(sorted(int(c.get("data-index")) for c in circles),
                         [item[0] for item in ITEMS])
        sx, sy = frame(root)
        for circle in circles:
            index, n, family, tests, surprise = ITEMS[int(circle.get("data-index"))]
            self.assertEqual(float(circle.get("cx")), sx(n))
            self.assertEqual(float(circle.get("cy")), sy(tests - surprise))
            self.assertEqual(circle.get("data-family"), family)
        zero = root.find(".//s:line[@class='zero-line']", NS)
        self.assertEqual((float(zero.get("y1")), float(zero.get("y2"))), (sy(0), sy(0)))
        self.assertEqual(lines["wrote"], out)
        self.assertEqual(lines["png"], out[:-len(".svg")] + ".png")
        self.assertEqual(lines["instances"], "6")
        self.assertEqual(lines["families"], "uniform 2, two-tier 2, log-normal 2")
        self.assertEqual(lines["most_bits_left"], "instance 1 (two-tier, n = 300): 18.50")

    def test_the_png_beside_it_has_each_circle_at_its_pixel_in_its_colour(self):
        root, _, out = self.draw(result_file(self))
        rows = png_of(self, out, root)
        sx, sy = frame(root)
        for index, n, family, tests, surprise in ITEMS:
            with self.subTest(index=index):
                self.assertIn(rows[int(sy(tests - surprise))][int(sx(n))],
                              [blend(pictures.COLOURS[family], 0.9, under)
                               for under in (255, 0xE8)])     # over white, or a grid line
        zero = root.find(".//s:line[@class='zero-line']", NS)
        self.assertEqual(rows[int(sy(0))][int(float(zero.get("x1"))) + 2], blend("#444444", 1))
        self.assertEqual(rows[int(sy(0)) - 2][int(float(zero.get("x1"))) + 2], (255, 255, 255))

    def test_the_legend_holds_the_results_families_and_the_title_its_figures(self):
        items = ITEMS + [(6, 100, "other's", 5, 4.0)]
        root, _, _ = self.draw(result_file(self, items))
        legend = [t.text.split(" (")[0] for t in root.findall(".//s:text[@data-for='instance']",
                                                            NS)]
        self.assertEqual(legend, ["uniform", "two-tier", "log-normal", "other's"])
        titles = " ".join(t.text for t in root.findall(".//s:text", NS)
                          if "title" in t.get("class", "").split())
        self.assertIn("tests minus its surprise", titles)
        self.assertIn("relative_tests 0.8125, information_floor 0.6923", titles)

    def test_a_failed_instance_is_left_out(self):
        path = result_file(self, status="invalid")
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        data["items"].append({"index": 6, "family": "uniform", "kind": "wrong"})
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        root, lines, _ = self.draw(path)
        self.assertEqual(len(root.findall(".//s:circle[@class='instance']", NS)), 6)
        self.assertEqual(lines["instances"], "6")

    def test_two_runs_write_the_same_bytes(self):
        path = result_file(self)
        _, _, first = self.draw(path)
        _, _, second = self.draw(path)
        for ext in (".svg", ".png"):
            with self.subTest(file=ext):
                self.assertEqual(support.read_bytes(first[:-4] + ext),
                                 support.read_bytes(second[:-4] + ext))

    def test_the_command_runs_as_a_process(self):
        out = os.path.join(support.tmpdir(self), "deeper", "gap.svg")
        status, stdout, stderr = support.run_command(
            self, "grader/picture.py", "gap", "--result", result_file(self), "--out", out)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(support.lines_of(stdout)["wrote"], out)
        self.assertEqual(support.lines_of(stdout)["png"], out[:-4] + ".png")
        png_of(self, out, ET.parse(out).getroot())


class HistoryTest(unittest.TestCase):
    def draw(self, path):
        out = os.path.join(support.tmpdir(self), "history.svg")
        status, stdout, stderr = run("history", "--log", path, "--out", out)
        self.assertEqual(status, 0, stderr)
        return ET.parse(out).getroot(), support.lines_of(stdout), out

    def marks(self, root):
        found = {}
        for css in ("kept", "discarded", "crashed"):
            found[css] = [(int(e.get("data-row")), e.get("data-commit"))
                          for e in root.iter() if e.get("class") == css]
        return found

    def heights(self, root, css):
        """The cy of each circle of class `css`, or a cross's centre."""
        found = []
        for mark in (e for e in root.iter() if e.get("class") == css):
            if mark.get("cy") is not None:
                found.append(float(mark.get("cy")))
            else:       # "Mx yL..": the first corner, a radius above the centre
                found.append(round(float(mark.get("d")[1:].split("L")[0].split()[1]) + 4.5, 2))
        return found

    def titles(self, root):
        return " ".join(t.text for t in root.findall(".//s:text", NS)
                        if "title" in t.get("class", "").split())

    def test_without_total_gain_the_kept_totals_are_cumulative(self):
        root, lines, _ = self.draw(log_file(self))
        self.assertEqual(self.marks(root), {"kept": [(1, "a000001"), (4, "a000004")],
                                            "discarded": [(2, "a000002")],
                                            "crashed": [(3, "a000003")]})
        self.assertIn("cumulative score_difference", self.titles(root))
        _, sy = frame(root)
        kept = [g for g in root.iter() if g.get("class") == "kept"]
        self.assertEqual([float(g.get("data-y")) for g in kept], [-0.04, -0.065])
        bar = kept[1].find("s:line", NS)
        self.assertEqual((float(bar.get("y1")), float(bar.get("y2"))), (sy(-0.1), sy(-0.03)))
        self.assertEqual(self.heights(root, "discarded"), [sy(-0.04 + 0.01)])
        self.assertEqual(self.heights(root, "crashed"), [sy(-0.04)])
        rows, (sx, _) = png_of(self, self.draw(log_file(self))[2], root), frame(root)
        for row, total in ((1, -0.04), (4, -0.065)):     # each kept row's square, its bar
            with self.subTest(row=row):
                self.assertEqual(rows[int(sy(total))][int(sx(row))], blend(pictures.KEPT, 1))
                self.assertEqual(rows[int(sy(total)) - 7][int(sx(row))],
                                 blend(pictures.KEPT, 1))
        self.assertEqual(lines["total_from"], "cumulative kept score_difference")
        self.assertEqual(lines["total"], "-0.0650 [-0.1000, -0.0300]")
        self.assertEqual((lines["rows"], lines["kept"], lines["discarded"], lines["crashed"]),
                         ("4", "2", "1", "1"))
        ticks = [t.text for t in root.findall(".//s:text", NS)
                 if "x-tick" in t.get("class", "").split()]
        self.assertEqual(ticks, ["1 a000001", "2 a000002", "3 a000003", "4 a000004"])

    def test_with_total_gain_the_kept_totals_are_the_logs(self):
        root, lines, _ = self.draw(log_file(self, gain=True))
        self.assertIn("total_gain", self.titles(root))
        kept = [g for g in root.iter() if g.get("class") == "kept"]
        self.assertEqual([float(g.get("data-y")) for g in kept], [-0.04, -0.07])
        self.assertEqual(lines["total_from"], "total_gain")
        self.assertEqual(lines["total"], "-0.0700 [-0.0800, -0.0600]")
        _, sy = frame(root)
        self.assertEqual(self.heights(root, "discarded"), [sy(-0.015)])   # its own
        self.assertEqual(self.heights(root, "crashed"), [sy(-0.04)])      # the total so far
        self.assertIn("fewer tests than the reference binary splitting",
                      " ".join(t.text for t in root.findall(".//s:text", NS)))

    def test_columns_are_read_by_name_in_any_order(self):
        first = self.draw(log_file(self))[0]
        turned = self.draw(log_file(self, header=HEADER[::-1]))[0]
        self.assertEqual(self.marks(first), self.marks(turned))
        self.assertEqual([g.get("data-y") for g in first.iter() if g.get("class") == "kept"],
                         [g.get("data-y") for g in turned.iter() if g.get("class") == "kept"])

    def test_two_runs_write_the_same_bytes(self):
        path = log_file(self, gain=True)
        first, second = self.draw(path)[2][:-4], self.draw(path)[2][:-4]
        for ext in (".svg", ".png"):
            with self.subTest(file=ext):
                self.assertEqual(support.read_bytes(first + ext),
                                 support.read_bytes(second + ext))


class BadInputTest(unittest.TestCase):
    def refused(self, *argv):
        status, stdout, stderr = run(*argv, "--out", os.path.join(support.tmpdir(self), "x.svg"))
        self.assertEqual(status, 2)
        self.assertEqual(stdout, "")
        return stderr

    def test_a_missing_file_is_named(self):
        missing = os.path.join(support.tmpdir(self), "nowhere.json")
        self.assertIn(repr(missing), self.refused("gap", "--result", missing))
        self.assertIn(repr(missing), self.refused("history", "--log", missing))

    def test_a_result_with_no_items_is_named(self):
        path = result_file(self, [])
        self.assertIn("%r has no items" % path, self.refused("gap", "--result", path))

    def test_a_result_with_a_bad_item_names_the_value(self):
        path = result_file(self, [(0, 64, "uniform", "nine", 7.25)])
        self.assertIn("items[0]['tests'] is 'nine'", self.refused("gap", "--result", path))

    def test_a_log_without_the_columns_is_named(self):
        path = log_file(self, header=[h for h in HEADER if h not in ("status",
                                                                     "score_difference")])
        message = self.refused("history", "--log", path)
        self.assertIn(repr(path), message)
        self.assertIn("'status'", message)
        self.assertIn("neither 'score_difference' nor 'total_gain'", message)

    def test_a_bad_interval_names_the_cell(self):
        path = log_file(self, rows=[("a000001", "accept", "-0.04 [low, high]", "keep", "-")])
        self.assertIn("'-0.04 [low, high]'", self.refused("history", "--log", path))

    def test_an_out_ending_png_is_refused_before_anything_is_written(self):
        folder = support.tmpdir(self)
        status, stdout, stderr = run("gap", "--result", result_file(self),
                                     "--out", os.path.join(folder, "gap.png"))
        self.assertEqual((status, stdout), (2, ""))
        self.assertIn("%r names the SVG" % os.path.join(folder, "gap.png"), stderr)
        self.assertEqual(os.listdir(folder), [])

    def test_bad_usage_is_status_2(self):
        self.assertIn("invalid choice: 'gapp'", self.refused("gapp"))


@unittest.skipUnless(CHROMIUM, "no chromium on PATH")
class RenderTest(unittest.TestCase):
    def test_chromium_renders_both_pictures(self):
        folder = support.tmpdir(self)
        for name, argv in (("gap", ["gap", "--result", result_file(self)]),
                           ("history", ["history", "--log", log_file(self, gain=True)])):
            svg, png = (os.path.join(folder, name + ext) for ext in (".svg", ".png"))
            self.assertEqual(run(*argv, "--out", svg)[0], 0)
            subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                            "--screenshot=" + png, "--window-size=900,600",
                            "file://" + svg], capture_output=True, timeout=60,
                           stdin=subprocess.DEVNULL, cwd=folder)
            self.assertGreater(os.path.getsize(png), 1000, name)


if __name__ == "__main__":
    unittest.main()
