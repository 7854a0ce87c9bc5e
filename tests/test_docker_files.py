"""The Docker files, read without Docker: what each image copies, what the
build context holds, and the cores compose.yaml gives each side. The images
themselves are built and run by .ci/docker.sh."""

import ast
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = "python:3.13-slim-bookworm"


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def instructions(dockerfile):
    """(instruction, arguments) of each line of a Dockerfile, comments dropped."""
    rows = []
    for line in read(dockerfile).splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            rows.append((word.upper(), rest.split()))
    return rows


def copied(dockerfile):
    """The sources of every COPY, as paths relative to the context."""
    sources = []
    for word, args in instructions(dockerfile):
        if word == "COPY":
            sources += [a for a in args[:-1] if not a.startswith("--")]
    return sources


def covered(path, sources):
    """Whether `path` (a file of the project) is among the COPY sources."""
    return any(path == s or (s.endswith("/") and path.startswith(s)) for s in sources)


def grader_needs():
    """The files grader/grade.py needs: itself and every module of grader/
    it imports, directly or through another."""
    needed, todo = set(), ["grader/grade.py"]
    while todo:
        path = todo.pop()
        if path in needed:
            continue
        needed.add(path)
        tree = ast.parse(read(path))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        for name in names:
            module, package = "grader/%s.py" % name, "grader/%s/" % name
            if os.path.isfile(os.path.join(ROOT, module)):
                todo.append(module)
            elif os.path.isdir(os.path.join(ROOT, package)):
                for entry in sorted(os.listdir(os.path.join(ROOT, package))):
                    if entry.endswith(".py"):
                        todo.append(package + entry)
    return needed


def ignore_rules():
    """.dockerignore's rules in order: (pattern, excluded?)."""
    rules = []
    for line in read(".dockerignore").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rules.append((line[1:].rstrip("/"), False) if line.startswith("!")
                         else (line.rstrip("/"), True))
    return rules


def in_context(path):
    """Whether the build context holds `path`, by Docker's rule: the last
    pattern matching the path or one of its parent folders decides."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    keep = True
    for pattern, excluded in ignore_rules():
        regex = pattern_regex(pattern)
        if any(re.fullmatch(regex, p) for p in prefixes):
            keep = not excluded
    return keep


def pattern_regex(pattern):
    """A .dockerignore pattern as a regular expression: `**/` any folders,
    `*` and `?` within one name."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def service_block(name):
    """The lines of compose.yaml's service `name`."""
    lines, inside = [], False
    for line in read("compose.yaml").splitlines():
        if re.fullmatch(r"  %s:\s*" % re.escape(name), line):
            inside = True
        elif inside and re.match(r"^ {0,2}\S", line):
            break
        elif inside:
            lines.append(line.split("#")[0].strip())
    return lines


class WorkerImageTest(unittest.TestCase):
    def test_copies_the_harness_and_the_tester_only(self):
        self.assertEqual(sorted(copied("dockerfile.worker")), ["harness/", "src/"])

    def test_builds_from_the_base_and_downloads_nothing(self):
        rows = instructions("dockerfile.worker")
        self.assertEqual(rows[0], ("FROM", [BASE]))
        self.assertFalse([w for w, _ in rows if w in ("RUN", "ADD")])

    def test_runs_as_nobody(self):
        self.assertIn(("USER", ["nobody"]), instructions("dockerfile.worker"))


class GraderImageTest(unittest.TestCase):
    def test_copies_every_module_grade_py_imports(self):
        sources = copied("dockerfile.grader")
        missing = sorted(p for p in grader_needs() if not covered(p, sources))
        self.assertEqual(missing, [], "dockerfile.grader must COPY these")

    def test_copies_the_settings_and_the_sample(self):
        sources = copied("dockerfile.grader")
        self.assertIn("autoresearch.toml", sources)
        self.assertTrue(covered("sample/items.jsonl", sources))

    def test_copies_no_worker_side_and_no_local_tools(self):
        for path in copied("dockerfile.grader"):
            self.assertFalse(path.startswith(("harness", "src", "tests", ".ci")), path)
            self.assertNotIn(path, ("grader/", "grader/local.py"))

    def test_builds_from_the_base_and_downloads_nothing(self):
        rows = instructions("dockerfile.grader")
        self.assertEqual(rows[0], ("FROM", [BASE]))
        self.assertFalse([w for w, _ in rows if w in ("RUN", "ADD")])


