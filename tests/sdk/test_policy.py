"""The oracle's counting policy (arh_grader.Policy), the seam a second
problem counts through, here a toy problem's (Trivia, an arh_grader.Problem):
invalid queries refused without a call, a round that ends at its budget
rather than failing, and one ended by an answer.
Each rule in process (Session.submit) and over HTTP, with the same counts."""

import json
import unittest

import support  # noqa: F401  (puts grader/ on the path)
from arh_grader import Policy, Problem, QueryError, Session
from fuzz import exchange, request

SECRET = 7                      # the hidden value
BUDGET = 3                      # calls a round may use
ITEM = {"secret": SECRET}       # the one instance: its line in a set


def ends(secret, query):
    return query["guess"] == secret


class Trivia(Problem):
    """A toy problem: guess a hidden number, each guess a call, the round's
    counting given by `counting` (a Policy). Its sessions are made here,
    never run through a worker."""

    SCORE, SCORE_NAME, BOUND_NAME, COUNT = "score", "mean_score", "bound", "calls"
    LOWER_IS_BETTER, REPEATED = False, ("calls", "transcript")
    ROOT = SAMPLE = None        # no folder and no set: never run

    def __init__(self, counting=Policy()):
        self.counting = counting

    def check_query(self, secret, query):
        if type(query) is not dict or type(query.get("guess")) is not int:
            raise QueryError("a query is {\"guess\": int}, got %r" % (query,))

    def answer_query(self, secret, query):
        return {"correct": query["guess"] == secret}

    def check_instance(self, item):
        if type(item.get("secret")) is not int:
            raise ValueError("an instance is {\"secret\": int}")

    def secret(self, item):
        return item["secret"]

    def cap(self, item):
        return BUDGET

    def max_body(self, item):
        return 64

    def policy(self, item):
        return self.counting

    def entry(self, index, item, session):
        return {"index": index, "calls": session.tests,
                "score": 1.0 if session.ended_by_answer else 0.0, "transcript": session.digest}

    def summary(self, entries):
        return {"mean_score": sum(e["score"] for e in entries) / len(entries) if entries
                else None}

    def summary_lines(self, result):
        return ["mean_score: %s" % result["mean_score"]]

    def bound(self, entry):
        return 1.0


TRIVIA = Policy(count_invalid=False, over_cap="end", ends=ends)
PROBLEM = Trivia(TRIVIA)


def guesses(*values):
    return [json.dumps({"guess": v}).encode() if type(v) is int else v for v in values]


class PolicyTest(unittest.TestCase):
    def submit_all(self, bodies, policy):
        session = Session.of(Trivia(policy).session(ITEM), record=True)
        statuses = [session.submit(body)[0] for body in bodies]
        session.end()
        return statuses, session

    def test_the_default_counts_everything_and_fails_past_the_cap(self):
        statuses, session = self.submit_all(guesses(1, b"nope", 2, 3, 7), Policy())
        self.assertEqual(statuses, [200, 400, 200, 429, 429])
        self.assertEqual((session.tests, session.invalid, session.over_cap), (5, 1, True))
        self.assertEqual(len(session.transcript), 5)

    def test_invalid_queries_use_no_call_and_leave_no_line(self):
        statuses, session = self.submit_all(guesses(b"nope", b'{"guess": true}', 1, 2),
                                            Policy(count_invalid=False))
        self.assertEqual(statuses, [400, 400, 200, 200])
        self.assertEqual((session.tests, session.invalid), (2, 0))
        self.assertEqual([json.loads(line)["s"] for line in session.transcript], [200, 200])

    def test_the_round_ends_at_its_budget_without_failing(self):
        statuses, session = self.submit_all(guesses(1, 2, 3, 4, 5), TRIVIA)
        self.assertEqual(statuses, [200, 200, 200, 409, 409])
        self.assertEqual((session.tests, session.over_cap, session.ended), (3, False, True))
        self.assertIs(session.ended_by_answer, False)

    def test_a_correct_answer_ends_the_round(self):
        statuses, session = self.submit_all(guesses(1, b"bad", 7, 7, 1), TRIVIA)
        self.assertEqual(statuses, [200, 400, 200, 409, 409])
        self.assertEqual((session.tests, session.ended, session.ended_by_answer), (2, True, True))
        self.assertEqual(len(session.transcript), 2)

    def test_http_counts_as_in_process(self):
        oracle = support.start_oracle(self, record=True)
        bodies = guesses(1, b"bad", 2, 7, 3)
        token = oracle.open(PROBLEM.session(ITEM))      # the rules come with the session
        statuses = [exchange(oracle.port, request(body, token=token.encode()))[0][0]
                    for body in bodies]
        over_http = oracle.close(token)
        here, session = self.submit_all(bodies, TRIVIA)
        self.assertEqual(statuses, here)
        self.assertEqual((over_http.tests, over_http.ended_by_answer, over_http.digest),
                         (session.tests, session.ended_by_answer, session.digest))

    def test_request_numbers_only_grow_when_invalid_queries_are_not_counted(self):
        # Three requests in flight at once, the first one invalid and not
        # counted: the third must not take the second's number, or one of
        # them is never recorded and the count leaves the transcript.
        for policy in (Policy(), Policy(count_invalid=False), TRIVIA):
            with self.subTest(policy=policy):
                session = Session.of(Trivia(policy).session(ITEM), record=True)
                first, second = session.admit(), session.admit()
                session.log(first, 400, b'"bad"', b'{"error":"bad"}')
                third = session.admit()
                self.assertEqual(len({first, second, third}), 3)
                for number in (second, third):
                    self.assertTrue(session.answering(number))
                    session.log(number, 200, b'{"guess":1}', b'{"correct":false}')
                session.end()
                self.assertEqual(len(session.transcript), session.tests)
                self.assertEqual(session.tests, 3 if policy.count_invalid else 2)

    def test_a_policy_names_a_bad_setting(self):
        with self.assertRaisesRegex(ValueError, r"^over_cap must be 'fail' or 'end', got 'x'$"):
            Policy(over_cap="x")


if __name__ == "__main__":
    unittest.main()
