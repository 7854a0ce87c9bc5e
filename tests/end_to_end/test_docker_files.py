"""The Docker files, read without Docker: what each image copies, what the
build context holds, the cores compose.yaml gives each side, and the walls
both problems' compose files put around the worker. The images themselves
are built and run by .ci/docker.sh."""

import ast
import os
import re
import unittest
import support

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE = "python:3.13-slim-bookworm"
TQ = "examples/twenty-questions"
GI = "examples/algotune-graph-isomorphism"
COMPOSE_FILES = ("compose.yaml", TQ + "/compose.yaml", GI + "/compose.yaml")
WORKER_DOCKERFILES = ("dockerfile.worker", TQ + "/dockerfile.worker", GI + "/dockerfile.worker")
STRIP_SETUID = ["find", "/", "-xdev", "-perm", "/6000", "-type", "f", "-exec", "chmod", "a-s",
                "{}", "+", "||", "true"]
WORKER_WALLS = [             # the worker service's lines that wall it in, exactly
    "mem_limit: 512m",
    "memswap_limit: 512m",
    "oom_score_adj: 1000",
    "pids_limit: 256",
    "ulimits: {nofile: {soft: 1024, hard: 1024}}",
    "read_only: true",
    'tmpfs: ["/tmp:size=64m"]',
    'logging: {driver: json-file, options: {max-size: 1m, max-file: "1"}}',
    "cap_drop: [ALL]",
    'security_opt: ["no-new-privileges:true"]',
    'dns: ["127.0.0.1"]',
]
BRIDGES = {"compose.yaml": "gt-inner0", TQ + "/compose.yaml": "tq-inner0",
           GI + "/compose.yaml": "gi-inner0"}


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def ci_stages():
    """The stages .ci/docker.sh sources (.ci/docker/NAME.sh), in its order."""
    return read(".ci/docker.sh").split("for stage in ", 1)[1].split(";", 1)[0].split()


def ci_script():
    """.ci/docker.sh with its stages, in the order it sources them."""
    return "\n".join([read(".ci/docker.sh")]
                     + [read(".ci/docker/%s.sh" % stage) for stage in ci_stages()])


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


def service_block(name, compose="compose.yaml"):
    """The lines of compose file `compose`'s service `name`, comments dropped."""
    lines, inside = [], False
    for line in read(compose).splitlines():
        if re.fullmatch(r"  %s:\s*" % re.escape(name), line):
            inside = True
        elif inside and re.match(r"^ {0,2}\S", line):
            break
        elif inside:
            lines.append(line.split("#")[0].strip())
    return lines


class WorkerImageTest(unittest.TestCase):
    def test_copies_the_harness_and_the_tester_only(self):
        self.assertEqual(sorted(copied("dockerfile.worker")), [
            "harness/arh_oracle_link.py", "harness/arh_worker.py", "harness/worker.py", "src/"])

    def test_builds_from_the_base_and_downloads_nothing(self):
        for dockerfile in WORKER_DOCKERFILES:
            with self.subTest(dockerfile=dockerfile):
                rows = instructions(dockerfile)
                self.assertEqual(rows[0], ("FROM", [BASE]))
                self.assertFalse([w for w, _ in rows if w == "ADD"])
                self.assertEqual([a for w, a in rows if w == "RUN"], [STRIP_SETUID])

    def test_strips_setuid_and_setgid_bits_before_it_becomes_nobody(self):
        for dockerfile in WORKER_DOCKERFILES:
            with self.subTest(dockerfile=dockerfile):
                rows = instructions(dockerfile)
                self.assertLess(rows.index(("RUN", STRIP_SETUID)), rows.index(("USER", ["nobody"])))

    def test_runs_as_nobody(self):
        for dockerfile in WORKER_DOCKERFILES:
            with self.subTest(dockerfile=dockerfile):
                self.assertIn(("USER", ["nobody"]), instructions(dockerfile))


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


