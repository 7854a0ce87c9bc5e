"""Twenty questions as the grader sees it: the rules its oracle applies, the
counting policy, the score and the instance check.

Pure computation on plain values: the matrix is read once (tq.data) and
nothing else does I/O. The set's checks (check_instance,
check_set, SetError) and the bound (round_bound, bounds, pool_of) come
from tq.sets and tq.score and are named here too. The oracle calls, for
each query of a round:

    problem.check_query(secret, query)    # QueryError: refused, no call used
    problem.answer_query(secret, query)   # {"yes": bool} or {"correct": bool}
    problem.ends_round(secret, query)     # True after a correct guess

A query is a JSON object with one key: {"ask": question} or {"guess":
animal}, where question is in 0..558 and animal in 0..1471 (JSON integers:
true, false and 1.0 are not). A round is one hidden animal, the oracle's
secret: secret_of(item) for a set's line {"animal": index}.
"""

from arh_grader import QueryError

from tq import data
from tq.score import (BUDGET, CALL_COST, PRIZE_CALLS, best_expected_score,  # noqa: F401
                      round_bound, round_score, saved_bits)
from tq.sets import SetError, bounds, check_instance, check_set, pool_of, short  # noqa: F401

# The counting policy: what the engine does with a round's queries.
INVALID_QUERIES_COUNTED = False  # a refused query uses no call
OVER_BUDGET_FAILS = False        # at BUDGET calls the round ends; it is not a failure
CORRECT_ENDS_ROUND = True        # a correct guess ends the round: no call after it
KEYS = {"ask": data.QUESTIONS, "guess": data.ANIMALS}   # a query's key: its pool's size


def secret_of(item):
    """What the oracle keeps for a checked line: (animal, its answer row)."""
    animal = item["animal"]
    return animal, data.load().rows[animal]


def check_query(secret, query):
    """Raise QueryError unless `query` is {"ask": q} with q in 0..558 or
    {"guess": a} with a in 0..1471, q and a JSON integers. The message
    quotes the bad value. A refused query uses no call."""
    if type(query) is not dict or len(query) != 1 or next(iter(query)) not in KEYS:
        raise QueryError("a query must be an object with one key, 'ask' or 'guess', "
                         "got %s" % short(query))
    (key, value), = query.items()
    if type(value) is not int:
        raise QueryError("%r must be an integer, got %s" % (key, short(value)))
    if not 0 <= value < KEYS[key]:
        raise QueryError("%r must be in 0..%d, got %d" % (key, KEYS[key] - 1, value))


def answer_query(secret, query):
    """The answer to a checked query: {"yes": bool} for an ask, the frozen
    matrix's answer; {"correct": bool} for a guess."""
    animal, row = secret
    if "ask" in query:
        return {"yes": row[query["ask"]] == "1"}
    return {"correct": query["guess"] == animal}


def ends_round(secret, query):
    """Whether a checked query ends the round: a correct guess."""
    return query.get("guess") == secret[0]
