"""The evaluator: how a policy graph is walked, its budget and its cycles."""

import unittest

import tq_support  # noqa: F401  (puts tq and the SDK on sys.path)
from tq import data, evaluator, policy_file, score

ANIMAL = 5


def graph(*nodes, root=0):
    """A checked policy of these nodes (dicts), with the pools' digests."""
    return policy_file.check({"schema": policy_file.SCHEMA,
                              "animals_sha256": data.ANIMALS_SHA256,
                              "questions_sha256": data.QUESTIONS_SHA256, "root": root,
                              "nodes": list(nodes)})


def ask(question, yes, no):
    return {"type": "ask", "question": question, "yes": yes, "no": no}


def guess(animal, wrong):
    return {"type": "guess", "animal": animal, "wrong": wrong}


STOP = {"type": "stop"}


class WalkTest(unittest.TestCase):
    def outcome(self, policy_, animal=ANIMAL):
        r = evaluator.walk(policy_, animal)
        return r.found, r.calls, r.score

    def test_basic_walks(self):
        yes = data.load().yes(ANIMAL, 0)
        # ask 0, then guess ANIMAL on the side it answers, stop on the other
        sides = (guess(ANIMAL, None), STOP) if yes else (STOP, guess(ANIMAL, None))
        for name, policy_, expected in (
                ("first_call_guess", graph(guess(ANIMAL, None)), (True, 1, 0.98)),
                ("wrong_guess_then_null", graph(guess(ANIMAL + 1, None)), (False, 1, 0.0)),
                ("wrong_then_right", graph(guess(0, 1), guess(ANIMAL, None)), (True, 2, 0.96)),
                ("stop_root", graph(STOP), (False, 0, 0.0)),
                ("ask_then_guess", graph(ask(0, 1, 2), *sides), (True, 2, 0.96)),
                ("ask_then_stop", graph(ask(0, 2, 1), *sides), (False, 1, 0.0)),
                ("ask_then_null", graph(ask(0, None, None)), (False, 1, 0.0)),
                ("root_not_first", graph(STOP, guess(ANIMAL, 0), root=1), (True, 1, 0.98))):
            with self.subTest(case=name):
                self.assertEqual(self.outcome(policy_), expected)

    def test_transcript(self):
        r = evaluator.walk(graph(ask(7, 1, 1), guess(0, 2), guess(ANIMAL, None)), ANIMAL)
        self.assertEqual(r.transcript, (({"ask": 7}, {"yes": data.load().yes(ANIMAL, 7)}),
                                        ({"guess": 0}, {"correct": False}),
                                        ({"guess": ANIMAL}, {"correct": True})))

    def test_budget_ends_cycles(self):
        for name, policy_ in (("ask_loop", graph(ask(0, 0, 0))),
                              ("guess_loop", graph(guess(ANIMAL + 1, 0))),
                              ("two_node_loop", graph(ask(3, 1, 1), guess(ANIMAL + 1, 0)))):
            with self.subTest(case=name):
                self.assertEqual(self.outcome(policy_), (False, score.BUDGET, 0.0))

    def test_budget_ends_a_chain(self):
        chain = graph(*[guess(a, a + 1) for a in range(20)], STOP)
        self.assertEqual(self.outcome(chain, 0), (True, 1, 0.98))
        self.assertEqual(self.outcome(chain, 14), (True, 15, 0.7))    # the 15th call
        self.assertEqual(self.outcome(chain, 15), (False, 15, 0.0))   # a 16th is never made
        self.assertEqual(self.outcome(chain, 20), (False, 15, 0.0))

    def test_evaluate_a_set(self):
        rounds = evaluator.evaluate(graph(guess(3, 1), guess(4, None)), [3, 4, 5])
        self.assertEqual([(r.animal, r.found, r.calls) for r in rounds],
                         [(3, True, 1), (4, True, 2), (5, False, 2)])
        self.assertEqual(score.mean_score(rounds), (0.98 + 0.96) / 3)


if __name__ == "__main__":
    unittest.main()
