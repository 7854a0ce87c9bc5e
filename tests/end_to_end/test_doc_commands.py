"""The commands every document shows (README.md, the manual PROGRAM.md and
the reference in docs/), run as shown, and the keys they list, against what
the programs print and write.

Each document's commands run in order, in a copy of the project of their
own (so that what they write stays there), with binary splitting in its
src/tester.py: the documents describe the shipped tester. A command is a
line of a `sh` block, or an inline `python3 ...`, that starts with python3,
cp or mkdir -p; Docker's commands, the test command itself and lines with a
placeholder (`<...>`, `...`) are left out, and the slow ones run on fewer
instances (SMALLER). Each must exit with status 0, print its keys (KEYS),
and the paths it prints must exist; a printed `report:` command is run too.
The documents' copies run a few at once (PARALLEL), each its commands in order; a
command that only reads (SAME_AGAIN) shown again, word for word, in the
same document prints what it printed the first time, so it runs once.
"""

import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

import support

DOCS = support.DOCUMENTS    # README.md, PROGRAM.md, docs/README.md and the reference
SHOWING = ("README.md", support.MANUAL)     # the documents that must show commands
PARALLEL = 3                                # copies running at once
COPIED = ("grader", "harness", "src", "sample", "autoresearch.toml",
          "tests/testers")          # the headroom's testers
SKIPPED = ("python3 -m unittest", "python3 tests/run.py")   # the test commands: this suite
# words of commands that need what a copy of the project lacks: a worker of
# another language or one already running (test_any_worker and
# test_conformance run those), or the project's git history (the loop)
NEEDS_MORE = ("node ", "--worker-url http", "--worker http", "$(git ", "git show ",
              "grader/chain.py")    # minutes on one seed: test_chain runs its steps in process
SMALLER = [  # (words of a command, options added to it): the same, on less
    # one case that reaches the cap within its 60 s deadline (the hanging one
    # must reach it within 3 s, which a loaded machine may not give it)
    ("grader/selfcheck.py", ["--case", "over_cap_then_wrong"]),
    ("grader/bench.py", ["--requests", "100", "--instances", "5"]),
    ("--items set500.jsonl", ["--limit", "20"]),
    ("grader/fit.py", ["--sets", "2"]),
    ("grader/headroom.py", ["--count", "5"]),
    ("grader/betting_table.py", ["--runs", "2", "--count", "50"]),   # test_betting: its rows
    ("grader/sprt.py --characteristics", ["--runs", "10"]),
    ("--seed chain/0/strongest", ["--max-comparisons", "5"]),   # test_chain: its decision
]
KEYS = {  # words of a command: keys its stdout holds
    "grader/local.py": ("status", "kind", "relative_tests", "information_floor",
                        "entropy_bound", "binary_entropy_ratio", "tests", "instances",
                        "saved_bits",
                        "weighted_saved_bits", "max_saved_bits", "cheat_bits", "suspect",
                        "result", "report"),
    "grader/report.py": ("result", "status", "relative_tests", "information_floor", "gap",
                         "family", "above_floor"),
    "--against": ("against", "compared", "W/L/D", "mean_difference",
                  "mean_difference_ci95", "lost_most"),
    "grader/instances.py --stats": ("set", "instances", "families", "defectives_mean",
                                    "baseline_mean", "bound_ratio_mean",
                                    "binary_entropy_ratio_mean", "information_floor"),
    "grader/fit.py": ("sets", "families"),
    "grader/headroom.py": ("seed", "instances", "mmi", "strongest_above_floor"),
    "grader/mmi.py": ("result", "relative_tests", "floor", "mmi", "floor_within_mmi"),
    "grader/compare.py": ("decision", "W/L/D"),
    "grader/selfcheck.py": ("selfcheck",),
    "grader/bench.py": ("harness_rtt_median_us", "harness_over_floor_us",
                        "harness_counted_match"),
}
SAME_AGAIN = ("python3 grader/fit.py", "python3 grader/headroom.py")   # seeded, write nothing
PATH_KEYS = ("result", "set", "svg", "png", "against")   # keys whose value is a file
FIXTURES = {"other.jsonl": 5, "held-out.jsonl": 5}  # files commands name: sample lines
COMMAND_TIMEOUT = 600                             # seconds, a generous bound


def read(name):
    with open(os.path.join(support.ROOT, name), encoding="utf-8") as f:
        return f.read()


def commands(text):
    """The commands of a Markdown text, in order: each line of its `sh`
    blocks (continuations joined, comments dropped) and each inline
    `python3 ...`."""
    found = []
    for block, inline in re.findall(r"^```sh\n(.*?)^```|`(python3\s[^`]+)`", text, re.M | re.S):
        if inline:
            found.append(" ".join(inline.split()))
            continue
        for line in block.replace("\\\n", " ").splitlines():
            line = " ".join(line.split("#", 1)[0].split())
            if line:
                found.append(line)
    return found


