"""The frozen data and the sets: drawn again byte for byte, pinned by their
SHA-256, with the figures the documentation gives."""

import hashlib
import importlib.util
import os
import shutil
import unittest

import tq_support
from tq import data, sets


def make_data():
    path = os.path.join(tq_support.PROJECT, "data", "make_data.py")
    spec = importlib.util.spec_from_file_location("tq_make_data", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FrozenDataTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.maker = make_data()
        cls.texts, cls.flipped = cls.maker.draw()

    def test_a_fresh_draw_is_the_files_byte_for_byte(self):
        for name in self.maker.FILES:
            with self.subTest(name=name):
                blob = self.texts[name].encode("utf-8")
                self.assertEqual(hashlib.sha256(blob).hexdigest(), data.SHA256[name])
                with open(os.path.join(data.DATA, name), "rb") as f:
                    self.assertEqual(f.read(), blob)

    def test_figures(self):
        figures = dict(self.maker.stats(self.texts, self.flipped))
        self.assertEqual(figures["animals"], 1472)
        self.assertEqual(figures["questions"], 559)
        self.assertEqual(figures["animals_sharing_a_row"], 0)
        self.assertEqual(figures["closest_rows_differ_in"], 10)
        self.assertEqual(figures["flipped_answers"], "20798 of 822848 (2.53%)")

    def test_load_checks_the_pinned_digests(self):
        table = data.load()
        self.assertEqual((len(table.animals), len(table.questions), len(table.rows)),
                         (1472, 559, 1472))
        self.assertEqual(table.questions[0], "Does it have trait-06 or trait-20?")
        self.assertIs(table.yes(3, 7), table.rows[3][7] == "1")
        folder = tq_support.tmpdir(self)
        for name in self.maker.FILES:
            shutil.copy(os.path.join(data.DATA, name), folder)
        with open(os.path.join(folder, "matrix.txt"), "r+b") as f:
            first = f.read(1)
            f.seek(0)
            f.write(b"1" if first == b"0" else b"0")
        with self.assertRaises(data.DataError) as caught:
            data.load(folder=folder)
        self.assertIn("not the pinned", str(caught.exception))
        os.unlink(os.path.join(folder, "animals_pool.txt"))
        with self.assertRaises(data.DataError) as caught:
            data.load(folder=folder)
        self.assertIn("cannot read", str(caught.exception))


class SetsTest(unittest.TestCase):
    def test_public_sets_are_drawn_again_byte_for_byte(self):
        dev, test, remainder = sets.public_split()
        self.assertEqual((len(dev), len(test), len(remainder)), (150, 500, 822))
        self.assertEqual(len(set(dev) | set(test) | set(remainder)), 1472)
        for path, animals in ((sets.DEV_FILE, dev), (sets.TEST_FILE, test)):
            with self.subTest(path=path):
                with open(path, encoding="utf-8") as f:
                    self.assertEqual(f.read(), sets.dumps(animals))
                self.assertEqual([i["animal"] for i in sets.read_set(path)], animals)

    def test_held_out_sets(self):
        remainder = set(sets.public_split()[2])
        first = sets.draw_held_out(128, "x")
        self.assertEqual(first, sets.draw_held_out(128, "x"))
        self.assertEqual(first[:5], sets.draw_held_out(5, "x"))
        self.assertNotEqual(first, sets.draw_held_out(128, "y"))
        self.assertEqual(len(set(first)), 128)
        self.assertLessEqual(set(first), remainder)
        for count in (0, 823, 1.0, True):
            with self.subTest(count=count):
                with self.assertRaises(ValueError):
                    sets.draw_held_out(count, "x")

    def test_pool_of(self):
        dev, test, remainder = sets.public_split()
        for animals, pool in ((dev, ("dev", 1472)), (dev[:3], ("dev", 1472)),
                              (test, ("test", 1322)), (remainder[:9], ("held-out", 822)),
                              (dev[:1] + test[:1], ("whole", 1472))):
            with self.subTest(animals=animals[:3]):
                self.assertEqual(sets.pool_of(animals), pool)

    def test_bad_set_files_name_the_line(self):
        for text, words in (
                ('{"animal": 1}\n{"animal": 1472}\n', "line 2: 'animal' must be an integer "
                                                      "in 0..1471, got 1472"),
                ('{"animal": -1}\n', "got -1"),
                ('{"animal": true}\n', "got True"),
                ('{"animal": 1.0}\n', "got 1.0"),
                ('{"animal": "1"}\n', "got '1'"),
                ('{"animal": 1, "x": 2}\n', "the one key 'animal'"),
                ('[1]\n', "got [1]"),
                ('{"animal": 4}\n{"animal": 4}\n', "line 2: animal 4 already came on line 1"),
                ('{"animal": NaN}\n', "line 1: not JSON"),
                ('{"animal": 1\n', "line 1: not JSON"),
                ('', "holds no round")):
            with self.subTest(text=text):
                path = os.path.join(tq_support.tmpdir(self), "set.jsonl")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                with self.assertRaises(sets.SetError) as caught:
                    sets.read_set(path)
                self.assertIn(words, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
