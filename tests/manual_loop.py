"""A manual's experiment loop run as its reader runs it: the ```sh blocks
of a PROGRAM.md read out of its text (so that the two cannot drift), run by
bash in a fresh git repository made of this tree's tracked files, with
`python3` the Python of the tests. Problem-free: each problem's test says
which manual, which folder of the repository it runs in, and which testers
its experiments try.

    loop = manual_loop.Loop(case, manual="PROGRAM.md", folder="")
    loop.run("setup")
    printed, row = loop.experiment(source, "uses the priors")   # experiment + decide
"""

import os
import re
import shutil
import subprocess
import sys

MESSAGE = '"sort pools by posterior mass"'   # the manual's commit message, replaced per idea
BLOCKS = {                 # a block of the loop, by the first words of its first line
    "setup": "git checkout -b ",
    "experiment": "git add src/tester.py && git commit ",
    "decide": "if [ ",
}
AVAILABLE = bool(shutil.which("git") and shutil.which("bash"))


def loop_blocks(text):
    """{name: text} of BLOCKS among the ```sh blocks of a manual; a block
    named twice or missing raises AssertionError naming it."""
    found = {}
    for block in re.findall(r"^```sh\n(.*?)^```$", text, flags=re.M | re.S):
        for name, start in BLOCKS.items():
            if block.startswith(start):
                if name in found:
                    raise AssertionError("the manual has two loop blocks starting %r" % start)
                found[name] = block
    missing = sorted(set(BLOCKS) - set(found))
    if missing:
        raise AssertionError("the manual has no loop block %s (starting %s)"
                             % (missing, [BLOCKS[m] for m in missing]))
    return found


class Loop:
    """The loop of `manual` (a path relative to `root`) in a fresh copy of
    `root`'s tracked files under a folder of `case` (removed at its end),
    its blocks run in the copy's `folder`. `left_out`: path prefixes not
    copied; `message`: the manual's commit message in its experiment block."""

    def __init__(self, case, *, root, manual, folder="", left_out=(), message=MESSAGE,
                 tmpdir):
        self.case, self.message = case, message
        with open(os.path.join(root, manual), encoding="utf-8") as f:
            self.blocks = loop_blocks(f.read())
        case.assertEqual(self.blocks["experiment"].count(message), 1,
                         "the experiment block commits with the message %s once" % message)
        bin_dir, home = tmpdir(case), tmpdir(case)
        os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        self.env.update(PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), HOME=home,
                        GIT_AUTHOR_NAME="agent", GIT_AUTHOR_EMAIL="agent@example.invalid",
                        GIT_COMMITTER_NAME="agent", GIT_COMMITTER_EMAIL="agent@example.invalid")
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.root = os.path.join(tmpdir(case), "repo")
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                                timeout=60, check=True).stdout
        for path in (os.fsdecode(p) for p in listed.split(b"\0") if p):
            source = os.path.join(root, path)
            if path.startswith(tuple(left_out)) or not os.path.isfile(source):
                continue
            os.makedirs(os.path.dirname(os.path.join(self.root, path)), exist_ok=True)
            shutil.copy2(source, os.path.join(self.root, path))
        self.git("init", "-q", "-b", "main")
        self.commit("the project")
        self.folder = os.path.join(self.root, folder)

    def git(self, *args):
        """git in the copy; its stdout, stripped."""
        done = subprocess.run(["git", "-C", self.root, *args], capture_output=True, text=True,
                              timeout=60, env=self.env)
        self.case.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.strip()

    def commit(self, message):
        """Commit every file of the copy as it is now."""
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def path(self, name):
        """`name` in the loop's folder."""
        return os.path.join(self.folder, name)

    def read(self, name):
        with open(self.path(name), encoding="utf-8") as f:
            return f.read()

    def run(self, name, **replace):
        """Run block `name` in the loop's folder, each `replace` key by its
        value; its stdout (its stderr is git's chatter and progress)."""
        block = self.blocks[name]
        for old, new in replace.items():
            block = block.replace(old, new)
        done = subprocess.run(["bash", "-c", block], cwd=self.folder, capture_output=True,
                              text=True, timeout=600, stdin=subprocess.DEVNULL, env=self.env)
        return done.stdout

    def experiment(self, source, description):
        """Write `source` as src/tester.py, run the experiment block (with
        `description` as its commit message) and the decide block; (what
        the experiment printed, the last row's cells of .loop/results.tsv).
        The run's log must not say tampered."""
        with open(self.path(os.path.join("src", "tester.py")), "w", encoding="utf-8") as f:
            f.write(source)
        printed = self.run("experiment", **{self.message: '"%s"' % description})
        self.case.assertNotIn("tampered", self.read(os.path.join(".loop", "run.log")))
        self.run("decide")
        return printed, self.rows()[-1]

    def rows(self):
        """The cells of every line of .loop/results.tsv."""
        return [line.split("\t") for line in self.read(
            os.path.join(".loop", "results.tsv")).splitlines()]
