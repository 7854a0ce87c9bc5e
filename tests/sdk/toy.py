"""The toy problem the SDK's tests run on, so that they need nothing of group
testing nor of twenty questions: Trivia, an arh_grader.Problem (guess a
hidden number, each guess a call), with its one instance and what the
tests make of it.

    import toy
    session = Session.of(toy.PROBLEM.session(toy.ITEM))     # its rules come with it
    oracle = toy.start_oracle(self)                       # or a live oracle of its rules
    token = oracle.open(toy.SECRET, cap=10, max_body=64)  # a session opened by hand
    proc, url = toy.start_worker(self, oracle.url)        # and its worker (toy_worker.py)

A query is {"guess": an integer}, its answer {"correct": whether it is the
secret}. PROBLEM counts as a round of trivia does (TRIVIA): an invalid
guess uses no call, the round ends at its BUDGET of calls, or with the
right guess. Trivia(Policy()) counts as the SDK's defaults do. A session
opened by hand on start_oracle's oracle counts by the defaults too, and
its answers are bytes made once (answer_bytes), the other form an answer
may take (session.Spec). Trivia has no folder and no set of its own: the
tests that load a set write one (write_set).
"""

import json
import os

import support
from arh_grader import Policy, Problem, QueryError, canonical, local_run

SECRET = 7                      # the hidden value
BUDGET = 3                      # calls a round may use
ITEM = {"secret": SECRET}       # the one instance: its line in a set
HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "toy_worker.py")    # Trivia's worker, its own tester too
HARNESS = os.path.join(support.ROOT, "harness")  # the worker template it is written on


def ends(secret, query):
    return query["guess"] == secret


class Trivia(Problem):
    """A toy problem: guess a hidden number, each guess a call, the round's
    counting given by `counting` (a Policy). It has no folder and no set
    of its own: no command runs it."""

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

REPLIES = {right: canonical({"correct": right}) for right in (False, True)}


def answer_bytes(secret, query):
    """Trivia's answer to a checked query as its canonical JSON, made once."""
    return REPLIES[query["guess"] == secret]


def start_oracle(case, **options):
    """A live oracle on a loopback port whose sessions opened by hand
    (open(secret, cap=, max_body=)) follow Trivia's rules, counted by the
    SDK's defaults and answered in bytes; a Spec (PROBLEM.session(ITEM))
    is opened as it is. Stopped at cleanup."""
    return support.start_oracle(case, check=PROBLEM.check_query, answer=answer_bytes,
                                **options)


def start_worker(case, oracle_url, tester=WORKER):
    """A live worker process of Trivia (toy_worker.py, on the template),
    running `tester` (default: the guesses toy_worker.py makes itself) in a
    fresh folder of its own, inside the walls a local run puts it in;
    (process, URL). Stopped at cleanup."""
    proc, url = local_run.start_worker(oracle_url=oracle_url, tester=tester, timeout=20,
                                       worker=WORKER, cwd=support.tmpdir(case),
                                       readable=[HARNESS], quiet=not support.SHOW)
    case.addCleanup(local_run.stop_worker, proc)
    return proc, url


def write_set(case, items=(ITEM,)):
    """A set file of Trivia's `items`, one JSON line each, removed at cleanup; its path."""
    return support.write(case, "set.jsonl", "".join(json.dumps(item) + "\n" for item in items))