def runnable(command):
    return (command.startswith(("python3 ", "cp ", "mkdir -p "))
            and not command.startswith(SKIPPED) and "<" not in command and "..." not in command
            and not any(words in command for words in NEEDS_MORE))


def key_lines(stdout):
    """The `key: value` lines of an output (not a message's indented lines)."""
    return [line.split(": ", 1) for line in stdout.splitlines()
            if ": " in line and not line[:1].isspace()]


def without_parentheses(text):
    return re.sub(r"\([^()]*\)", "", text)


def backticked(text):
    return re.findall(r"`([^`]+)`", without_parentheses(text))


class Sandbox:
    """A copy of the project in a temporary folder, with binary splitting as
    src/tester.py, a `python3` of this interpreter first on PATH, and a
    tmp/ folder standing in for /tmp."""

    def __init__(self, case):
        self.root = support.tmpdir(case)
        for name in COPIED:
            source = os.path.join(support.ROOT, name)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(self.root, name),
                                ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(source, self.root)
        shutil.copy(support.SPLITTING, os.path.join(self.root, "src", "tester.py"))
        for name in ("bin", "tmp"):
            os.mkdir(os.path.join(self.root, name))
        shim = os.path.join(self.root, "bin", "python3")
        with open(shim, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\nexec %s \"$@\"\n" % shlex.quote(sys.executable))
        os.chmod(shim, 0o755)
        with open(support.SAMPLE, encoding="utf-8") as f:
            sample = f.readlines()
        for name, count in FIXTURES.items():
            with open(os.path.join(self.root, name), "w", encoding="utf-8") as f:
                f.writelines(sample[:count])

    def run(self, command):
        """(status, stdout, stderr) of a shell command line run here."""
        command = command.replace("/tmp/", os.path.join(self.root, "tmp", ""))
        for words, options in SMALLER:
            if words in command:
                command += " " + " ".join(options)
        env = dict(os.environ, PATH=os.path.join(self.root, "bin") + os.pathsep
                   + os.environ.get("PATH", ""))
        done = subprocess.run(["/bin/sh", "-c", command], cwd=self.root, env=env,
                              capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
                              stdin=subprocess.DEVNULL)
        return done.returncode, done.stdout, done.stderr


def run_doc(doc, sandbox):
    """Each runnable command of `doc`, in order, in `sandbox`, and each
    `report:` command one prints just after it: [(command, (status,
    stdout, stderr), {report command: its (status, stdout, stderr)})]."""
    shown, ran_before = [], {}
    for command in (c for c in commands(read(doc)) if runnable(c)):
        if command in ran_before and command.split(" -")[0] in SAME_AGAIN:
            ran = ran_before[command]
        else:
            ran = ran_before[command] = sandbox.run(command)
        reports, stdout = {}, ran[1]
        while dict(key_lines(stdout)).get("report", "") not in ("", *reports):
            report = dict(key_lines(stdout))["report"]
            reports[report] = sandbox.run(report)
            stdout = reports[report][1]
        shown.append((command, ran, reports))
    return shown


