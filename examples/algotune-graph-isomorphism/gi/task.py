"""The task: graph isomorphism, after AlgoTune's task of that name.

A problem is a random graph G1 of n nodes, each of its n(n-1)/2 possible
edges present with probability EDGE_CHANCE, and G2, the same graph with
its nodes relabelled by a random permutation; both are sent as sorted
edge lists, so the order of G2's edges says nothing of the permutation.
A solution is {"mapping": m}, where m[u] is the node of G2 that node u of
G1 maps to: a bijection of 0..n-1 under which every edge of G1 is an edge
of G2 (both have the same number of edges, so it maps edges onto edges).

    problem = generate_problem(160, 12345)
    is_solution(problem, {"mapping": [...]})      # True or False

Standard library only: the grader checks every answer natively with it,
and the problems it sends are made by it.
"""

import random

EDGE_CHANCE = 0.3       # of each possible edge of G1
N_MIN, N_MAX = 140, 180  # the sets' node counts, inclusive


def generate_problem(n, seed):
    """The problem of `n` nodes drawn with the integer `seed`:
    {"num_nodes": n, "edges_g1": [[u, v], ...], "edges_g2": [[u, v], ...]},
    each edge with u < v, each list sorted. The same (n, seed) gives the
    same problem on every machine."""
    if type(n) is not int or n < 2:
        raise ValueError("n must be an integer of at least 2, got %r" % (n,))
    if type(seed) is not int:
        raise ValueError("the seed must be an integer, got %r" % (seed,))
    rng = random.Random("graph-isomorphism/%d/%d" % (n, seed))
    edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < EDGE_CHANCE]
    relabel = list(range(n))
    rng.shuffle(relabel)
    moved = sorted((min(relabel[u], relabel[v]), max(relabel[u], relabel[v]))
                   for u, v in edges)
    return {"num_nodes": n, "edges_g1": [list(e) for e in edges],
            "edges_g2": [list(e) for e in moved]}


def is_solution(problem, solution):
    """True when `solution` is {"mapping": m} with m a bijection of the
    problem's nodes that maps every edge of G1 to an edge of G2."""
    n = problem["num_nodes"]
    if not isinstance(solution, dict) or set(solution) != {"mapping"}:
        return False
    mapping = solution["mapping"]
    if (type(mapping) is not list or len(mapping) != n
            or any(type(v) is not int for v in mapping) or sorted(mapping) != list(range(n))):
        return False
    if len(problem["edges_g1"]) != len(problem["edges_g2"]):
        return False
    g2 = {(u, v) for u, v in problem["edges_g2"]}
    for u, v in problem["edges_g1"]:
        a, b = mapping[u], mapping[v]
        if (min(a, b), max(a, b)) not in g2:
            return False
    return True


def why_not(problem, solution):
    """What is wrong with a solution that is_solution refuses, in words."""
    n = problem["num_nodes"]
    if not isinstance(solution, dict) or set(solution) != {"mapping"}:
        return "the answer is not {\"mapping\": [...]}"
    mapping = solution["mapping"]
    if type(mapping) is not list or len(mapping) != n:
        return "the mapping is not a list of %d nodes" % n
    if any(type(v) is not int for v in mapping) or sorted(mapping) != list(range(n)):
        return "the mapping is not a permutation of 0..%d" % (n - 1)
    g2 = {(u, v) for u, v in problem["edges_g2"]}
    for u, v in problem["edges_g1"]:
        a, b = mapping[u], mapping[v]
        if (min(a, b), max(a, b)) not in g2:
            return "edge (%d, %d) of G1 maps to (%d, %d), which is not an edge of G2" % (
                u, v, a, b)
    return "the answer is a solution"
