"""tests/run.py, the suite's runner: every module it knows is a file, the
modules' Pythons write their compiled files to its cache whatever the
environment says, the cache forgets the copies of the project that are
gone, a .pyc written into the tree is found, and the README says how
many modules run at a time."""

import os
import re
import shutil
import sys
import tempfile
import unittest
from unittest import mock

import support

sys.path.insert(0, os.path.join(support.ROOT, "tests"))
import run  # noqa: E402  (tests/run.py)


class RunnerTest(unittest.TestCase):
    def test_every_timed_module_is_a_module_and_both_problems_are_in(self):
        found = run.modules()
        self.assertEqual(sorted(set(run.SECONDS) - set(found)), [])
        self.assertIn("test_fit", found)
        self.assertEqual(found["test_tq_rules"], run.EXAMPLES[0])
        self.assertEqual(found["test_gi_task"], run.EXAMPLES[1])
        for name, folder in found.items():
            with self.subTest(module=name):
                self.assertTrue(os.path.isfile(os.path.join(folder, name + ".py")))

    def test_the_readme_says_how_many_modules_run_at_a_time(self):
        words = {3: "three", 4: "four", 5: "five", 6: "six"}
        with open(os.path.join(support.ROOT, "README.md"), encoding="utf-8") as f:
            line = re.search(r"^python3 tests/run.py +# (.*)$", f.read(), re.M).group(1)
        self.assertTrue(line.startswith("run the tests, %s modules at a time" % words[run.JOBS]),
                        line)

    def test_modules_write_their_compiled_files_to_the_cache(self):
        with mock.patch.dict(os.environ, {"PYTHONDONTWRITEBYTECODE": "1"}):
            env = run.module_env("a%sb" % os.pathsep)
        self.assertNotIn("PYTHONDONTWRITEBYTECODE", env)
        self.assertEqual((env["PYTHONPYCACHEPREFIX"], env["PYTHONPATH"]),
                         (run.CACHE, "a%sb" % os.pathsep))

    def test_compiled_files_in_the_tree_are_found_but_in_git(self):
        root = support.tmpdir(self)
        for path in ("grader/__pycache__/a.cpython-311.pyc", "b.pyc", "grader/c.py",
                     ".git/objects/d.pyc", "x/.git/e.pyc"):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            open(os.path.join(root, path), "wb").close()
        self.assertEqual(sorted(os.path.relpath(p, root) for p in run.compiled_in_tree(root)),
                         ["b.pyc", "grader/__pycache__/a.cpython-311.pyc"])

    def test_the_cache_forgets_the_folders_that_are_gone(self):
        cache = support.tmpdir(self)
        present = tempfile.mkdtemp(prefix="runner-present-")
        self.addCleanup(shutil.rmtree, present, True)
        gone = tempfile.mkdtemp(prefix="runner-gone-")
        os.rmdir(gone)
        mirrored = os.path.join(cache, os.path.relpath(tempfile.gettempdir(), os.sep))
        for folder in (present, gone):
            os.makedirs(os.path.join(mirrored, os.path.basename(folder), "grader"))
        run.forget_gone(cache)
        self.assertEqual(sorted(os.listdir(mirrored)), [os.path.basename(present)])
        run.forget_gone(os.path.join(cache, "none"))      # no cache yet: nothing to do


if __name__ == "__main__":
    unittest.main()
