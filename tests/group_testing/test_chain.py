"""The chain of kept gains (grader/chain.py): the mean test keeps each step
from binary splitting to the strongest tester on seed 0's streams, and the
last tester ends within 0.01 of the information floor on the headroom's
set, as docs/comparison.md ("The chain") quotes them."""

import os
import re
import unittest

import support

from arh_grader.compare import betting  # noqa: E402
from group_testing import chain, pairs  # noqa: E402

EXPECTED = {               # seed 0: each step's (decision, comparisons)
    "calibration": ("accept", 26),
    "informed": ("accept", 120),
    "strongest": ("accept", 406),
}


def program():
    with open(os.path.join(support.ROOT, support.COMPARISON), encoding="utf-8") as f:
        return " ".join(f.read().split())


class ChainTest(unittest.TestCase):
    def check_step(self, challenger, incumbent):
        """The step on seed 0's stream decides as the manual says; its
        differences."""
        record, values = chain.step(betting, pairs.load(challenger), pairs.load(incumbent),
                                    "chain/0/%s" % chain.name(challenger))
        got = (record.decision, record.comparisons)
        self.assertEqual(got, EXPECTED[chain.name(challenger)])
        self.assertEqual(len(values), record.comparisons)
        self.assertIn("%s against %s: %s after %d comparisons"
                      % (chain.name(challenger), chain.name(incumbent), *got), program())
        return values

    def test_the_first_steps_are_kept(self):
        for challenger, incumbent in chain.STEPS[:2]:
            with self.subTest(challenger=challenger):
                self.check_step(challenger, incumbent)

    def test_the_last_step_is_kept_and_is_what_compare_decides(self):
        """The last step (about 15 s of CPU), and the manual's real run of
        it: compare.py on the same seed draws the same stream
        (comparison.draw is instances.draw_instance) and scores the same
        differences, so it decides the same, with the mean difference the
        manual quotes."""
        values = self.check_step(*chain.STEPS[-1])
        self.assertIn("--incumbent tests/testers/informed.py --state .loop/chain-real.json "
                      "--seed chain/0/strongest`, accepts after the same %d comparisons "
                      "(score difference %.4f)" % (len(values), sum(values) / len(values)),
                      program())

    @unittest.skipUnless(os.environ.get("CHAIN_FULL"), "about 10 minutes: CHAIN_FULL=1 runs it")
    def test_every_seed_keeps_every_step(self):
        status, out, err = support.run_command(self, "grader/chain.py", timeout=3600)
        self.assertEqual(status, 0, err)
        line = support.lines_of(out)["seeds_keeping_every_step"]
        self.assertEqual(line, "%d of %d" % (chain.SEEDS, chain.SEEDS))
        support.assert_quoted(self, "(seeds_keeping_every_step: %s)" % line,
                              support.COMPARISON)
        support.assert_quoted(self, "the gap: %s" % support.lines_of(out)["gap"],
                              support.COMPARISON)

    def test_the_last_tester_is_within_close_of_the_floor(self):
        # the headroom table's figures, which test_fit.py checks against
        # grader/headroom.py on the same set
        text = support.read(support.SCORING)
        score = float(re.search(r"\| %s \| ([0-9.]+) \|" % chain.name(chain.STEPS[-1][0]),
                                text).group(1))
        floor = float(re.search(r"\| information floor \| ([0-9.]+) \|", text).group(1))
        self.assertLessEqual(score - floor, chain.CLOSE)
        support.assert_quoted(self, "the gap: %.4f" % (score - floor),
                              support.COMPARISON)
        support.assert_quoted(self, "%.4f against the floor's %.4f" % (score, floor),
                              support.COMPARISON)

    def test_the_steps_are_a_chain_from_binary_splitting(self):
        self.assertGreater(len(chain.STEPS), 1)
        self.assertEqual(chain.STEPS[0][1], "tests/testers/splitting.py")
        for (_, incumbent), (challenger, _) in zip(chain.STEPS[1:], chain.STEPS):
            self.assertEqual(incumbent, challenger)


if __name__ == "__main__":
    unittest.main()
