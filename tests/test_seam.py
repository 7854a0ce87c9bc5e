"""The template's seam: the SDK (grader/arh_grader) imports neither problem,
the template's statistics (sprt, binomial, sprt_exact, betting) import no
problem,
group testing's package (grader/group_testing) is imported only by its own
entry points and tools (grader/*.py) and the tests, and twenty questions
(examples/twenty-questions) reaches the root through the SDK, the
statistics and the comparison's state file and log (compare_state,
compare_log) alone.

Read twice: from the source (every import statement, whatever branch it is
in) and from a fresh interpreter (the modules each problem's commands load).
"""

import ast
import json
import os
import subprocess
import sys
import unittest

import support

GRADER = os.path.join(support.ROOT, "grader")
TQ = os.path.join(support.ROOT, "examples", "twenty-questions")
STATISTICS = {"sprt", "binomial", "sprt_exact", "betting"}   # the template's tools, no problem
COMPARISON = {"compare_state", "compare_log"}   # a comparison's state and log: group testing's
# modules load only when its own entries are checked, never in twenty questions' run (LoadedTest)
STDLIB = set(sys.stdlib_module_names)


def python_files(folder):
    for path, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(path, name)


def imported(path):
    """The top-level names a file imports absolutely ("" for relative ones)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("" if node.level else node.module.split(".")[0])
    return names


class SourceTest(unittest.TestCase):
    def assert_imports_within(self, paths, allowed):
        for path in paths:
            with self.subTest(file=os.path.relpath(path, support.ROOT)):
                self.assertEqual(imported(path) - STDLIB - {""} - allowed, set())

    def test_the_sdk_imports_the_standard_library_and_itself_only(self):
        self.assert_imports_within(python_files(os.path.join(GRADER, "arh_grader")), set())

    def test_the_statistics_import_no_problem(self):
        self.assert_imports_within([os.path.join(GRADER, name + ".py") for name in STATISTICS],
                                   STATISTICS)

    def test_group_testing_imports_the_sdk_only(self):
        self.assert_imports_within(python_files(os.path.join(GRADER, "group_testing")),
                                   {"arh_grader"})

    def test_twenty_questions_imports_the_sdk_and_the_statistics_only(self):
        paths = [p for folder in ("tq", "harness", "src")
                 for p in python_files(os.path.join(TQ, folder))]
        self.assertGreater(len(paths), 10)
        self.assert_imports_within(paths, {"arh_grader", "tq"} | STATISTICS | COMPARISON)

    def test_only_group_testings_entry_points_and_tests_import_its_package(self):
        importers = set()
        for top in ("grader", "harness", "src", "examples", "tests"):
            for path in python_files(os.path.join(support.ROOT, top)):
                if "group_testing" in imported(path):
                    importers.add(os.path.relpath(os.path.dirname(path), support.ROOT))
        self.assertEqual(importers, {"grader", "tests"})


LOADED = """
import json, sys
sys.path[:0] = sys.argv[2:]
for name in sys.argv[1].split(","):
    __import__(name)
print(json.dumps(sorted(name.split(".")[0] for name in sys.modules)))
"""


class LoadedTest(unittest.TestCase):
    def loaded(self, modules, *path):
        done = subprocess.run([sys.executable, "-c", LOADED, ",".join(modules), *path],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        return set(json.loads(done.stdout))

    def test_twenty_questions_commands_load_nothing_of_group_testing(self):
        names = self.loaded(["tq.local", "tq.selfcheck", "tq.compare", "tq.grade", "tq.report"],
                            TQ, GRADER)
        self.assertIn("arh_grader", names)
        self.assertIn("sprt", names)
        self.assertEqual(names & {"group_testing", "grade", "local", "selfcheck", "report"},
                         set())

    def test_group_testing_commands_load_nothing_of_twenty_questions(self):
        names = self.loaded(["grade", "local", "selfcheck", "compare", "report"], GRADER)
        self.assertIn("group_testing", names)
        self.assertNotIn("tq", names)

    def test_the_sdk_alone_loads_no_problem(self):
        names = self.loaded(["arh_grader", "arh_grader.local_run", "arh_grader.report"], GRADER)
        self.assertEqual(names & {"group_testing", "tq", "grade", "sprt"}, set())


if __name__ == "__main__":
    unittest.main()
