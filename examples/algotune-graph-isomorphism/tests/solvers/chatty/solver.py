"""A counterfeit: prints megabytes to stdout before it answers (kind:
output_too_large)."""

import sys


class Solver:
    def solve(self, problem, **kwargs):
        line = "x" * 1023 + "\n"
        for _ in range(4096):           # 4 MiB
            sys.stdout.write(line)
        sys.stdout.flush()
        return {"mapping": list(range(problem["num_nodes"]))}
