"""The oracle's counting policy (arh_grader.Policy), the seam a second
problem counts through, here the toy problem's (toy.Trivia, an arh_grader.Problem):
invalid queries refused without a call, a round that ends at its budget
rather than failing, and one ended by an answer.
Each rule in process (Session.submit) and over HTTP, with the same counts."""

import json
import unittest

import toy
from arh_grader import Policy, Session
from fuzz import exchange, request
from toy import ITEM, PROBLEM, TRIVIA, Trivia


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
        oracle = toy.start_oracle(self, record=True)
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