class DocumentedCommandsTest(unittest.TestCase):
    first = {}      # {doc: (command, (status, stdout, stderr))}: its first command, in a new copy

    def check_output(self, sandbox, command, stdout, reports):
        """The keys and paths a command printed; `reports` holds what its
        printed `report:` command printed (run_doc ran it)."""
        lines = dict(key_lines(stdout))
        for words, keys in KEYS.items():
            if words in command and ">" not in command:
                for key in keys:
                    self.assertIn(key, lines, "%s printed no %r" % (command, key))
        for key in PATH_KEYS:
            if key in lines:
                self.assertFalse(os.path.isabs(lines[key]), "%s: %s" % (key, lines[key]))
                self.assertTrue(os.path.exists(os.path.join(sandbox.root, lines[key])),
                                "%s: %s does not exist" % (key, lines[key]))
        if "svg" in lines:
            ET.parse(os.path.join(sandbox.root, lines["svg"]))
        if "report" in lines:
            result = lines["result"]
            self.assertEqual(lines["report"], "python3 grader/report.py %s --svg %s"
                             % (result, os.path.join(os.path.dirname(result), "result.svg")))
            status, out, err = reports[lines["report"]]
            self.assertEqual(status, 0, err)
            self.check_output(sandbox, lines["report"], out, reports)

    def test_each_command_runs_as_shown(self):
        in_docs = ["docs/" + name for name in os.listdir(os.path.join(support.ROOT, "docs"))
                   if name.endswith(".md")]
        self.assertEqual(sorted(DOCS), sorted(["README.md", support.MANUAL] + in_docs))
        sandboxes = [Sandbox(self) for _ in DOCS]
        with concurrent.futures.ThreadPoolExecutor(PARALLEL) as pool:
            runs = list(pool.map(run_doc, DOCS, sandboxes))
        for doc, sandbox, shown in zip(DOCS, sandboxes, runs):
            if doc in SHOWING:
                self.assertGreater(len(shown), 2, doc)
            for index, (command, ran, reports) in enumerate(shown):
                with self.subTest(doc=doc, command=command):
                    status, stdout, stderr = ran
                    if index == 0:
                        type(self).first[doc] = (command, ran)
                    self.assertEqual(status, 0, "%s\n%s" % (stdout[-1500:], stderr[-1500:]))
                    self.check_output(sandbox, command, stdout, reports)

    def test_readme_shows_a_real_run(self):
        """The README's example lines are a real run's, in its order, with
        the same values where the example gives one in full."""
        text = read("README.md")
        example = re.search(r"^```text\n\$ (python3 [^\n]+)\n(.*?)^```", text, re.M | re.S)
        command, ran = self.first.get("README.md", (None, None))
        if command != example.group(1):     # the README's first command, run in a new copy
            ran = Sandbox(self).run(example.group(1))
        status, stdout, stderr = ran
        self.assertEqual(status, 0, stderr)
        real = key_lines(stdout)
        shown = [line.split(": ", 1) for line in example.group(2).splitlines()
                 if ": " in line and not line.startswith("progress: ")]
        keys = [k for k, _ in real]
        self.assertEqual([k for k in keys if k in dict(shown)], [k for k, _ in shown])
        for key, value in shown:
            with self.subTest(key=key):
                if "..." not in value:
                    self.assertEqual(dict(real)[key], value)
        self.assertIn("progress: 40/40", stderr)
        progress = re.search(r"^(progress: \d+/40 .*\()([0-9.]+) s\)$", example.group(2), re.M)
        shown = re.search(r"^%s([0-9.]+) s\)$" % re.escape(progress.group(1)), stderr, re.M)
        self.assertIsNotNone(shown, "no %r line on stderr" % progress.group(1))
        self.assertLess(float(shown.group(1)), 60.0)   # the example's time: a loose bound


class ListedKeysTest(unittest.TestCase):
    """docs/local-run.md's list of summary keys and its table of result.json's
    keys are those of a valid run and of a failed one."""

    @classmethod
    def setUpClass(cls):
        """A valid run and a failed one (a tester that answers []) of the
        sample's first instances: (keys printed, result.json) of each."""
        cls.folder = tempfile.mkdtemp(prefix="gt-keys-")
        cls.addClassCleanup(shutil.rmtree, cls.folder, True)
        wrong = os.path.join(cls.folder, "wrong.py")
        with open(wrong, "w", encoding="utf-8") as f:
            f.write("def find(n, priors, test):\n    return []\n")
        cls.runs = {}
        for name, tester in (("valid", support.SPLITTING), ("failed", wrong)):
            out = os.path.join(cls.folder, name)
            _, stdout, _ = support.run_command(None, "grader/local.py", "--tester", tester,
                                               "--limit", "3", "--out", out)
            with open(os.path.join(out, "result.json"), encoding="utf-8") as f:
                cls.runs[name] = ([key for key, _ in key_lines(stdout)], json.load(f))

    def test_the_summary_keys(self):
        text = read(support.LOCAL_RUN)
        paragraph = re.search(r"^The summary is .*?\n\n", text, re.M | re.S).group(0)
        listed = [re.sub(r"\.FAMILY$", ".*", k) for k in backticked(paragraph)
                  if re.fullmatch(r"[a-z_]+(\.FAMILY)?", k)]
        printed = []
        for keys, _ in self.runs.values():
            printed += [re.sub(r"\.(uniform|two-tier|log-normal)$", ".*", k) for k in keys]
        self.assertEqual(set(listed), set(printed) | {"warning", "deterministic",
                                                      "nondeterministic"})
        valid = list(dict.fromkeys(re.sub(r"\.(uniform|two-tier|log-normal)$", ".*", k)
                                   for k in self.runs["valid"][0]))
        self.assertEqual([k for k in dict.fromkeys(listed) if k in valid], valid)

    def test_the_result_json_keys(self):
        text = read(support.LOCAL_RUN)
        table = {}
        for row in re.findall(r"^\| (.+?) \| (.+?) \|$", text, re.M):
            table[row[0]] = set(backticked(row[1]))
        valid, failed = self.runs["valid"][1], self.runs["failed"][1]
        where = {w: keys for w, keys in table.items() if "`items`" in w or "`families`" in w
                 or w == "the run"}
        self.assertEqual(len(where), 3, sorted(table))
        for name, keys in where.items():
            with self.subTest(where=name):
                if name == "the run":
                    self.assertEqual(keys, set(valid) | set(failed))
                elif "`families`" in name:
                    self.assertEqual(keys, set(valid["families"]["uniform"]))
                else:
                    self.assertEqual(keys, set(valid["items"][0]) | set(failed["items"][-1]))


if __name__ == "__main__":
    unittest.main()
