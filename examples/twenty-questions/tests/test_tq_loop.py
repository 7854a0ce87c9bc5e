"""Twenty questions' loop exactly as its PROGRAM.md prints it (the
repository's tests/manual_loop.py), from a weaker start (fixed_order.py
as the shipped tester): the baseline is a real gain and is kept, the
weaker tester again is discarded, a tester that raises gets a `crash` row;
the run's own captured output never marks a run tampered."""

import os
import sys
import unittest

import tq_support

sys.path.insert(0, os.path.join(tq_support.ROOT, "tests"))
import manual_loop  # noqa: E402

FOLDER = os.path.relpath(tq_support.PROJECT, tq_support.ROOT)
MESSAGE = '"ask the question that splits best"'


def in_src(name):
    """A tester of tests/testers/ as src/tester.py holds it: data/ is one
    folder up from src/, two from tests/testers/."""
    with open(tq_support.tester(name), encoding="utf-8") as f:
        return f.read().replace("os.pardir, os.pardir, \"data\"", "os.pardir, \"data\"")


@unittest.skipUnless(manual_loop.AVAILABLE, "the loop needs git and bash")
class LoopTest(unittest.TestCase):
    def test_a_gain_is_kept_a_loss_and_a_crash_are_not(self):
        weaker, baseline = in_src("fixed_order"), in_src("baseline")
        self.assertNotEqual(weaker, baseline)
        loop = manual_loop.Loop(self, root=tq_support.ROOT, manual=FOLDER + "/PROGRAM.md",
                                folder=FOLDER, message=MESSAGE, tmpdir=tq_support.tmpdir,
                                left_out=("examples/algotune-graph-isomorphism/",))
        with open(loop.path("src/tester.py"), "w", encoding="utf-8") as f:
            f.write(weaker)
        loop.commit("a weaker start")
        self.assertEqual(loop.run("setup"), "status: valid\nmean_score: 0.442\n")
        start = loop.git("rev-parse", "HEAD")

        printed, row = loop.experiment(baseline, "splits best")
        gain = loop.git("rev-parse", "HEAD")
        self.assertEqual(loop.git("rev-parse", "HEAD~1"), start, "the branch advanced")
        self.assertEqual((row[0], row[1], row[5], row[8]),
                         (gain[:len(row[0])], "accept", "keep", "splits best"), printed)
        self.assertEqual(loop.read(".loop/kept.py"), baseline)
        for source, description, status in ((weaker, "asks in order", "discard"),
                                            (in_src("raises"), "raises", "crash")):
            with self.subTest(idea=description):
                printed, row = loop.experiment(source, description)
                self.assertEqual((row[5], row[8]), (status, description), printed)
                self.assertEqual(loop.git("rev-parse", "HEAD"), gain, "back to the kept commit")
                self.assertEqual(loop.git("status", "--porcelain"), "")
                self.assertEqual(loop.read("src/tester.py"), baseline)
        self.assertEqual([row[5] for row in loop.rows()], ["status", "keep", "discard", "crash"])
        tq_support.show("\n" + "\n".join("\t".join(row) for row in loop.rows()))


if __name__ == "__main__":
    unittest.main()
