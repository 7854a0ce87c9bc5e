"""A counterfeit: maps every node to itself, which is no isomorphism of
the relabelled copy (kind: wrong)."""


class Solver:
    def solve(self, problem, **kwargs):
        return {"mapping": list(range(problem["num_nodes"]))}
