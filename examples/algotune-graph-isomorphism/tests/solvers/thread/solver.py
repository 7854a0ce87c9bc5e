"""A counterfeit: does its work on a second thread, whose instructions a
per-thread count would miss (kind: threads)."""

import threading


class Solver:
    def solve(self, problem, **kwargs):
        out = {}
        nodes = list(range(problem["num_nodes"]))
        worker = threading.Thread(target=lambda: out.update(mapping=nodes))
        worker.start()
        worker.join()
        return out
