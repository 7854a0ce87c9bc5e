"""A counterfeit: writes one byte through a ctypes pointer to an address
above the guest's memory, where the emulator's own stack lies when the
host does not randomise addresses (the emulator shares its address space
with its guest). Where the store lands, the plugin ends the run at it;
where nothing is mapped there, it faults and the emulator dies of SIGSEGV:
kind escape either way."""

import ctypes

FAR = 0x7FFFFFFFE000       # the top page of the emulator's stack without randomisation


class Solver:
    def solve(self, problem, **kwargs):
        ctypes.c_char.from_address(FAR).value = b"x"
        return {"mapping": list(range(problem["num_nodes"]))}
