"""A counterfeit: says why on stderr, then ends its process in the middle
of a problem, with no answer and no exception (kind: solver_failed, its
last words in the message)."""

import os
import sys


class Solver:
    def solve(self, problem, **kwargs):
        sys.stderr.write("exits: the solver gives up here\n")
        sys.stderr.flush()
        os._exit(3)
