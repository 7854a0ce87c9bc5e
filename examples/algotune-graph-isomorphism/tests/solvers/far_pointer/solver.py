"""A counterfeit: writes one byte through a ctypes pointer to an address
above the guest's memory, in the emulator's own stack (it runs in the same
address space as its guest, with no address randomisation): the store
lands, and the plugin ends the run at it (kind: escape)."""

import ctypes

FAR = 0x7FFFFFFFE000       # the top page of the emulator's stack, written by no one


class Solver:
    def solve(self, problem, **kwargs):
        ctypes.c_char.from_address(FAR).value = b"x"
        return {"mapping": list(range(problem["num_nodes"]))}
