"""The exporter: a deterministic tester turned into its policy graph.

    policy, (nodes, before) = exporter.export(direct.load_tester("src/tester.py").play)
    tq.policy_file.write("submission.zip", policy)

The tester is run in-process (tq.direct) once on every animal of the pool,
and the calls of all those rounds are laid into one tree keyed by the
answers so far: since the frozen matrix answers every question, these are
all the answer paths the oracle can ever give, and a branch no animal
reaches (answers no animal gives) becomes a null edge. A call after the
budget, or the end of play, also becomes a null edge. Identical subgraphs
are then merged (hash-consing), so the graph holds each distinct subtree
once, and the root is node 0.

The tester must decide from the answers of its round alone (the graph has
no memory across rounds, and no randomness): ExportError when two rounds
with the same answers so far disagree on the next call, or when the graph
would pass MAX_NODES. On every animal the graph then makes exactly the
tester's calls, so tq.evaluator gives the same rounds as tq.direct.
"""

from tq import data, direct
from tq.policy_file import MAX_NODES, SCHEMA
from tq.score import BUDGET

_STOP = "stop"          # a trie node where play returned with calls left


class ExportError(ValueError):
    """A tester that no policy graph represents; the message says why."""


def _describe(history):
    return "after %s" % (", ".join("%s %d: %s" % (k, v, a) for k, v, a in history) or
                         "no call")


def _name(call):
    return "returned" if call == _STOP else "called %r" % (call,)


def _settle(node, call, history, animal):
    """Record `call` at a trie node, or ExportError if another round made
    a different one there."""
    if node["call"] is None:
        node["call"] = call
    elif node["call"] != call:
        raise ExportError("the tester is not a function of its answers: %s it %s once "
                          "and %s another time (animal %d)"
                          % (_describe(history), _name(node["call"]), _name(call), animal))


def _trie(play, animals):
    """The tree of calls: {"call": (kind, value), _STOP or None (not
    known), "next": {answer: child}}, and its size in nodes."""
    root, size = {"call": None, "next": {}}, 1
    for animal in animals:
        rnd = direct.run_round(play, animal)
        node, history = root, []
        for query, answer in rnd.transcript:
            (kind, value), = query.items()
            said = next(iter(answer.values()))
            _settle(node, (kind, value), history, animal)
            history.append((kind, value, said))
            if (kind == "guess" and said) or len(history) == BUDGET:
                break                       # found, or no call left: no node follows
            if said not in node["next"]:
                node["next"][said] = {"call": None, "next": {}}
                size += 1
            node = node["next"][said]
        else:                               # play returned with calls left
            _settle(node, _STOP, history, animal)
    return root, size


def _merge(root):
    """The policy's node list (root first) of the trie, identical subtrees
    merged. A stop is a null edge (a node at the root). An answer no animal
    gives leads nowhere: an ask's edge for it points where the other answer
    goes (nothing can tell), which lets more subtrees merge; a guess whose
    "wrong" no animal takes gets a null edge."""
    ids, nodes, done = {}, [], {}      # key -> index; the nodes; id(trie node) -> index

    def visit(node):
        if node is None or node["call"] in (None, _STOP):
            return None
        if id(node) not in done:
            kind, value = node["call"]
            if kind == "ask":
                yes, no = (node["next"].get(answer) for answer in (True, False))
                yes, no = visit(yes or no), visit(no or yes)
                key = ("ask", value, yes, no)
                fields = {"type": "ask", "question": value, "yes": yes, "no": no}
            else:
                key = ("guess", value, visit(node["next"].get(False)))
                fields = {"type": "guess", "animal": value, "wrong": key[2]}
            if key not in ids:
                ids[key] = len(nodes)
                nodes.append(fields)
            done[id(node)] = ids[key]
        return done[id(node)]

    top = visit(root)
    if top is None:
        return [{"type": "stop"}]
    # post-order put every child before its parent; reversed, the root is 0
    last = len(nodes) - 1
    for fields in nodes:
        for edge in ("yes", "no", "wrong"):
            if fields.get(edge) is not None:
                fields[edge] = last - fields[edge]
    return nodes[::-1]


def export(play, *, animals=None):
    """(policy, (nodes, trie_nodes)): the policy graph of `play` explored on
    `animals` (the whole pool by default), as a dict ready for
    tq.policy_file.write, with its node count and the count before merging.
    ExportError as the module says; direct.TesterError if play fails."""
    animals = range(data.ANIMALS) if animals is None else animals
    root, size = _trie(play, animals)
    nodes = _merge(root)
    if len(nodes) > MAX_NODES:
        raise ExportError("the graph needs %d nodes, more than the %d allowed"
                          % (len(nodes), MAX_NODES))
    policy = {"schema": SCHEMA, "animals_sha256": data.ANIMALS_SHA256,
              "questions_sha256": data.QUESTIONS_SHA256, "root": 0, "nodes": nodes}
    return policy, (len(nodes), size)
