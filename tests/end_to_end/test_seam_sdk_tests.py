"""The SDK's tests (tests/sdk/) test the SDK alone, on the toy problem
(tests/sdk/toy.py): no module there imports group testing's package or
twenty questions', nor reaches group testing through support.py (its
plug-in, rules, sample, testers, the oracle's default rules, the worker),
nor names group testing's files. The helper modules of tests/ they import
are held to the same rule, support.py apart, whose group testing share is
imported only when a test asks for it.

Read twice, as test_seam_imports.py reads the SDK: from the source (every
import and every use of support's names, whatever branch or function it is
in) and from a fresh interpreter that imports every module of tests/sdk/.
Each check is first shown to catch a module that breaks the rule.
"""

import ast
import json
import os
import subprocess
import sys
import unittest

import support
from support import python_files

TESTS = os.path.join(support.ROOT, "tests")
SDK_TESTS = os.path.join(TESTS, "sdk")
GRADER = os.path.join(support.ROOT, "grader")
PACKAGES = {"group_testing", "tq"}          # the problems' packages
# support.py's names for group testing's share: its plug-in and rules, its files, a
# whole run of it, a secret of its, its worker
GROUP_TESTINGS = {"PROBLEM", "problem", "group_testing", "SAMPLE", "SPLITTING", "SHIPPED",
                  "INFORMED", "TESTERS", "evaluate_local", "secret", "start_worker"}
FILES = ("grader/group_testing", "sample/", "src/tester", "tests/testers", "harness/worker.py")
PARTS = {"group_testing", "sample", "testers"}     # the same, as parts of os.path.join


