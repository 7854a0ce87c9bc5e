"""Group testing's loop exactly as PROGRAM.md prints it (tests/manual_loop.py):
a real gain is kept (the branch advances and the kept tester is the
gain), a loss is discarded (back to the kept commit), a tester that
crashes gets a `crash` row and is discarded too; the run's own captured
output never marks a run tampered."""

import os
import unittest

import manual_loop
import support
from arh_grader.compare.log import LOG_FIELDS

ALONE = "def find(n, priors, test):\n    return [i for i in range(n) if test([i])]\n"
CRASH = "def find(n, priors, test):\n    raise RuntimeError('a slip')\n"


@unittest.skipUnless(manual_loop.AVAILABLE, "the loop needs git and bash")
class ManualLoopTest(unittest.TestCase):
    def test_a_gain_is_kept_a_loss_and_a_crash_are_not(self):
        loop = manual_loop.Loop(self, root=support.ROOT, manual="PROGRAM.md",
                                left_out=("examples/",), tmpdir=support.tmpdir)
        with open(support.SPLITTING, encoding="utf-8") as f:   # whatever src/ holds now,
            splitting = f.read()                               # the loop starts from this
        with open(loop.path("src/tester.py"), "w", encoding="utf-8") as f:
            f.write(splitting)
        loop.commit("binary splitting")
        self.assertEqual(loop.run("setup"), "status: valid\nrelative_tests: 1.0\n")
        self.assertNotIn("tampered", loop.read(".loop/run.log"))
        base = loop.git("rev-parse", "HEAD")
        self.assertTrue(loop.git("branch", "--show-current").startswith("run/"))
        with open(support.INFORMED, encoding="utf-8") as f:
            informed = f.read()

        printed, row = loop.experiment(informed, "uses the priors")
        gain = loop.git("rev-parse", "HEAD")
        self.assertEqual(loop.git("rev-parse", "HEAD~1"), base, "the branch advanced")
        self.assertEqual((row[0], row[1], row[5], row[8]),
                         (gain[:len(row[0])], "accept", "keep", "uses the priors"), printed)
        self.assertIn("status: valid\n", printed)
        self.assertIn("decision: accept\n", printed)
        self.assertEqual(loop.read(".loop/kept.py"), informed)

        for source, description, status in ((ALONE, "each item alone", "discard"),
                                            (CRASH, "raises", "crash")):
            with self.subTest(idea=description):
                printed, row = loop.experiment(source, description)
                self.assertEqual((row[5], row[8]), (status, description), printed)
                self.assertEqual(loop.git("rev-parse", "HEAD"), gain, "back to the kept commit")
                self.assertEqual(loop.git("status", "--porcelain"), "")
                self.assertEqual(loop.read("src/tester.py"), informed)
        self.assertIn("kind: no_answer\n", printed)
        self.assertIn("error: the sample result result/result.json is invalid", printed)
        rows = loop.rows()
        self.assertEqual(rows[0], list(LOG_FIELDS))         # compare.py's header, by itself
        self.assertEqual([row[5] for row in rows[1:]], ["keep", "discard", "crash"])
        self.assertEqual(loop.git("log", "--format=%s"),
                         "uses the priors\nbinary splitting\nthe project")
        support.show("\n" + "\n".join("\t".join(row) for row in rows))


if __name__ == "__main__":
    unittest.main()
