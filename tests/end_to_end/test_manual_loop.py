"""The agents' loop exactly as PROGRAM.md prints it: its code blocks read
out of the manual (so that the two cannot drift), run by bash in a fresh
repository made of this tree's tracked files, with `python3` this Python.
Three experiments: a real gain is kept (the branch advances and the kept
tester is the gain), a loss is discarded (back to the kept commit), a
tester that crashes gets a `crash` row and is discarded too; the run's own
captured output never marks a run tampered."""

import os
import re
import shutil
import subprocess
import sys
import unittest

import support
from arh_grader.compare.log import LOG_FIELDS

MESSAGE = '"sort pools by posterior mass"'   # the manual's commit message, replaced per idea
BLOCKS = {                 # a block of the loop, by the first words of its first line
    "setup": "git checkout -b ",
    "experiment": "git add src/tester.py && git commit ",
    "decide": "if [ ",
}
LEFT_OUT = ("examples/",)  # tracked files the loop never reads, not copied
ALONE = "def find(n, priors, test):\n    return [i for i in range(n) if test([i])]\n"
CRASH = "def find(n, priors, test):\n    raise RuntimeError('a slip')\n"


def loop_blocks(text):
    """{name: text} of BLOCKS, the ```sh blocks of the manual's loop; a
    block named twice or missing fails with the manual's words."""
    found = {}
    for block in re.findall(r"^```sh\n(.*?)^```$", text, flags=re.M | re.S):
        for name, start in BLOCKS.items():
            if block.startswith(start):
                if name in found:
                    raise AssertionError("PROGRAM.md has two loop blocks starting %r" % start)
                found[name] = block
    missing = sorted(set(BLOCKS) - set(found))
    if missing:
        raise AssertionError("PROGRAM.md has no loop block %s (starting %s)"
                             % (missing, [BLOCKS[m] for m in missing]))
    return found


def fresh_repository(case):
    """A git repository holding this tree's tracked files (as they are in
    the tree), one commit on branch main; its root."""
    root = os.path.join(support.tmpdir(case), "repo")
    listed = subprocess.run(["git", "-C", support.ROOT, "ls-files", "-z"],
                            capture_output=True, timeout=60, check=True).stdout
    for path in (os.fsdecode(p) for p in listed.split(b"\0") if p):
        source = os.path.join(support.ROOT, path)
        if path.startswith(LEFT_OUT) or not os.path.isfile(source):
            continue
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        shutil.copy2(source, os.path.join(root, path))
    for command in (["init", "-q", "-b", "main"], ["add", "-A"],
                    ["commit", "-q", "-m", "the project"]):
        subprocess.run(["git", "-C", root, *command], check=True, timeout=60,
                       capture_output=True, env=environment(case))
    return root


def environment(case):
    """This Python as `python3` first on PATH, a git identity, a home of its own."""
    if not hasattr(case, "env"):
        bin_dir = support.tmpdir(case)
        os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
        case.env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        case.env.update(PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
                        HOME=support.tmpdir(case), GIT_AUTHOR_NAME="agent",
                        GIT_AUTHOR_EMAIL="agent@example.invalid", GIT_COMMITTER_NAME="agent",
                        GIT_COMMITTER_EMAIL="agent@example.invalid")
        case.env.pop("PYTHONDONTWRITEBYTECODE", None)
    return case.env


@unittest.skipUnless(shutil.which("git") and shutil.which("bash"), "the loop needs git and bash")
class ManualLoopTest(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(support.ROOT, "PROGRAM.md"), encoding="utf-8") as f:
            self.blocks = loop_blocks(f.read())
        self.assertEqual(self.blocks["experiment"].count(MESSAGE), 1,
                         "the experiment block commits with the message %s once" % MESSAGE)
        self.root = fresh_repository(self)

    def shell(self, block, **replace):
        """Run one block of the manual in the repository; its stdout (its
        stderr is git's chatter and the runs' progress)."""
        for old, new in replace.items():
            block = block.replace(old, new)
        done = subprocess.run(["bash", "-c", block], cwd=self.root, capture_output=True,
                              text=True, timeout=600, stdin=subprocess.DEVNULL,
                              env=environment(self))
        return done.stdout

    def git(self, *args):
        return subprocess.run(["git", "-C", self.root, *args], capture_output=True, text=True,
                              timeout=60, check=True).stdout.strip()

    def experiment(self, source, description):
        """Write `source` as the tester, run the experiment and decide
        blocks; (what the experiment block printed, the last row's cells).
        Nothing in the run's log says tampered."""
        with open(os.path.join(self.root, "src", "tester.py"), "w") as f:
            f.write(source)
        printed = self.shell(self.blocks["experiment"], **{MESSAGE: '"%s"' % description})
        with open(os.path.join(self.root, ".loop", "run.log"), encoding="utf-8") as f:
            self.assertNotIn("tampered", f.read())
        self.shell(self.blocks["decide"])
        with open(os.path.join(self.root, ".loop", "results.tsv"), encoding="utf-8") as f:
            return printed, f.read().splitlines()[-1].split("\t")

    def test_a_gain_is_kept_a_loss_and_a_crash_are_not(self):
        printed = self.shell(self.blocks["setup"])
        self.assertEqual(printed, "status: valid\nrelative_tests: 1.0\n")
        with open(os.path.join(self.root, ".loop", "run.log"), encoding="utf-8") as f:
            self.assertNotIn("tampered", f.read())
        base = self.git("rev-parse", "HEAD")
        self.assertTrue(self.git("branch", "--show-current").startswith("run/"))
        with open(support.INFORMED, encoding="utf-8") as f:
            informed = f.read()

        printed, row = self.experiment(informed, "uses the priors")
        gain = self.git("rev-parse", "HEAD")
        self.assertEqual(self.git("rev-parse", "HEAD~1"), base, "the branch advanced")
        self.assertEqual((row[0], row[1], row[5], row[8]),
                         (gain[:len(row[0])], "accept", "keep", "uses the priors"), printed)
        self.assertIn("status: valid\n", printed)
        self.assertIn("decision: accept\n", printed)
        self.assertEqual(support.read_bytes(os.path.join(self.root, ".loop", "kept.py")),
                         informed.encode())

        for source, description, status in ((ALONE, "each item alone", "discard"),
                                            (CRASH, "raises", "crash")):
            with self.subTest(idea=description):
                printed, row = self.experiment(source, description)
                self.assertEqual((row[5], row[8]), (status, description), printed)
                self.assertEqual(self.git("rev-parse", "HEAD"), gain, "back to the kept commit")
                self.assertEqual(self.git("status", "--porcelain"), "")
                self.assertEqual(support.read_bytes(os.path.join(self.root, "src", "tester.py")),
                                 informed.encode())
        self.assertIn("kind: no_answer\n", printed)
        self.assertIn("error: the sample result result/result.json is invalid", printed)
        with open(os.path.join(self.root, ".loop", "results.tsv"), encoding="utf-8") as f:
            rows = [line.split("\t") for line in f.read().splitlines()]
        self.assertEqual(rows[0], list(LOG_FIELDS))         # compare.py's header, by itself
        self.assertEqual([row[5] for row in rows[1:]], ["keep", "discard", "crash"])
        self.assertEqual(self.git("log", "--format=%s"), "uses the priors\nthe project")
        support.show("\n" + "\n".join("\t".join(row) for row in rows))


if __name__ == "__main__":
    unittest.main()
