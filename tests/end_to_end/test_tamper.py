"""A run names what changed outside the editable folders
(arh_grader/integrity.py): on the console, in result.json's "tampered",
in the report and in what the comparison reads of a result. Every run here
is in a temporary copy of the repository, never in this tree."""

import json
import os
import py_compile
import shlex
import shutil
import subprocess
import sys
import unittest

import support
from arh_grader.compare import log as compare_log
from arh_grader import integrity
from arh_grader.result import json_bytes

REWRITER = os.path.join(support.TESTERS, "rewriter.py")
COPIED = ("grader", "harness", "sample", "src", "autoresearch.toml",
          "examples/twenty-questions")
HAS_GIT = shutil.which("git") is not None
GIT = ("git", "-c", "user.name=test", "-c", "user.email=test@example.invalid",
       "-c", "commit.gpgsign=false")
TAG = sys.implementation.cache_tag
EVERY = {"modify": "grader/arh_grader/engine.py", "delete": "grader/mmi.py",
         "shadow": "grader/json.py", "pyc": "grader/__pycache__/bench.%s.pyc" % TAG,
         "foreign": "grader/__pycache__/bench.cpython-99.pyc",
         "kept": ".loop/kept.py", "hook": ".git/hooks/pre-commit"}


def compile_in_tree(source):
    """Compile `source` into the __pycache__ beside it, as Python does when
    no cache prefix sends its compiled files elsewhere (tests/run.py does)."""
    cached = os.path.join(os.path.dirname(source), "__pycache__", "%s.%s.pyc" % (
        os.path.splitext(os.path.basename(source))[0], sys.implementation.cache_tag))
    return py_compile.compile(source, cfile=cached, doraise=True)


def source_files():
    """The files of COPIED in this tree, relative: git's tracked and
    untracked ones where git knows the tree, else every file but caches."""
    if HAS_GIT:
        done = subprocess.run(["git", "-C", support.ROOT, "ls-files", "-z", "--cached",
                               "--others", "--exclude-standard", "--", *COPIED],
                              capture_output=True, timeout=60)
        if done.returncode == 0:
            return [os.fsdecode(p) for p in done.stdout.split(b"\0") if p]
    found = []
    for part in COPIED:
        top = os.path.join(support.ROOT, part)
        if os.path.isfile(top):
            found.append(part)
        for folder, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "result")]
            found += [os.path.relpath(os.path.join(folder, n), support.ROOT) for n in names]
    return found


