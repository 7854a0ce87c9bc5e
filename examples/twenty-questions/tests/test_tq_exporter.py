"""The exporter: a tester's policy graph plays exactly as the tester does,
identical subgraphs are merged, and a tester no graph represents is refused."""

import unittest

import tq_support
from tq import data, direct, evaluator, exporter, policy_file, score, sets

DEV = [item["animal"] for item in sets.read_set(sets.DEV_FILE)]


def via_file(case, value):
    """The policy after a round trip through a ZIP and the validator."""
    path = tq_support.tmpdir(case) + "/submission.zip"
    policy_file.write(path, value)
    return policy_file.load(path)


class BaselineExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.play = staticmethod(direct.load_tester(tq_support.BASELINE).play)
        cls.policy, cls.counts = exporter.export(cls.play)

    def test_it_validates_and_plays_as_the_tester_does(self):
        checked = via_file(self, self.policy)
        self.assertEqual(checked, self.policy)
        tq_support.show("\nbaseline graph: %d nodes (%d before merging)" % self.counts)
        self.assertEqual(self.counts, (2029, 2029))
        for name, animals in (("dev", DEV), ("pool", range(data.ANIMALS))):
            with self.subTest(set=name):
                walked = evaluator.evaluate(checked, animals)
                played = direct.run_set(self.play, animals)
                self.assertEqual(walked, played)           # same calls, answers, rounds
                self.assertEqual(score.mean_score(walked), score.mean_score(played))
        self.assertEqual(score.mean_score(evaluator.evaluate(checked, DEV)), 0.7534666666666666)


class ShapesTest(unittest.TestCase):
    def test_identical_subgraphs_are_merged(self):
        def play(ask, guess):          # the same calls whatever the answers
            for question in range(14):
                ask(question)
            guess(0)

        value, (nodes, before) = exporter.export(play)
        self.assertEqual(nodes, 15)    # one node a depth
        self.assertGreater(before, 1000)
        self.assertEqual(evaluator.evaluate(via_file(self, value), DEV),
                         direct.run_set(play, DEV))

    def test_returning_is_a_null_edge_or_a_stop_root(self):
        def stops(ask, guess):
            pass

        def half(ask, guess):
            if not ask(0):
                guess(0)

        self.assertEqual(exporter.export(stops)[0]["nodes"], [{"type": "stop"}])
        self.assertEqual(exporter.export(half)[0]["nodes"],
                         [{"type": "ask", "question": 0, "yes": None, "no": 1},
                          {"type": "guess", "animal": 0, "wrong": None}])

    def test_a_tester_with_memory_is_refused(self):
        rounds = []

        def remembers(ask, guess):
            rounds.append(1)
            ask(len(rounds) % 2)

        with self.assertRaises(exporter.ExportError) as caught:
            exporter.export(remembers, animals=[0, 1])
        self.assertIn("after no call it called ('ask', 1) once and called ('ask', 0) another "
                      "time",
                      str(caught.exception))

    def test_a_failing_tester(self):
        def fails(ask, guess):
            ask(0)
            raise KeyError("x")

        with self.assertRaises(direct.TesterError) as caught:
            exporter.export(fails)
        self.assertIn("round on animal 0: play raised KeyError", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
