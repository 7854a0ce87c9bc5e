"""tq/report.py, the template's report with twenty questions' description,
on real results of a few dev rounds (tq/local.py): the numbers it prints
are result.json's, a comparison counts wins, losses and draws as the items
do, the picture has one mark per round, and results of other rounds and
files that are no result are refused, named."""

import concurrent.futures
import json
import math
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
import zlib

import tq_support
from arh_grader import report

LOCAL = os.path.join(tq_support.PROJECT, "tq", "local.py")
REPORT = os.path.join(tq_support.PROJECT, "tq", "report.py")
ROUNDS = 12             # dev rounds each run plays
SVG = "{http://www.w3.org/2000/svg}"


def run(*args, cwd=tq_support.PROJECT):
    """A Python script in a real process: (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def lines_of(stdout):
    """The `key: value` lines of an output, as a dict (a key's last line)."""
    return dict(line.split(": ", 1) for line in stdout.splitlines() if ": " in line)


def png_size(case, path):
    """(width, height) of the PNG file `path`, each chunk's CRC checked and
    its pixels' bytes counted: a row's filter byte and 3 bytes a pixel."""
    with open(path, "rb") as f:
        data = f.read()
    case.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
    at, chunks = 8, {}
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        case.assertEqual(struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0],
                         zlib.crc32(kind + body), kind)
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    case.assertEqual(chunks[b"IHDR"][8:], bytes([8, 2, 0, 0, 0]))      # 8-bit RGB
    case.assertEqual(len(zlib.decompress(chunks[b"IDAT"])), height * (3 * width + 1))
    return width, height


def rows(stdout, key):
    """The whitespace-split cells of the `key:` rows, header first."""
    return [line.split()[1:] for line in stdout.splitlines() if line.startswith(key + ": ")]


class ReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        """Runs of the baseline (the frozen copy of the shipped tester) and
        of fixed_order on the first dev rounds, and two of other rounds,
        each in a folder of the temporary one (which the runs are started
        from); the tests only read them."""
        cls.folder = tempfile.mkdtemp(prefix="tq-report-")
        cls.addClassCleanup(shutil.rmtree, cls.folder, True)
        cls.paths, cls.results, cls.stdout = {}, {}, {}
        runs = (
                ("shipped", ["--limit", str(ROUNDS), "--tester", tq_support.BASELINE]),
                ("fixed_order", ["--limit", str(ROUNDS), "--tester",
                                 tq_support.tester("fixed_order")]),
                ("test_set", ["--limit", "3", "--tester", tq_support.BASELINE, "--items",
                              os.path.join(tq_support.PROJECT, "sample", "test.jsonl")]),
                ("later", ["--only", "%d,%d" % (ROUNDS, ROUNDS + 1),
                           "--tester", tq_support.BASELINE]))
        with concurrent.futures.ThreadPoolExecutor(len(runs)) as pool:   # each its own folder
            done = list(pool.map(lambda run_of: run(LOCAL, "--out", run_of[0], *run_of[1],
                                                    cwd=cls.folder), runs))
        for (name, _), (status, stdout, stderr) in zip(runs, done):
            if status != 0:
                raise RuntimeError("tq/local.py for %s: %s" % (name, stderr[-2000:]))
            cls.paths[name] = os.path.join(cls.folder, name, "result.json")
            cls.stdout[name] = stdout
            with open(cls.paths[name], encoding="utf-8") as f:
                cls.results[name] = json.load(f)

    def report(self, *args):
        return run(REPORT, *args)

    def test_local_prints_the_command_that_reports(self):
        lines = lines_of(self.stdout["shipped"])
        self.assertEqual(lines["result"], os.path.join("shipped", "result.json"))
        self.assertEqual(lines["report"], "python3 %s %s --svg %s" % (
            REPORT, os.path.join("shipped", "result.json"), os.path.join("shipped", "result.svg")))
        self.assertEqual(self.stdout["shipped"].splitlines()[-1], "report: " + lines["report"])
        status, stdout, stderr = run(*lines["report"].split()[1:], cwd=self.folder)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(lines_of(stdout)["svg"], os.path.join("shipped", "result.svg"))
        self.assertTrue(os.path.exists(os.path.join(self.folder, "shipped", "result.svg")))

    def test_the_numbers_printed_are_result_json_s(self):
        for name in ("shipped", "fixed_order"):
            with self.subTest(result=name):
                status, stdout, stderr = self.report(self.paths[name])
                self.assertEqual(status, 0, stderr)
                lines, result = lines_of(stdout), self.results[name]
                self.assertEqual([line.split(":")[0] for line in stdout.splitlines()[:7]],
                                 ["result", "status", "kind", "instances", "mean_score",
                                  "bound", "gap"])
                self.assertEqual((lines["result"], lines["status"], lines["kind"],
                                  lines["instances"]),
                                 (self.paths[name], "valid", "none", str(ROUNDS)))
                self.assertEqual(float(lines["mean_score"]), result["mean_score"])
                self.assertEqual(float(lines["bound"]), result["bound"])
                self.assertEqual(float(lines["gap"]),
                                 round(result["bound"] - result["mean_score"], 6))

    def test_the_rounds_furthest_below_their_bound(self):
        status, stdout, _ = self.report(self.paths["fixed_order"], "--top", "5")
        self.assertEqual(status, 0)
        table = rows(stdout, "below_bound")
        self.assertEqual(table[0], ["index", "calls", "found", "score", "bound", "gap",
                                    "saved_bits"])
        items = sorted(self.results["fixed_order"]["items"],
                       key=lambda e: (e["score"] - e["bound"], e["index"]))[:5]
        self.assertEqual(table[1:], [
            [str(e["index"]), str(e["calls"]), "true" if e["found"] else "false",
             "%.6f" % e["score"], "%.6f" % e["bound"], "%+.6f" % (e["bound"] - e["score"]),
             "%+.6f" % e["saved_bits"]] for e in items])

    def test_against_counts_wins_losses_and_draws(self):
        svg = os.path.join(tq_support.tmpdir(self), "against.svg")
        status, stdout, stderr = self.report(self.paths["shipped"], "--against",
                                             self.paths["fixed_order"], "--svg", svg)
        self.assertEqual(status, 0, stderr)
        lines = lines_of(stdout)
        self.assertEqual(lines["against"], self.paths["fixed_order"])
        pairs = list(zip(self.results["shipped"]["items"], self.results["fixed_order"]["items"]))
        wins = sum(a["score"] > b["score"] for a, b in pairs)
        losses = sum(a["score"] < b["score"] for a, b in pairs)
        self.assertEqual((lines["compared"], lines["W/L/D"]),
                         (str(ROUNDS), "%d/%d/%d" % (wins, losses, ROUNDS - wins - losses)))
        differences = [a["score"] - b["score"] for a, b in pairs]
        mean = statistics.fmean(differences)
        self.assertEqual(float(lines["mean_difference"]), round(mean, 6))
        half = report.t_quantile(0.975, ROUNDS - 1) * statistics.stdev(differences) \
            / math.sqrt(ROUNDS)
        self.assertEqual(json.loads(lines["mean_difference_ci95"]),
                         [round(mean - half, 6), round(mean + half, 6)])
        self.assertEqual(lines["interval"], "Student's t, %d degrees of freedom, on the paired "
                                            "differences" % (ROUNDS - 1))
        lost = sorted((p for p in pairs if p[0]["score"] < p[1]["score"]),
                      key=lambda p: (p[0]["score"] - p[1]["score"], p[0]["index"]))
        self.assertEqual(rows(stdout, "lost_most"), [
            ["index", "calls", "against_calls", "score", "against_score", "difference"]] + [
            [str(a["index"]), str(a["calls"]), str(b["calls"]), "%.6f" % a["score"],
             "%.6f" % b["score"], "%+.6f" % (a["score"] - b["score"])] for a, b in lost])
        root = ET.parse(svg).getroot()
        for kind in ("instance", "difference"):
            with self.subTest(mark=kind):
                marks = [c for c in root.iter(SVG + "circle") if c.get("class") == kind]
                self.assertEqual(sorted(int(c.get("data-index")) for c in marks),
                                 list(range(ROUNDS)))

    def test_the_picture_has_one_mark_per_round(self):
        svg = os.path.join(tq_support.tmpdir(self), "result.svg")
        status, stdout, stderr = self.report(self.paths["shipped"], "--svg", svg)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(lines_of(stdout)["svg"], svg)
        root = ET.parse(svg).getroot()
        self.assertEqual(root.tag, SVG + "svg")
        # the same picture as PNG beside it, as large
        self.assertEqual(lines_of(stdout)["png"], svg[:-len(".svg")] + ".png")
        self.assertEqual(png_size(self, lines_of(stdout)["png"]),
                         (int(root.get("width")), int(root.get("height"))))
        marks = [c for c in root.iter(SVG + "circle") if c.get("class") == "instance"]
        self.assertEqual(sorted(int(c.get("data-index")) for c in marks), list(range(ROUNDS)))
        self.assertEqual([c for c in root.iter(SVG + "circle")
                          if c.get("class") == "difference"], [])
        words = " ".join(t.text or "" for t in root.iter(SVG + "text"))
        result = self.results["shipped"]
        for shown in ("mean_score %.4f, bound %.4f" % (result["mean_score"], result["bound"]),
                      "round (its index in the set)", "its bound", "all (%d)" % ROUNDS):
            self.assertIn(shown, words)
        # across, the round's index; each round's bound a dash centred on its circle
        dashes = [line for line in root.iter(SVG + "line") if line.get("class") == "floor-line"]
        self.assertEqual(len(dashes), ROUNDS + 1)              # and one in the legend
        centres = sorted(round((float(d.get("x1")) + float(d.get("x2"))) / 2, 1)
                         for d in dashes[:ROUNDS])
        self.assertEqual(centres, sorted(float(c.get("cx")) for c in marks))
        xs = {int(c.get("data-index")): float(c.get("cx")) for c in marks}
        self.assertEqual(sorted(xs, key=xs.get), list(range(ROUNDS)))

    def test_a_result_against_itself_is_all_draws(self):
        status, stdout, _ = self.report(self.paths["shipped"], "--against",
                                        self.paths["shipped"])
        lines = lines_of(stdout)
        self.assertEqual((status, lines["W/L/D"], lines["mean_difference"]),
                         (0, "0/0/%d" % ROUNDS, "0.0"))
        self.assertEqual(rows(stdout, "lost_most")[1:], [])

    def test_results_of_other_rounds_are_refused(self):
        mine, test_set, later = (self.paths[k] for k in ("shipped", "test_set", "later"))
        cases = [
            (test_set, "%r and %r are results of different sets: instance 0 is bound=%r in one "
             "and bound=%r in the other" % (mine, test_set, self.results["shipped"]["items"][0]
                                            ["bound"], self.results["test_set"]["items"][0]
                                            ["bound"])),
            (later, "%r and %r have no instance that passed in both" % (mine, later)),
        ]
        for other, words in cases:
            with self.subTest(other=os.path.basename(os.path.dirname(other))):
                status, stdout, stderr = self.report(mine, "--against", other)
                self.assertEqual((status, stdout, stderr), (2, "", "report: %s\n" % words))

    def test_files_that_are_no_result_are_named(self):
        folder = tq_support.tmpdir(self)
        dev = os.path.join(tq_support.PROJECT, "sample", "dev.jsonl")
        no_items = os.path.join(folder, "no_items.json")
        with open(no_items, "w", encoding="utf-8") as f:
            json.dump({"status": "valid"}, f)
        no_calls = os.path.join(folder, "no_calls.json")
        broken = json.loads(json.dumps(self.results["shipped"]))
        del broken["items"][2]["calls"]
        with open(no_calls, "w", encoding="utf-8") as f:
            json.dump(broken, f)
        missing = os.path.join(folder, "missing.json")
        cases = [
            ((dev,), "%r is not JSON: Extra data" % dev),
            ((no_items,), "%r is not a result.json: it needs 'status' and an 'items' list"
             % no_items),
            ((no_calls,), "%r is not a result.json: items[2]['calls'] is None" % no_calls),
            ((missing,), "cannot read %r: No such file or directory" % missing),
            ((self.paths["shipped"], "--against", dev), "%r is not JSON" % dev),
        ]
        for args, words in cases:
            with self.subTest(args=[os.path.basename(a) for a in args]):
                status, stdout, stderr = self.report(*args)
                self.assertEqual((status, stdout), (2, ""))
                self.assertTrue(stderr.startswith("report: " + words), stderr)


if __name__ == "__main__":
    unittest.main()
