"""A counterfeit: waits forever without executing an instruction, so no
count ends it, only the run's wall-clock deadline (kind: solver_timeout)."""

import select


class Solver:
    def solve(self, problem, **kwargs):
        while True:
            select.select([], [], [], 3600)
