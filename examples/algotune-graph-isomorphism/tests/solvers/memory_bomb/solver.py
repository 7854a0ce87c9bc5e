"""A counterfeit: asks for 6 GiB at once, which an unlimited emulator would
grant (the pages are only promised); under the emulator's limit on its
address space (gi/emulator.py, MEMORY_BYTES, 4 GiB) the request fails and
solve raises MemoryError (kind: solver_failed), long before the machine's
memory, or the grader's, is at stake."""

ASK = 6 << 30       # bytes, over the limit and under the machine's free memory


class Solver:
    def solve(self, problem, **kwargs):
        hoard = bytearray(ASK)
        return {"mapping": list(range(problem["num_nodes"])), "held": len(hoard)}
