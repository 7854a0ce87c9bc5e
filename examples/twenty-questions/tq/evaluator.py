"""The evaluator of the declarative route: a policy graph walked on the
frozen matrix, round by round, as the original contest's platform walks it.

    policy = tq.policy_file.load("submission.zip")  # checked first
    rounds = evaluator.evaluate(policy, [261, 661, 557])
    score.mean_score(rounds)

A round starts at the root with no call used. An ask node uses one call and
follows "yes" or "no" by the matrix's answer for the hidden animal; a guess
node uses one call and ends the round, found, when it names the hidden
animal, and follows "wrong" otherwise; a stop node or a null edge ends the
round without a call. The walk ends after BUDGET calls whatever edge comes
next, so a graph with cycles ends too.
"""

from tq import data
from tq.score import BUDGET, Round


def walk(policy, animal):
    """The Round of one hidden animal (a pool index) on a checked policy;
    its transcript holds the calls as the oracle's (query, answer) pairs."""
    nodes, rows = policy["nodes"], data.load().rows
    at, transcript, found = policy["root"], [], False
    while at is not None and len(transcript) < BUDGET:
        node = nodes[at]
        if node["type"] == "ask":
            yes = rows[animal][node["question"]] == "1"
            transcript.append(({"ask": node["question"]}, {"yes": yes}))
            at = node["yes"] if yes else node["no"]
        elif node["type"] == "guess":
            found = node["animal"] == animal
            transcript.append(({"guess": node["animal"]}, {"correct": found}))
            if found:
                break
            at = node["wrong"]
        else:
            break
    return Round(animal, found, len(transcript), 0, tuple(transcript))


def evaluate(policy, animals):
    """walk() on each animal in order; the list of Rounds."""
    return [walk(policy, animal) for animal in animals]