class GraphIsomorphismImagesTest(unittest.TestCase):
    """The third problem's images: the worker copies the template, its own
    worker and src/ and installs nothing; the grader copies the SDK, the
    problem's package, the plugin's source, the downloads that spare a
    fetch, the settings and the sample, and builds the pinned tree with
    gi/setup.py; the context holds them."""

    def test_the_worker_copies_the_template_and_src_alone(self):
        self.assertEqual(sorted(copied(GI + "/dockerfile.worker")), sorted([
            "harness/arh_oracle_link.py", "harness/arh_worker.py",
            GI + "/harness/worker.py", GI + "/src/"]))

    def test_the_grader_copies_the_sdk_the_problem_and_the_sample(self):
        self.assertEqual(sorted(copied(GI + "/dockerfile.grader")), sorted([
            "grader/arh_grader/", GI + "/gi/", GI + "/plugin/", GI + "/downloads/",
            GI + "/autoresearch.toml", GI + "/sample/"]))
        runs = [" ".join(a) for w, a in instructions(GI + "/dockerfile.grader") if w == "RUN"]
        self.assertTrue(any(r.startswith("python3 gi/setup.py") for r in runs), runs)
        self.assertEqual(instructions(GI + "/dockerfile.grader")[0], ("FROM", [BASE]))

    def test_the_context_holds_what_both_copy(self):
        for dockerfile in (GI + "/dockerfile.worker", GI + "/dockerfile.grader"):
            for source in copied(dockerfile):
                probe = source + "x.py" if source.endswith("/") else source
                with self.subTest(source=source):
                    self.assertTrue(in_context(probe), "%s (%s)" % (source, dockerfile))
        self.assertFalse(in_context(GI + "/gi/__pycache__/plugin.cpython-313.pyc"))
        self.assertFalse(in_context(GI + "/tests/solvers/refined/solver.py"))

    def test_the_grader_builds_with_the_host_s_network_and_one_capability(self):
        block = service_block("grader", GI + "/compose.yaml")
        self.assertIn("network: host", block)
        self.assertEqual([line for line in block if line.startswith("cap_")],
                         ["cap_add: [SYS_ADMIN]"])


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
                     "tests/group_testing/test_problem.py", ".ci/run", "README.md", "other/items.jsonl"):
            self.assertFalse(in_context(path), path)


class ComposeTest(unittest.TestCase):
    def test_worker_on_core_0_and_grader_on_core_1(self):
        self.assertIn('cpuset: "0"', service_block("worker"))
        self.assertIn('cpuset: "1"', service_block("grader"))

    def test_both_sides_sit_on_one_internal_network_only(self):
        for name in ("worker", "grader"):
            with self.subTest(service=name):
                self.assertIn("networks: [inner]", service_block(name))
        for compose in COMPOSE_FILES:
            with self.subTest(compose=compose):
                top = read(compose).split("\nnetworks:\n", 1)[1].split("\nvolumes:", 1)[0]
                self.assertEqual(
                    [line.split("#")[0].rstrip() for line in top.splitlines()],
                    ["  inner:", "    internal: true", "    driver_opts:",
                     '      com.docker.network.bridge.inhibit_ipv4: "true"',
                     "      com.docker.network.bridge.name: %s" % BRIDGES[compose]])

    def test_only_the_grader_mounts_the_result_volume(self):
        self.assertIn("- result:/result", service_block("grader"))
        self.assertFalse([line for line in service_block("worker") if "volumes" in line])

    def test_each_side_builds_from_its_own_dockerfile(self):
        self.assertIn("build: {context: ., dockerfile: dockerfile.worker}",
                      service_block("worker"))
        self.assertIn("build: {context: ., dockerfile: dockerfile.grader}",
                      service_block("grader"))

    def test_the_ci_script_sources_every_stage_it_has(self):
        stages = ci_stages()
        self.assertEqual(sorted(stages), sorted(name[:-3] for name in os.listdir(
            os.path.join(ROOT, ".ci", "docker")) if name.endswith(".sh")))
        self.assertEqual(stages, ["group-testing", "examples", "hostile"])
        self.assertIn('    source ".ci/docker/$stage.sh"\n', read(".ci/docker.sh"))

    def test_the_ci_script_runs_the_three_commands(self):
        script = ci_script()
        for command in ("up --build --abort-on-container-exit --exit-code-from grader",
                        "run --rm --no-deps --entrypoint cat grader /result/result.json",
                        "down --volumes"):
            self.assertIn(command, read("compose.yaml"))
            self.assertIn(command, script.replace("\\\n    ", ""))
            readme = read("README.md")
            self.assertIn("\ndocker compose %s\n" % command, readme)
            self.assertIn("\ndocker-compose -f compose.yaml %s\n" % command, readme)


