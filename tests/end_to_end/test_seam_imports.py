"""The template's seam, read from the imports: the SDK (grader/arh_grader,
with its comparison package arh_grader.compare: the tests, the state file,
the log) imports neither problem, and none of its modules takes part in an
import circle; group testing's package (grader/group_testing) is imported
only by its own entry points and tools (grader/*.py) and the tests, and
twenty questions (examples/twenty-questions) reaches the root through the
SDK's packages alone, never a module of grader/'s top level. On the
worker's side, the worker template (harness/arh_worker.py and its oracle
link) imports the standard library only; each problem's worker imports the
template alone, twenty questions' finding it in the repository's harness/
or, as in its image, beside itself; and neither a worker nor a tester loads
anything of the grader.

Read twice: from the source (every import statement, whatever branch it is
in) and from a fresh interpreter (the modules each problem's commands load).
The seam's one class, arh_grader.Problem: test_seam_problem.py; the SDK's
tests, which import neither problem: test_seam_sdk_tests.py.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

import support
from support import python_files

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
        # twenty questions' commands that put tq's project there (draw, policy), and the
        # module that puts the SDK's folder, then tq, there for the others (sdk_path)
        tq_entries = {"draw", "policy", "sdk_path"}
        for path in libraries + commands + list(python_files(os.path.join(TQ, "tq"))):
            name = os.path.basename(path)[:-3]
            with self.subTest(file=os.path.relpath(path, support.ROOT)):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if path.startswith(os.path.join(TQ, "tq")) and name in tq_entries:
                    continue
                self.assertNotIn("sys.path", text)      # run from grader/, the SDK is there
                if path.startswith(os.path.join(TQ, "tq")) and "arh_grader.commands" in text:
                    self.assertIn("\nif not __package__:", text)    # run as a script:
                    self.assertIn("\n    import sdk_path  ", text)  # the SDK from sdk_path

    def test_no_module_of_the_sdk_or_of_group_testing_is_also_a_command(self):
        for path in [*python_files(SDK), *python_files(os.path.join(GRADER, "group_testing"))]:
            with self.subTest(file=os.path.relpath(path, support.ROOT)):
                with open(path, encoding="utf-8") as f:
                    self.assertNotIn('__name__ == "__main__"', f.read())

    def test_no_command_is_imported_by_another_module(self):
        """A command of grader/ or tq/ is an entry point: no module imports it."""
        modules = {}
        for folder in (GRADER, os.path.join(TQ, "tq")):
            for name in os.listdir(folder):
                if name.endswith(".py"):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        modules[(folder, name[:-3])] = f.read()
        commands = {key for key, text in modules.items() if '__name__ == "__main__"' in text}
        self.assertGreaterEqual(len(commands), 20)
        for (folder, name), text in sorted(modules.items()):
            imported = set(re.findall(r"^(?:import|from) ([\w.]+)", text, re.M))
            imported |= {"tq." + m for line in re.findall(r"^from tq import ([\w, ]+)", text, re.M)
                         for m in line.replace(" ", "").split(",")}
            for other_folder, other in sorted(commands):
                target = other if other_folder == GRADER else "tq." + other
                with self.subTest(module=name, command=other):
                    self.assertNotIn(target, imported)

    def test_group_testing_imports_the_sdk_only(self):
        self.assert_imports_within(python_files(os.path.join(GRADER, "group_testing")),
                                   {"arh_grader"})

    def test_twenty_questions_imports_the_sdk_and_the_statistics_only(self):
        paths = [p for folder in ("tq", "src") for p in python_files(os.path.join(TQ, folder))]
        self.assertGreater(len(paths), 10)
        # sdk_path: tq's module beside its commands, which puts the SDK on sys.path
        self.assert_imports_within(paths, {"arh_grader", "tq", "sdk_path"})
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
        self.assertEqual(importers, {"grader", "tests", "tests/group_testing",
                                     "tests/end_to_end"})    # tests/sdk/: no, nor tq


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
        """{module, by its dotted name: its file}, as loaded_files. The
        interpreter writes no .pyc (-B): with -I it would write them into the
        tree, where another run's check of the tree would see them."""
        done = subprocess.run([sys.executable, *flags, "-B", "-c", LOADED, ",".join(modules),
                               *path],
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

    def assert_scripts_find_the_sdk(self, tq_folder, grader):
        """Twenty questions' commands, each run as a script is (its folder
        alone on sys.path, python3 -I), load the SDK from `grader` and tq
        from beside `tq_folder`, which sdk_path puts on sys.path for them."""
        scripts = [os.path.join(tq_folder, name + ".py")
                   for name in ("local", "selfcheck", "compare", "grade", "report")]
        found = self.loaded_files(scripts, tq_folder, flags=("-I",))
        self.assertEqual(os.path.normpath(found["arh_grader"]),
                         os.path.join(grader, "arh_grader", "__init__.py"))
        self.assertEqual(found["tq"], os.path.join(tq_folder, "__init__.py"))
        self.assertEqual(set(found) & (ENTRY_POINTS | {"group_testing"}), set())

    def test_twenty_questions_commands_run_as_scripts_find_the_sdk(self):
        self.assert_scripts_find_the_sdk(os.path.join(TQ, "tq"), GRADER)

    def test_twenty_questions_grader_image_holds_the_sdk_its_commands_load(self):
        app = support.tmpdir(self)
        image(os.path.join(TQ, "dockerfile.grader"), app)
        self.assert_scripts_find_the_sdk(os.path.join(app, "tq"), os.path.join(app, "grader"))

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



if __name__ == "__main__":
    unittest.main()
