"""networkx's VF2 matcher, the task's reference solver: `Solver().solve(problem)`
returns {"mapping": m}, where node u of G1 maps to node m[u] of G2 (PROGRAM.md,
"The task"). src/solver.py starts as this file, and is yours to improve;
gi/reference/solver.py keeps it: the solver every set's refs are measured
with, and the one a comparison scores against. The grader counts the
instructions a solver executes; fewer is better."""

import networkx as nx


class Solver:
    def solve(self, problem, **kwargs):
        n = problem["num_nodes"]
        g1, g2 = nx.Graph(), nx.Graph()
        g1.add_nodes_from(range(n))
        g2.add_nodes_from(range(n))
        g1.add_edges_from(problem["edges_g1"])
        g2.add_edges_from(problem["edges_g2"])
        matcher = nx.algorithms.isomorphism.GraphMatcher(g1, g2)
        if not matcher.is_isomorphic():
            return {"mapping": [-1] * n}
        return {"mapping": [matcher.mapping[u] for u in range(n)]}
