"""Graph isomorphism's documents: every figure PROGRAM.md and README.md give
of the rules is the code's (the task's numbers, the budgets, the limits on
files and output, the emulated CPU), and README's file table is the
folder."""

import os
import re
import unittest

import gi_support
from gi import comparison, emulator, fetch, frames, rules, task, tree
from gi.plugin import PROBLEM


def raw(name):
    with open(os.path.join(gi_support.PROJECT, name), encoding="utf-8") as f:
        return f.read()


def read(name):
    return " ".join(raw(name).split())


def said(case, text, name="PROGRAM.md"):
    case.assertIn(" ".join(text.split()), read(name))


class ProgramTest(unittest.TestCase):
    def test_the_task_s_numbers(self):
        said(self, "(n from %d to %d), each of its possible edges present with probability %s"
             % (task.N_MIN, task.N_MAX, task.EDGE_CHANCE))

    def test_the_budgets(self):
        said(self, "more than %s instructions plus %d times the incumbent's whole count"
             % (format(rules.CAP_SLACK, ","), rules.ITEM_FACTOR))
        said(self, "one problem scored over %d" % rules.ITEM_FACTOR)

    def test_the_limits_and_the_emulator(self):
        self.assertEqual((rules.MAX_BYTES, frames.MAX_ANSWER_BYTES, frames.MAX_OUTPUT_BYTES),
                         (1 << 20,) * 3)
        said(self, "(at most %d files, 1 MiB in all, `%s` among them)"
             % (rules.MAX_FILES, rules.ENTRY))
        said(self, "is over 1 MiB")
        said(self, "(`qemu-x86_64`, CPU model %s, guest addresses from a fixed base, a fixed"
             " environment, at most %d GiB of address space)" % (tree.CPU,
                                                                 emulator.MEMORY_BYTES >> 30))

    def test_the_comparison_s_set_size_and_score(self):
        said(self, "the platform scores a held-out set of %d drawn the same way"
             % comparison.SET_SIZE)
        said(self, "(%d * P + I) / (%d * P_ref + I_ref)" % ((comparison.SET_SIZE,) * 2))
        said(self, "`mmi` in `autoresearch.toml`: %d%%"
             % round(100 * PROBLEM.table("metric")["mmi"]))

    def test_every_kind_of_a_run_is_explained(self):
        text = read("PROGRAM.md")
        kinds = ["bad_source", "solver_failed", "solver_timeout", "output_too_large",
                 "threads", "escape", "over_budget", "over_item_budget", "wrong"]
        self.assertEqual(re.findall(r"^- `([a-z_]+)`:", raw("PROGRAM.md"), re.M), kinds)
        self.assertTrue(all(kind in text for kind in frames.PLUGIN_KINDS))


class LicencesTest(unittest.TestCase):
    def test_every_pin_has_its_row_and_licence(self):
        pins = fetch.load_pins()
        rows = [[cell.strip() for cell in line.strip("|").split("|")]
                for line in raw("LICENCES.md").splitlines()[2:] if line.startswith("| `")]
        self.assertEqual([(row[0].strip("`"), row[1]) for row in rows],
                         [(deb[0], deb[1]) for deb in pins["debs"]]
                         + [(wheel[0], wheel[1]) for wheel in pins["wheels"]]
                         + [("qemu-plugin.h", pins["qemu_source"]["version"])]
                         + [(deb[0], deb[1]) for deb in pins["emulator"]["debs"]])
        self.assertTrue(all(row[3] for row in rows), rows)


class ReadmeTest(unittest.TestCase):
    def test_its_first_lines_are_the_run_and_the_tests(self):
        block = raw("README.md").split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
        self.assertEqual([line.split("  #")[0].strip() for line in block], [
            "python3 gi/setup.py && python3 gi/local.py",
            "python3 -m unittest discover -s tests && python3 -m unittest discover -s "
            "tests/emulated"])
        for folder in ("tests", os.path.join("tests", "emulated")):
            modules = [name for name in os.listdir(os.path.join(gi_support.PROJECT, folder))
                       if name.startswith("test_") and name.endswith(".py")]
            self.assertTrue(modules, folder)

    def test_its_file_table_is_the_folder(self):
        table = raw("README.md").split("\n## Files\n")[1]
        named = [path for row in table.splitlines() if row.startswith("| `")
                 for path in re.findall(r"`([^`]+)`", row.split(" | ")[0])]
        for path in named:
            with self.subTest(path=path):
                self.assertTrue(os.path.exists(os.path.join(gi_support.PROJECT, path)), path)
        code = sorted(os.path.join(folder, name) + ("/" if "." not in name else "")
                      for folder in ("gi", "plugin")
                      for name in os.listdir(os.path.join(gi_support.PROJECT, folder))
                      if name.endswith((".py", ".c", ".h", ".json", ".txt")) or "." not in name
                      if name not in ("__init__.py", "sdk_path.py", "__pycache__"))
        self.assertEqual(sorted(p for p in named if p.startswith(("gi/", "plugin/"))), code)


if __name__ == "__main__":
    unittest.main()
