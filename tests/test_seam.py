"""The template's seam: the SDK (grader/arh_grader, with its comparison
package arh_grader.compare: the tests, the state file, the log) imports
neither problem, and none of its modules takes part in an import circle;
group testing's package (grader/group_testing) is imported only by its own
entry points and tools (grader/*.py) and the tests, and twenty questions
(examples/twenty-questions) reaches the root through the SDK's packages
alone, never a module of grader/'s top level. On the worker's side, the worker template
(harness/arh_worker.py and its oracle link) imports the standard library
only; each problem's worker imports the template alone, twenty questions'
finding it in the repository's harness/ or, as in its image, beside
itself; and neither a worker nor a tester loads anything of the grader.

Read twice: from the source (every import statement, whatever branch it is
in) and from a fresh interpreter (the modules each problem's commands load).

The seam itself is one class, arh_grader.Problem: every problem object in
the tree is one, its abstract members are the ones its docstring lists,
a class lacking one cannot be made, and the engine, not the problem, owns
the console's verdict lines.
"""

import ast
import inspect
import json
import os
import shutil
import statistics
import subprocess
import sys
import textwrap
import unittest

import support
from arh_grader import Policy, Problem, QueryError, engine
from arh_grader import problem as problem_module
from group_testing import plugin
import test_policy

GRADER = os.path.join(support.ROOT, "grader")
HARNESS = os.path.join(support.ROOT, "harness")
TQ = os.path.join(support.ROOT, "examples", "twenty-questions")
TEMPLATE = {"arh_worker", "arh_oracle_link"}     # the worker template, the SDK's worker side
WORKERS = {"group testing": (HARNESS, "dockerfile.worker"),    # each worker's folder, its image
           "twenty questions": (os.path.join(TQ, "harness"), os.path.join(TQ, "dockerfile.worker"))}
SDK = os.path.join(GRADER, "arh_grader")
COMPARE = os.path.join(SDK, "compare")        # the SDK's comparison: no problem in it
CONFORMANCE = os.path.join(SDK, "conformance")   # the HTTP rules every worker must pass
ENTRY_POINTS = {name[:-3] for name in os.listdir(GRADER) if name.endswith(".py")}
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