class BuildContextTest(unittest.TestCase):
    def test_holds_what_the_images_copy(self):
        for dockerfile in ("dockerfile.worker", "dockerfile.grader"):
            for source in copied(dockerfile):
                probe = source + "x.py" if source.endswith("/") else source
                self.assertTrue(in_context(probe), "%s (%s)" % (source, dockerfile))
        for path in grader_needs():
            self.assertTrue(in_context(path), path)

    def test_leaves_out_caches_and_everything_else(self):
        for path in ("src/__pycache__/tester.cpython-313.pyc", "grader/x.pyc",
                     "harness/__pycache__/worker.cpython-311.pyc", ".git/HEAD",
                     "result/result.json", "transcripts/instance-0000.jsonl",
                     "tests/test_problem.py", ".ci/run", "README.md", "other/items.jsonl"):
            self.assertFalse(in_context(path), path)


class ComposeTest(unittest.TestCase):
    def test_worker_on_core_0_and_grader_on_core_1(self):
        self.assertIn('cpuset: "0"', service_block("worker"))
        self.assertIn('cpuset: "1"', service_block("grader"))

    def test_both_sides_sit_on_one_internal_network_only(self):
        for name in ("worker", "grader"):
            with self.subTest(service=name):
                self.assertIn("networks: [inner]", service_block(name))
        top = read("compose.yaml").split("\nnetworks:\n", 1)[1].split("\nvolumes:", 1)[0]
        self.assertEqual([line.split("#")[0].rstrip() for line in top.splitlines()],
                         ["  inner:", "    internal: true"])

    def test_only_the_grader_mounts_the_result_volume(self):
        self.assertIn("- result:/result", service_block("grader"))
        self.assertFalse([line for line in service_block("worker") if "volumes" in line])

    def test_each_side_builds_from_its_own_dockerfile(self):
        self.assertIn("build: {context: ., dockerfile: dockerfile.worker}",
                      service_block("worker"))
        self.assertIn("build: {context: ., dockerfile: dockerfile.grader}",
                      service_block("grader"))

    def test_the_ci_script_runs_the_three_commands(self):
        script = read(".ci/docker.sh")
        for command in ("up --build --abort-on-container-exit --exit-code-from grader",
                        "run --rm --no-deps --entrypoint cat grader /result/result.json",
                        "down --volumes"):
            self.assertIn(command, read("compose.yaml"))
            self.assertIn(command, script.replace("\\\n    ", ""))
            readme = read("README.md")
            self.assertIn("\ndocker compose %s\n" % command, readme)
            self.assertIn("\ndocker-compose -f compose.yaml %s\n" % command, readme)


class HeldOutSetTest(unittest.TestCase):
    """A set given at run time reaches the grader only, mounted and named
    with --items; the documents say how, and the CI script does it."""

    MOUNT = "held-out.jsonl:/sets/held-out.jsonl:ro\" grader --items /sets/held-out.jsonl"

    def test_the_documents_show_the_command(self):
        command = 'docker compose run --rm --use-aliases -v "$PWD/' + self.MOUNT
        self.assertIn("#   %s\n" % command, read("compose.yaml"))
        self.assertIn("\n%s\n" % command, read("README.md"))

    def test_the_ci_script_grades_a_fresh_500_set_against_local_py(self):
        script = read(".ci/docker.sh")
        self.assertIn('run --rm --use-aliases -v "$WORK/' + self.MOUNT, script)
        self.assertIn("HELD_OUT_COUNT=500\n", script)
        self.assertIn('grader/instances.py --count "$HELD_OUT_COUNT" --out', script)
        self.assertNotIn("--seed", script.split("# --- 8.")[1])     # a secret seed each run
        self.assertIn('grader/local.py --items "$WORK/held-out.jsonl"', script)
        self.assertIn('"$WORK/local-held-out/result.json"', script)

    def test_the_worker_service_mounts_nothing(self):
        self.assertFalse([line for line in service_block("worker")
                          if "volumes" in line or ".jsonl" in line])


if __name__ == "__main__":
    unittest.main()
