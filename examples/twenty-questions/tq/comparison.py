"""Twenty questions' rules of a comparison (tq/compare.py runs the SDK's
arh_grader/commands/compare.py with them): the rounds' order, a play and
its score (whose outcome and difference are the SDK's), an entry's check,
and a suspect challenger.

An entry is [challenger, incumbent, animal], each tester's [calls, found],
or null for a tester past its deadline, which scores 0.
"""

import functools
import types

from arh_grader.compare import rules

from tq import data, score, sets


@functools.lru_cache(maxsize=8)
def order_of(seed):
    """The animals in the order comparisons play them with `seed`."""
    return sets.ordered("compare/%s" % seed, range(data.ANIMALS))


class Rules(rules.Rules):
    """The whole pool in the seed's order; the higher round score wins (the
    SDK's outcome and difference, on score), a round past its deadline
    losing; each comparison is named by its animal (DRAWN)."""

    PUBLIC_SEEDS = {sets.PUBLIC_SEED: "the seed of the public sets (sample/dev.jsonl, "
                                      "sample/test.jsonl)"}
    PUBLIC = "its order is public, and a tester may know it"
    HELP = {"seed": "the rounds' order (any string; default: a random one)",
            "instance_timeout": "each tester's deadline on a round (default: autoresearch.toml)"}
    DRAWN, SHOWN = "animal", "%.2f"     # an entry keeps the animal; a play shows its score

    def draw(self, seed, index):
        return {"animal": order_of(seed)[index]}

    def play(self, session):
        return [session.tests, bool(session.ended_by_answer)]

    def score(self, play):
        """The round score of a tester's [calls, found]; past its deadline, 0."""
        return 0.0 if play is None else score.round_score(play[1], play[0])

    def suspect(self, comparisons):
        found = self.problem.summary([self.problem.entry(k, None, types.SimpleNamespace(
            ended_by_answer=e[0][1], tests=e[0][0], digest=None))
            for k, e in enumerate(comparisons) if e[0] is not None])
        return ("suspect: the challenger saved %.1f bits below the information its rounds "
                "hold" % found["saved_bits"]) if found["suspect"] else None

    def exhausted(self, comparisons):
        if len(comparisons) >= data.ANIMALS:
            return "pool: all %d animals played, and no decision" % data.ANIMALS
        return None

    def bad_entry(self, seed, index, entry):
        def is_play(x):
            return (type(x) is list and len(x) == 2 and type(x[0]) is int
                    and type(x[1]) is bool and x[1] <= x[0] <= score.BUDGET)
        if type(entry) is not list or len(entry) != 3 \
                or not all(x is None or is_play(x) for x in entry[:2]):
            return ("it must be [challenger, incumbent, animal], each tester's [calls, found] "
                    "(0..%d calls) or null" % score.BUDGET)
        order = order_of(seed)
        if index >= len(order) or entry[2] != order[index]:
            return ("it is not round %d of the seed %r, whose animal is %s" % (
                index, seed, order[index] if index < len(order) else "none"))
        return None