def package_modules(folder):
    """{dotted name: file} of the package `folder` and its subpackages."""
    parent = os.path.dirname(folder)
    found = {}
    for path in python_files(folder):
        name = os.path.relpath(path, parent)[:-3].replace(os.sep, ".")
        found[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    return found


def import_graph(modules):
    """{module: the modules of `modules` it imports}, whatever branch or
    function an import is in, relative imports resolved."""
    graph = {}
    for name, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                for alias in node.names:
                    whole = base + "." + alias.name
                    found.add(whole if whole in modules else base)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def circles(graph):
    """The import circles of `graph`, each as a list of modules."""
    state, found = {}, []

    def visit(name, path):
        state[name] = "open"
        path.append(name)
        for other in sorted(graph[name]):
            if state.get(other) == "open":
                found.append(path[path.index(other):] + [other])
            elif other not in state:
                visit(other, path)
        path.pop()
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    return found


class SourceTest(unittest.TestCase):
    def assert_imports_within(self, paths, allowed):
        for path in paths:
            with self.subTest(file=os.path.relpath(path, support.ROOT)):
                self.assertEqual(imported(path) - STDLIB - {""} - allowed, set())

    def test_the_sdk_imports_the_standard_library_and_itself_only(self):
        self.assert_imports_within(python_files(os.path.join(GRADER, "arh_grader")), set())

    def test_the_sdks_packages_import_the_standard_library_and_the_sdk_only(self):
        for folder, least in ((COMPARE, 9), (CONFORMANCE, 4)):
            paths = list(python_files(folder))
            self.assertGreaterEqual(len(paths), least)
            self.assert_imports_within(paths, set())  # relative imports only: arh_grader's own

    def test_the_sdk_and_each_problems_package_hold_no_import_circle(self):
        for folder in (SDK, os.path.join(GRADER, "group_testing"), os.path.join(TQ, "tq")):
            with self.subTest(package=os.path.relpath(folder, support.ROOT)):
                modules = package_modules(folder)
                graph = import_graph(modules)
                self.assertTrue(any(graph.values()))
                self.assertEqual(circles(graph), [])

    def test_only_entry_points_put_folders_on_sys_path(self):
        libraries = [p for folder in (SDK, os.path.join(GRADER, "group_testing"))
                     for p in python_files(folder)]
        commands = [os.path.join(GRADER, name + ".py") for name in sorted(ENTRY_POINTS)]
        tq_commands = {"compare", "draw", "grade", "local", "policy", "report", "selfcheck"}
        for path in libraries + commands + list(python_files(os.path.join(TQ, "tq"))):
            name = os.path.basename(path)[:-3]
            with self.subTest(file=os.path.relpath(path, support.ROOT)):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if path.startswith(os.path.join(TQ, "tq")) and name in tq_commands:
                    continue          # twenty questions' commands: the SDK's folder, then tq
                self.assertNotIn("sys.path", text)      # run from grader/, the SDK is there

    def test_no_module_of_the_sdk_or_of_group_testing_is_also_a_command(self):
        for path in [*python_files(SDK), *python_files(os.path.join(GRADER, "group_testing"))]:
            with self.subTest(file=os.path.relpath(path, support.ROOT)):
                with open(path, encoding="utf-8") as f:
                    self.assertNotIn('__name__ == "__main__"', f.read())

    def test_group_testing_imports_the_sdk_only(self):
        self.assert_imports_within(python_files(os.path.join(GRADER, "group_testing")),
                                   {"arh_grader"})

    def test_twenty_questions_imports_the_sdk_and_the_statistics_only(self):
        paths = [p for folder in ("tq", "src") for p in python_files(os.path.join(TQ, folder))]
        self.assertGreater(len(paths), 10)
        self.assert_imports_within(paths, {"arh_grader", "tq"})
        for path in paths:
            self.assertEqual(imported(path) & ENTRY_POINTS, set(), path)

    def test_the_worker_template_imports_the_standard_library_only(self):
        self.assert_imports_within([os.path.join(HARNESS, name + ".py") for name in TEMPLATE],
                                   TEMPLATE)

    def test_each_problems_worker_imports_the_template_alone(self):
        for folder, _ in WORKERS.values():
            path = os.path.join(folder, "worker.py")
            with self.subTest(file=os.path.relpath(path, support.ROOT)):
                self.assertEqual(imported(path) - STDLIB - {""}, {"arh_worker"})

    def test_the_testers_import_the_standard_library_and_their_own_folder_only(self):
        for folder in (os.path.join(support.ROOT, "src"), os.path.join(TQ, "src")):
            own = {name[:-3] for name in os.listdir(folder) if name.endswith(".py")}
            self.assert_imports_within(python_files(folder), own)

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
    if name.endswith(".py"):    # a file run as its command runs it, but not as __main__
        __import__("runpy").run_path(name, run_name="loaded")
    else:
        __import__(name)
print(json.dumps({name: getattr(sys.modules[name], "__file__", None)
                  for name in sys.modules}))
"""


def image(dockerfile, into):
    """Lay out in `into` what `dockerfile` COPYs (paths relative to the
    repository, as its build context), as its image's /app holds them."""
    with open(os.path.join(support.ROOT, dockerfile), encoding="utf-8") as f:
        copies = [line.split()[1:] for line in f if line.startswith("COPY ")]
    for *sources, target in copies:
        for source in sources:
            origin, place = os.path.join(support.ROOT, source), os.path.join(into, target)
            if os.path.isdir(origin):           # its files, into the target folder
                shutil.copytree(origin, place, ignore=shutil.ignore_patterns("__pycache__"),
                                dirs_exist_ok=True)
                continue
            if target.endswith("/"):
                place = os.path.join(place, os.path.basename(source))
            os.makedirs(os.path.dirname(place), exist_ok=True)
            shutil.copyfile(origin, place)


class LoadedTest(unittest.TestCase):
    def loaded_files(self, modules, *path, flags=()):
        """{top-level module: its file} of what importing `modules` (or
        running those that are files) loads in a fresh interpreter started
        with `flags`, `path` first on sys.path."""
        found = self.loaded_modules(modules, *path, flags=flags)
        return {name: found[name] for name in found if "." not in name}

    def loaded_modules(self, modules, *path, flags=()):
        """{module, by its dotted name: its file}, as loaded_files."""
        done = subprocess.run([sys.executable, *flags, "-c", LOADED, ",".join(modules), *path],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def loaded(self, modules, *path):
        return set(self.loaded_files(modules, *path))

    def assert_loads_the_template_alone(self, folder, template_folder):
        """The worker file of `folder`, run as its command runs it (-I -S:
        no folder on sys.path but the one it puts there), loads the template
        from `template_folder`, by import, and nothing else but the standard
        library."""
        files = self.loaded_files([os.path.join(folder, "worker.py")], flags=("-I", "-S"))
        self.assertEqual(set(files) - STDLIB - {"__main__"}, TEMPLATE)
        for name in TEMPLATE:
            self.assertEqual(files[name], os.path.join(template_folder, name + ".py"))

    def test_each_worker_loads_the_template_and_nothing_of_the_grader(self):
        for problem, (folder, _) in WORKERS.items():
            with self.subTest(problem=problem):
                self.assert_loads_the_template_alone(folder, HARNESS)

    def test_each_workers_image_holds_the_template_it_loads(self):
        for problem, (_, dockerfile) in WORKERS.items():
            with self.subTest(problem=problem):
                app = support.tmpdir(self)
                image(dockerfile, app)
                self.assert_loads_the_template_alone(os.path.join(app, "harness"),
                                                     os.path.join(app, "harness"))

    def test_the_testers_load_nothing_of_the_grader(self):
        for folder in (os.path.join(support.ROOT, "src"), os.path.join(TQ, "src")):
            with self.subTest(folder=os.path.relpath(folder, support.ROOT)):
                own = {name[:-3] for name in os.listdir(folder) if name.endswith(".py")}
                names = set(self.loaded_files(["tester"], folder, flags=("-I", "-S")))
                self.assertEqual(names - STDLIB - {"__main__"} - own, set())

    def test_twenty_questions_commands_load_nothing_of_group_testing(self):
        found = self.loaded_modules(["tq.local", "tq.selfcheck", "tq.compare", "tq.grade",
                                     "tq.report"], TQ, GRADER)
        names = {name for name in found if "." not in name}
        self.assertIn("arh_grader", names)
        self.assertIn("arh_grader.compare.sprt", found)
        self.assertEqual(names & (ENTRY_POINTS | {"group_testing"}), set())

    def test_group_testing_commands_load_nothing_of_twenty_questions(self):
        names = self.loaded(["grade", "local", "selfcheck", "compare", "report"], GRADER)
        self.assertIn("group_testing", names)
        self.assertNotIn("tq", names)

    def test_the_sdk_alone_loads_no_problem(self):
        found = self.loaded_modules(["arh_grader", "arh_grader.local_run", "arh_grader.report"],
                                    GRADER)
        self.assertEqual(set(found) & (ENTRY_POINTS | {"group_testing", "tq"}), set())
        self.assertNotIn("arh_grader.compare", found)
        self.assertEqual({name for name in found if "." not in name} & ENTRY_POINTS, set())



# ---- the Problem class ------------------------------------------------------

PROBLEMS = """
import json, sys
sys.path[:0] = sys.argv[2:]
from arh_grader import Problem
found = {}
for name in sys.argv[1].split(","):
    module = __import__(name, fromlist=["PROBLEM"])
    found[name] = isinstance(module.PROBLEM, Problem)
print(json.dumps(found))
"""


def module_level_problems(folder):
    """The files of `folder` that bind PROBLEM at their top level."""
    for path in python_files(folder):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if "PROBLEM" in names:
                yield os.path.relpath(path, support.ROOT)


def documented_required():
    """The names under `Required` in Problem's docstring."""
    text = problem_doc().split("Required (")[1].split("Optional (")[0]
    return sorted(line.split()[0].split("(")[0] for line in text.splitlines()[1:]
                  if line.startswith("    ") and line.strip())


def problem_doc():
    """Problem's docstring with its common indent removed (3.13's compiler
    removes it already, 3.11's keeps it)."""
    return inspect.cleandoc(Problem.__doc__)


class ProblemTest(unittest.TestCase):
    def test_every_problem_object_in_the_tree_is_a_problem(self):
        files = sorted(p for top in ("grader", "examples", "tests")
                       for p in module_level_problems(os.path.join(support.ROOT, top)))
        self.assertEqual(files, [
            "examples/twenty-questions/tq/plugin.py", "grader/group_testing/plugin.py",
            "tests/test_policy.py"])
        for modules, path in ((["group_testing.plugin"], [GRADER]),
                              (["tq.plugin"], [TQ, GRADER]),
                              (["test_policy"], [os.path.join(support.ROOT, "tests"), GRADER])):
            done = subprocess.run([sys.executable, "-c", PROBLEMS, ",".join(modules), *path],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(json.loads(done.stdout), dict.fromkeys(modules, True))
        self.assertIsInstance(test_policy.PROBLEM, Problem)

    def test_the_abstract_members_are_the_documented_ones(self):
        self.assertEqual(problem_module.required(), documented_required())
        self.assertEqual(len(documented_required()), 18)

    def test_a_class_lacking_a_required_member_cannot_be_made(self):
        whole = {k: v for k, v in vars(test_policy.Trivia).items() if not k.startswith("__")}
        type("Whole", (Problem,), whole)()
        for name in problem_module.required():
            with self.subTest(member=name):
                lacking = type("Lacking", (Problem,),
                               {k: v for k, v in whole.items() if k != name})
                with self.assertRaisesRegex(TypeError, r"^Can't instantiate abstract class "
                                            r"Lacking .*abstract method.*\b%s\b" % name):
                    lacking()

    def test_the_docstrings_minimal_example_makes_a_problem(self):
        doc = problem_doc()
        code = textwrap.dedent(doc[doc.index("    class Guess(Problem):"):
                                   doc.index("PROBLEM = Guess()") + len("PROBLEM = Guess()")])
        namespace = {"Problem": Problem, "QueryError": QueryError, "statistics": statistics}
        exec(compile(code, "Problem's example", "exec"), namespace)
        guess = namespace["PROBLEM"]
        spec = guess.session({"number": 41})
        self.assertEqual((spec.secret, spec.cap, spec.max_body, spec.policy),
                         (41, 20, 16, Policy()))
        self.assertEqual((spec.check, spec.answer), (guess.check_query, guess.answer_query))

    def test_a_session_spec_carries_the_rules_and_the_instance_at_once(self):
        item = support.PROBLEM.load_set(support.SAMPLE)[0]
        spec = plugin.PROBLEM.session(item)
        self.assertEqual((spec.cap, spec.max_body), (2 * item["n"] + 64,
                                                     plugin.problem.max_body(item["n"])))
        self.assertIs(spec.check, plugin.problem.check_query)
        self.assertIs(spec.answer, plugin.problem.answer_query)


class StatusLinesTest(unittest.TestCase):
    """The engine prints the verdict's lines; a problem gives only its figures."""

    class Refusing(test_policy.Trivia):
        def summary_lines(self, result):
            if result["status"] != "valid":
                raise AssertionError("a failed run's lines are the engine's")
            return super().summary_lines(result)

    def test_a_valid_run_gets_the_engines_status_then_the_problems_figures(self):
        problem = self.Refusing()
        result = engine.summarize(problem, [{"index": 0, "calls": 2, "score": 1.0,
                                             "transcript": ""}])
        self.assertEqual(engine.summary_lines(result, problem=problem),
                         ["status: valid", "kind: none", "mean_score: 1.0"])

    def test_a_failed_run_gets_the_engines_lines_alone(self):
        problem = self.Refusing()
        result = engine.summarize(problem, [], engine.Failure("timeout", "late\x07", 3))
        self.assertEqual(engine.summary_lines(result, problem=problem),
                         ["status: invalid", "kind: timeout", "instance: 3",
                          "message: late\\x07"])

    def test_group_testings_figures_hold_no_status_line(self):
        entries = [plugin.PROBLEM.entry(0, item, type("S", (), dict(
            tests=item["baseline"], invalid=0, query_bytes=1, answer_bytes=1, digest="")))
            for item in support.PROBLEM.load_set(support.SAMPLE)[:3]]
        result = engine.summarize(plugin.PROBLEM, entries)
        figures = plugin.PROBLEM.summary_lines(result)
        self.assertEqual(figures[0], "relative_tests: 1.0")
        self.assertFalse([line for line in figures if line.startswith(("status:", "kind:"))])
        self.assertEqual(support.engine.summary_lines(result, problem=support.PROBLEM),
                         ["status: valid", "kind: none"] + figures)


if __name__ == "__main__":
    unittest.main()