def problem_uses(text, name="<text>"):
    """What in the Python `text` reaches either problem, as (line, words):
    an import of group_testing or tq (by statement or by __import__ and
    import_module), a name of support's for group testing's share, a call of
    support.start_oracle that leaves it group testing's rules, a string
    (not a docstring) naming group testing's files."""
    tree = ast.parse(text, name)
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)
                  and isinstance(node.value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        modules = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            modules = [node.module]
            if node.module == "support":
                found += [(node.lineno, "from support import %s" % alias.name)
                          for alias in node.names if alias.name in GROUP_TESTINGS | {"*"}]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = getattr(node.func, "id", getattr(node.func, "attr", None))
            if called in ("__import__", "import_module"):
                modules = [str(node.args[0].value)]
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "support" and node.attr in GROUP_TESTINGS:
            found.append((node.lineno, "support.%s" % node.attr))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "start_oracle" \
                and getattr(node.func.value, "id", None) == "support" \
                and not {"check", "answer"} <= {k.arg for k in node.keywords}:
            found.append((node.lineno, "support.start_oracle with group testing's rules"))
        if isinstance(node, ast.Constant) and type(node.value) is str \
                and id(node) not in docstrings \
                and (node.value in PARTS or any(f in node.value for f in FILES)):
            found.append((node.lineno, "the path %r" % node.value))
        found += [(node.lineno, "import %s" % module) for module in modules
                  if module.split(".")[0] in PACKAGES]
    return sorted(found)


def top_level_imports(text):
    """The modules `text` imports when it is imported: outside its functions."""
    names, todo = set(), list(ast.parse(text).body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module.split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return names


def sdk_modules():
    """{module name: path} of every module of tests/sdk/."""
    return {os.path.basename(path)[:-3]: path for path in python_files(SDK_TESTS)}


def helpers():
    """{module name: path} of the modules of tests/ that tests/sdk/ imports."""
    own = {name[:-3]: os.path.join(TESTS, name) for name in os.listdir(TESTS)
           if name.endswith(".py")}
    used = set()
    for path in sdk_modules().values():
        with open(path, encoding="utf-8") as f:
            used |= top_level_imports(f.read())
    return {name: own[name] for name in sorted(used & set(own))}


IMPORTS = """
import json, sys
sys.path[:0] = sys.argv[2:]
for name in sys.argv[1].split(","):
    __import__(name)
print(json.dumps(sorted(sys.modules)))
"""


def loaded(modules, *path):
    """The modules loaded, by their dotted names, once a fresh interpreter
    (no .pyc written) has imported `modules` with `path` first on sys.path."""
    done = subprocess.run([sys.executable, "-B", "-c", IMPORTS, ",".join(modules), *path],
                          capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise AssertionError("importing %s failed:\n%s" % (modules, done.stderr))
    return {name for name in json.loads(done.stdout) if name.split(".")[0] in PACKAGES}


class SourceTest(unittest.TestCase):
    def test_the_check_catches_each_way_of_reaching_a_problem(self):
        for text, words in (
                ("import group_testing\n", "import group_testing"),
                ("from group_testing import plugin\n", "import group_testing"),
                ("import tq.plugin as p\n", "import tq.plugin"),
                ("x = __import__('group_testing.problem')\n", "import group_testing.problem"),
                ("from support import PROBLEM\n", "from support import PROBLEM"),
                ("from support import *\n", "from support import *"),
                ("def f():\n    return support.SAMPLE\n", "support.SAMPLE"),
                ("support.problem.cap(64)\n", "support.problem"),
                ("support.start_worker(self, url)\n", "support.start_worker"),
                ("support.start_oracle(self)\n", "support.start_oracle with group testing's"),
                ("support.start_oracle(self, check=c)\n", "support.start_oracle with group"),
                ("p = os.path.join(ROOT, 'tests/testers/splitting.py')\n", "the path"),
                ("p = os.path.join(ROOT, 'sample', 'items.jsonl')\n", "the path 'sample'")):
            with self.subTest(text=text):
                uses = problem_uses(text)
                self.assertTrue(any(use.startswith(words) for _, use in uses), uses)
        clean = ('"""Nothing of group_testing here: a docstring may name it."""\n'
                 "import support\nimport toy\nfrom support import tmpdir\n"
                 "support.start_oracle(self, check=c, answer=a)\nsupport.tmpdir(self)\n")
        self.assertEqual(problem_uses(clean), [])

    def test_no_sdk_test_nor_its_helpers_reach_a_problem(self):
        modules = {**sdk_modules(), **helpers()}
        self.assertGreaterEqual(len(sdk_modules()), 16)
        self.assertEqual(set(helpers()), {"fuzz", "support"})
        for name, path in sorted(modules.items()):
            with self.subTest(module=os.path.relpath(path, support.ROOT)):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if name == "support":           # its share is group testing's, on demand
                    self.assertEqual(top_level_imports(text) & PACKAGES, set())
                else:
                    self.assertEqual(problem_uses(text, path), [])

    def test_support_imports_group_testing_only_inside_a_function(self):
        self.assertEqual(top_level_imports("import os\ndef f():\n    import group_testing\n"),
                         {"os"})
        self.assertEqual(top_level_imports("if x:\n    from tq import plugin\n"), {"tq"})
        with open(os.path.join(TESTS, "support.py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        anywhere = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        self.assertIn("group_testing", anywhere)
        self.assertNotIn("group_testing", top_level_imports(ast.unparse(tree)))


class LoadedTest(unittest.TestCase):
    def test_importing_every_sdk_test_loads_neither_problem(self):
        path = (SDK_TESTS, TESTS, GRADER)
        self.assertEqual(loaded(sorted(sdk_modules()), *path), set())

    def test_the_check_catches_a_module_that_loads_group_testing(self):
        folder = support.tmpdir(self)
        for name, text in (("quiet", "import support\n"),
                           ("loud", "import support\nsupport.PROBLEM\n"),
                           ("rules", "from support import problem\n")):
            with open(os.path.join(folder, name + ".py"), "w", encoding="utf-8") as f:
                f.write(text)
        self.assertEqual(loaded(["quiet"], folder, TESTS), set())
        for name in ("loud", "rules"):
            with self.subTest(module=name):
                self.assertIn("group_testing.plugin", loaded([name], folder, TESTS))


if __name__ == "__main__":
    unittest.main()