def git(case, root, *args):
    done = subprocess.run([*GIT, "-C", root, *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    case.assertEqual(done.returncode, 0, done.stderr)
    return done.stdout


def copy_repository(case, *, with_git=True):
    """A copy of this tree's COPIED files in a temporary folder, committed
    in a git repository of its own unless `with_git` is False; its root."""
    root = os.path.join(support.tmpdir(case), "repo")
    for path in source_files():
        source = os.path.join(support.ROOT, path)
        if os.path.isfile(source):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            shutil.copy2(source, os.path.join(root, path))
    os.makedirs(os.path.join(root, "result-before"))
    with open(os.path.join(root, "result-before", "result.json"), "w") as f:
        f.write("{}\n")
    if with_git:
        git(case, root, "init", "-q")
        with open(os.path.join(root, ".gitignore"), "w") as f:
            f.write("__pycache__/\n*.pyc\n/result/\n/result-*/\n")
        git(case, root, "add", "-A")
        git(case, root, "commit", "-q", "-m", "the copy")
    return root


def run_local(case, root, *args, tamper="", script="grader/local.py"):
    """The copy's local run of the rewriter with GT_TAMPER=`tamper`; (exit
    status, stdout, result.json's bytes). Bytecode is written, as by default.
    Group testing's worker is started from its command, which local.py runs
    without the walls of its own workers (arh_grader/sandbox.py, where the
    kernel has Landlock, keep a tester off the grader's files): the check
    is for where there are none."""
    out = os.path.join(support.tmpdir(case), "out")
    env = dict(os.environ, GT_TAMPER_ROOT=root, GT_TAMPER=tamper, AR_TESTER=REWRITER,
               HOME=support.tmpdir(case))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    worker = ["--tester", REWRITER]
    if script == "grader/local.py":
        worker = ["--worker-command",
                  "%s -I -S -B harness/worker.py" % shlex.quote(sys.executable)]
    done = subprocess.run([sys.executable, script, *worker, "--out", out,
                           "--limit", "1", *args], cwd=root, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL, env=env)
    with open(os.path.join(out, "result.json"), "rb") as f:
        return done.returncode, done.stdout, f.read()


def tampered_line(stdout):
    return support.lines_of(stdout).get("tampered")


@unittest.skipUnless(HAS_GIT, "git is needed for a committed copy")
class LocalRunTest(unittest.TestCase):
    def test_a_clean_run_has_no_tampered_key(self):
        root = copy_repository(self)
        status, stdout, blob = run_local(self, root)
        self.assertEqual(status, 0, stdout)
        self.assertIsNone(tampered_line(stdout))
        self.assertNotIn("tampered", json.loads(blob))
        self.assertNotIn("tampered", stdout)
        status, stdout, again = run_local(self, root)          # its bytecode now cached
        self.assertEqual((status, tampered_line(stdout), again), (0, None, blob))

    def test_every_change_is_named_and_nothing_else_differs(self):
        clean = run_local(self, copy_repository(self))[2]
        root = copy_repository(self)
        status, stdout, blob = run_local(self, root, tamper=",".join([*EVERY, "data"]))
        self.assertEqual(status, 0, stdout)
        expected = sorted(EVERY.values())
        self.assertEqual(tampered_line(stdout), ", ".join(expected))
        self.assertIn("warning: files outside the editable folders", stdout)
        result = json.loads(blob)
        self.assertEqual(result.pop("tampered"), expected)
        self.assertEqual(json_bytes(result), clean)
        for action, path in EVERY.items():
            with self.subTest(action=action):
                self.assertIn(path, tampered_line(stdout))

    def test_output_captured_in_the_tree_is_not_named(self):
        root = copy_repository(self)
        os.makedirs(os.path.join(root, ".loop"))
        out = os.path.join(support.tmpdir(self), "out")
        local = "%s grader/local.py --limit 1 --out %s" % (shlex.quote(sys.executable),
                                                          shlex.quote(out))
        for way, command, written in (
                ("redirected", "%s > .loop/run.log 2>&1", ".loop/run.log"),
                ("appended", "%s >> .loop/run.log 2>&1", ".loop/run.log"),
                ("teed", "%s 2>&1 | tee .loop/tee.log", ".loop/tee.log"),
                ("piped", "%s 2>&1 | cat > results.txt", "results.txt")):
            with self.subTest(way=way):
                done = subprocess.run(["bash", "-c", "set -o pipefail; " + command % local],
                                      cwd=root, capture_output=True, text=True, timeout=300,
                                      stdin=subprocess.DEVNULL)
                self.assertEqual(done.returncode, 0, done.stderr)
                with open(os.path.join(out, "result.json")) as f:
                    self.assertNotIn("tampered", json.load(f))
                with open(os.path.join(root, written)) as f:
                    self.assertIn("status: valid\n", f.read())

    def test_a_change_made_before_the_run_is_named_too(self):
        root = copy_repository(self)
        with open(os.path.join(root, "grader", "grade.py"), "a") as f:
            f.write("\n")
        os.remove(os.path.join(root, "src", "tester.py"))          # editable: not looked at
        status, stdout, blob = run_local(self, root)
        self.assertEqual(status, 0, stdout)
        self.assertEqual(json.loads(blob)["tampered"], ["grader/grade.py"])

    def test_the_report_and_the_comparison_see_it(self):
        root = copy_repository(self)
        blob = run_local(self, root, tamper="modify")[2]
        path = support.write(self, "result.json", blob.decode())
        status, stdout, stderr = support.run_command(self, "grader/report.py", path)
        self.assertEqual(status, 0, stderr)
        self.assertIn("warning: files outside the editable folders had changed", stdout)
        self.assertIn("grader/arh_grader/engine.py", stdout)
        sample = compare_log.read_sample_result(path)
        self.assertEqual((sample["tampered"], sample["suspect"]),
                         (["grader/arh_grader/engine.py"], False))
        clean = support.write(self, "clean.json", run_local(self, root)[2].decode())
        self.assertEqual(compare_log.read_sample_result(clean)["tampered"],
                         ["grader/arh_grader/engine.py"])     # still not the committed one
        git(self, root, "checkout", "--", "grader/arh_grader/engine.py")
        clean = support.write(self, "clean.json", run_local(self, root)[2].decode())
        self.assertEqual(compare_log.read_sample_result(clean)["tampered"], [])

    def test_twenty_questions_local_run_names_it(self):
        root = copy_repository(self)
        with open(os.path.join(root, "grader", "arh_grader", "engine.py"), "a") as f:
            f.write("\n")
        os.remove(os.path.join(root, "examples", "twenty-questions", "src", "tester.py"))
        status, stdout, blob = run_local(self, root,
                                         script="examples/twenty-questions/tq/local.py")
        self.assertEqual(tampered_line(stdout), "grader/arh_grader/engine.py", stdout)
        self.assertEqual(json.loads(blob)["tampered"], ["grader/arh_grader/engine.py"])


class OutsideGitTest(unittest.TestCase):
    def test_a_change_during_the_run_is_named(self):
        root = copy_repository(self, with_git=False)
        status, stdout, blob = run_local(self, root)
        self.assertEqual((status, tampered_line(stdout)), (0, None), stdout)
        self.assertNotIn("tampered", json.loads(blob))
        status, stdout, blob = run_local(self, root, tamper="modify,shadow,delete,kept,data")
        self.assertEqual(json.loads(blob)["tampered"],
                         [".loop/kept.py", "grader/arh_grader/engine.py", "grader/json.py",
                          "grader/mmi.py"])


@unittest.skipUnless(HAS_GIT, "git is needed for a committed tree")
class BaselineTest(unittest.TestCase):
    """integrity.baseline and changes on a small committed tree."""

    def setUp(self):
        self.root = support.tmpdir(self)
        for path, text in (("code/mod.py", "X = 1\n"), ("code/pkg/sub.py", "Y = 2\n"),
                           ("src/tester.py", "Z = 3\n"), ("notes.txt", "n\n"),
                           (".gitignore", "__pycache__/\n*.pyc\n/out/\n")):
            self.write(path, text)
        git(self, self.root, "init", "-q")
        git(self, self.root, "add", "-A")
        git(self, self.root, "commit", "-q", "-m", "base")
        self.write("kept.txt", "an untracked file outside code folders\n")

    def write(self, path, text, mode="w"):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, mode) as f:
            f.write(text)
        return full

    def test_an_untouched_tree_has_no_change(self):
        base = integrity.baseline(self.root, outputs=("out",))
        self.write("out/result.json", "{}")                     # an output folder
        self.write("src/new.py", "")                            # editable
        compile_in_tree(os.path.join(self.root, "code", "mod.py"))
        self.assertEqual(integrity.changes(base), [])

    def test_each_change_is_named(self):
        base = integrity.baseline(self.root)
        self.write("code/mod.py", "X = 2\n")                    # tracked, modified
        os.remove(os.path.join(self.root, "notes.txt"))         # tracked, deleted
        self.write("code/pkg/json.py", "")                      # ignored nowhere, in code
        self.write("code/json.pyc", "")                         # ignored, in code
        self.write("kept.txt", "changed\n")                     # data: not looked at
        self.write("loop/kept.py", "")                          # Python, outside code
        git(self, self.root, "add", "-A")
        git(self, self.root, "commit", "-q", "-m", "hidden")    # a commit hides nothing
        self.assertEqual(integrity.changes(base), [
            "code/json.pyc", "code/mod.py", "code/pkg/json.py", "loop/kept.py", "notes.txt"])

    def test_bytecode_is_judged_by_what_python_would_load(self):
        source = os.path.join(self.root, "code", "mod.py")
        genuine = compile_in_tree(source)
        base = integrity.baseline(self.root)
        self.assertEqual(integrity.changes(base), [])
        with open(genuine, "rb") as f:
            header = f.read(16)
        import marshal
        forged = header + marshal.dumps(compile("X = 99\n", source, "exec"))
        with open(genuine, "wb") as f:
            f.write(forged)
        self.assertEqual(integrity.changes(base), [os.path.relpath(genuine, self.root)])
        with open(genuine, "wb") as f:                          # stale: Python recompiles
            f.write(header[:8] + b"\0\0\0\0" + header[12:] + forged[16:])
        self.assertEqual(integrity.changes(base), [])
        self.write("code/__pycache__/notes.txt", "")
        self.assertEqual(integrity.changes(base), ["code/__pycache__/notes.txt"])


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless(HAS_GIT, "git is needed for a committed copy")
class ComparisonTest(unittest.TestCase):
    """compare.py notes the files outside src/ that differ, as local.py does,
    and keeps nothing they made."""

    def test_a_comparison_by_a_changed_grader_keeps_nothing(self):
        root = copy_repository(self)
        with open(os.path.join(root, "grader", "sprt.py"), "a") as f:
            f.write("\n# changed\n")
        folder = support.tmpdir(self)
        log = os.path.join(folder, "results.tsv")
        calibration = os.path.join(root, "grader", "group_testing", "calibration.py")
        splitting = shutil.copy(support.SPLITTING, os.path.join(folder, "splitting.py"))
        done = subprocess.run(
            [sys.executable, os.path.join(root, "grader", "compare.py"), "--challenger",
             calibration, "--incumbent", splitting,
             "--state", os.path.join(folder, "state.json"), "--log", log],
            cwd=root, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        lines = support.lines_of(done.stdout)
        self.assertEqual((done.returncode, lines["decision"]), (0, "accept"), done.stderr)
        self.assertEqual(lines["tampered"], "grader/sprt.py")
        with open(log, encoding="utf-8") as f:
            self.assertEqual(f.read().splitlines()[1].split("\t")[5], "discard")
