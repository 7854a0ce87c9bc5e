"""The rules of twenty questions as the oracle applies them: queries,
answers, the end of a round, the counting policy and the round's score."""

import unittest

import tq_support  # noqa: F401  (puts tq and the SDK on sys.path)
from arh_grader import QueryError
from tq import data, problem


class QueryTest(unittest.TestCase):
    ANIMAL = 261
    SECRET = problem.secret_of({"animal": ANIMAL})

    def test_valid_queries_and_their_answers(self):
        table = data.load()
        for query, answer, ends in (
                ({"ask": 0}, {"yes": table.yes(self.ANIMAL, 0)}, False),
                ({"ask": 558}, {"yes": table.yes(self.ANIMAL, 558)}, False),
                ({"guess": 261}, {"correct": True}, True),
                ({"guess": 0}, {"correct": False}, False),
                ({"guess": 1471}, {"correct": False}, False)):
            with self.subTest(query=query):
                problem.check_query(self.SECRET, query)
                self.assertEqual(problem.answer_query(self.SECRET, query), answer)
                self.assertIs(problem.ends_round(self.SECRET, query), ends)

    def test_answers_follow_the_matrix(self):
        row = data.load().rows[self.ANIMAL]
        self.assertIn("0", row)
        self.assertIn("1", row)
        for q in range(data.QUESTIONS):
            self.assertEqual(problem.answer_query(self.SECRET, {"ask": q}),
                             {"yes": row[q] == "1"})

    def test_invalid_queries_quote_the_bad_value(self):
        for query, words in (
                ({"ask": 559}, "'ask' must be in 0..558, got 559"),
                ({"ask": -1}, "'ask' must be in 0..558, got -1"),
                ({"guess": 1472}, "'guess' must be in 0..1471, got 1472"),
                ({"guess": -1}, "got -1"),
                ({"ask": True}, "'ask' must be an integer, got True"),
                ({"guess": False}, "'guess' must be an integer, got False"),
                ({"ask": 1.0}, "got 1.0"),
                ({"ask": "3"}, "got '3'"),
                ({"ask": None}, "got None"),
                ({"ask": [3]}, "got [3]"),
                ({"ask": 1, "guess": 2}, "one key, 'ask' or 'guess', got {'ask': 1"),
                ({"question": 1}, "got {'question': 1}"),
                ({}, "got {}"),
                ([["ask", 1]], "got [['ask', 1]]"),
                ("ask", "got 'ask'"),
                (None, "got None")):
            with self.subTest(query=query):
                with self.assertRaises(QueryError) as caught:
                    problem.check_query(self.SECRET, query)
                self.assertIn(words, str(caught.exception))

    def test_counting_policy(self):
        self.assertEqual(problem.BUDGET, 15)
        self.assertIs(problem.INVALID_QUERIES_COUNTED, False)
        self.assertIs(problem.OVER_BUDGET_FAILS, False)
        self.assertIs(problem.CORRECT_ENDS_ROUND, True)

    def test_instances(self):
        problem.check_instance({"animal": 0})
        problem.check_instance({"animal": 1471})
        self.assertEqual(problem.secret_of({"animal": 5}), (5, data.load().rows[5]))
        for item, words in (({"animal": 1472}, "got 1472"), ({"animal": True}, "got True"),
                            ({"animal": 2.0}, "got 2.0"), ({}, "got {}"),
                            ({"animal": 1, "n": 2}, "one key"), (7, "got 7")):
            with self.subTest(item=item):
                with self.assertRaises(problem.SetError) as caught:
                    problem.check_instance(item)
                self.assertIn(words, str(caught.exception))


class ScoreTest(unittest.TestCase):
    def test_round_score(self):
        for found, calls, expected in ((True, 1, 0.98), (True, 5, 0.9), (True, 15, 0.7),
                                       (True, 0, 1.0), (False, 0, 0.0), (False, 15, 0.0),
                                       (True, 50, 0.0), (True, 60, 0.0), (True, 3, 0.94)):
            with self.subTest(found=found, calls=calls):
                self.assertEqual(problem.round_score(found, calls), expected)
        with self.assertRaises(ValueError):
            problem.round_score(True, -1)

    def test_call_cost(self):
        self.assertEqual(problem.CALL_COST, 0.02)
        for calls in range(problem.BUDGET + 1):     # the nearest float to 1 - 0.02 calls
            self.assertEqual(problem.round_score(True, calls), float("0.%02d" % (100 - 2 * calls))
                             if calls else 1.0)


if __name__ == "__main__":
    unittest.main()