class WallsTest(unittest.TestCase):
    """The worker of each problem is walled in: its memory (no swap beyond
    it), processes, open files, a read-only root with a small /tmp in its
    memory, capped logs, no capabilities, no new privileges, no DNS past the
    services' names; the host kills it first. The grader has none of these
    limits, and the CI script installs the host's INPUT rule for both bridges."""

    def test_each_worker_has_every_wall_exactly(self):
        for compose in COMPOSE_FILES:
            with self.subTest(compose=compose):
                block = service_block("worker", compose)
                self.assertEqual([line for line in block if line in WORKER_WALLS], WORKER_WALLS)
                keys = [line.split(":")[0] for line in block if line]
                for wall in WORKER_WALLS:
                    self.assertEqual(keys.count(wall.split(":")[0]), 1, wall)

    def test_no_grader_is_walled_by_the_worker_s_limits(self):
        for compose in COMPOSE_FILES:
            with self.subTest(compose=compose):
                keys = {line.split(":")[0] for line in service_block("grader", compose) if line}
                self.assertFalse(keys & {"mem_limit", "memswap_limit", "oom_score_adj",
                                         "pids_limit", "read_only"})

    def test_the_ci_script_installs_and_removes_the_host_rule_for_both_bridges(self):
        script = ci_script()
        self.assertTrue('\nBRIDGES="%s" ' % " ".join(BRIDGES.values()) in script)
        self.assertIn('iptables -I INPUT -i "$bridge" -j DROP', script)
        self.assertIn('iptables -D INPUT -i "$bridge" -j DROP', script)
        for bridge in BRIDGES.values():
            self.assertTrue("iptables -I INPUT -i %s -j DROP" % bridge in read("README.md"),
                            "README.md gives the host's rule for %s" % bridge)

    def test_the_ci_script_runs_every_hostile_tester(self):
        script = ci_script()
        folder = os.path.join(ROOT, "tests", "testers", "hostile")
        names = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py"))
        listed = script.split('HOSTILE="', 1)[1].split('"', 1)[0].split()
        self.assertEqual(sorted(listed), names)
        self.assertIn("hostile: %s kind: %s seconds: %s ok", script)

    def test_the_reference_gives_the_walls_table(self):
        """docs/local-run.md has the walls' section, with the container's
        table and this machine's; the manual points to it."""
        walls = support.section(support.LOCAL_RUN, "## The walls around the tester")
        self.assertIn("| wall | limit | what a tester gets past it | kind |", walls)
        self.assertIn("| the worker may | and nothing else |", walls)
        self.assertIn('(`docs/local-run.md`, "The walls around the tester")',
                      read("README.md").replace("\n", " "))
        self.assertIn("`docs/local-run.md`", support.section(support.MANUAL,
                                                             "## Reading what the tools print"))


class HeldOutSetTest(unittest.TestCase):
    """A set given at run time reaches the grader only, mounted and named
    with --items; the documents say how, and the CI script does it."""

    MOUNT = "held-out.jsonl:/sets/held-out.jsonl:ro\" grader --items /sets/held-out.jsonl"

    def test_the_documents_show_the_command(self):
        command = 'docker compose run --rm --use-aliases -v "$PWD/' + self.MOUNT
        self.assertIn("#   %s\n" % command, read("compose.yaml"))
        self.assertIn("\n%s\n" % command, read("README.md"))

    def test_the_ci_script_grades_a_fresh_500_set_against_local_py(self):
        script = ci_script()
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
