"""tq/draw.py, the sets' command: a held-out set is its seed's, a set's
figures are sets.stats', and a bad file is named with exit status 2."""

import os
import subprocess
import sys
import unittest

import tq_support
from tq import sets

DRAW = os.path.join(tq_support.PROJECT, "tq", "draw.py")


def draw(*args):
    done = subprocess.run([sys.executable, DRAW, *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


class DrawTest(unittest.TestCase):
    def test_a_held_out_set_is_its_seed_s(self):
        status, out, err = draw("--count", "7", "--seed", "s")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out, sets.dumps(sets.draw_held_out(7, "s")))
        self.assertEqual(len(out.splitlines()), 7)
        self.assertNotEqual(draw("--count", "7", "--seed", "t")[1], out)

    def test_the_figures_of_a_set_are_sets_stats(self):
        status, out, _ = draw("--stats", sets.TEST_FILE)
        animals = [item["animal"] for item in sets.read_set(sets.TEST_FILE)]
        self.assertEqual(status, 0)
        self.assertEqual(out.splitlines(), ["set: %s" % sets.TEST_FILE] + [
            "%s: %s" % pair for pair in sets.stats(animals)])

    def test_a_file_it_cannot_use_is_named(self):
        folder = tq_support.tmpdir(self)
        bad = os.path.join(folder, "bad.jsonl")
        with open(bad, "w") as f:
            f.write('{"animal": 1472}\n')
        for path in (bad, os.path.join(folder, "missing.jsonl")):
            with self.subTest(path=path):
                status, out, err = draw("--stats", path)
                self.assertEqual((status, out), (2, ""))
                self.assertTrue(err.startswith("draw: ") and err.endswith("\n"), err)
                self.assertIn(os.path.basename(path), err)


if __name__ == "__main__":
    unittest.main()
