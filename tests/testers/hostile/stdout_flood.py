"""A hostile tester: floods stdout and stderr with 1 MiB lines for up to 3
seconds or 4 GiB (bounded), then solves the instance honestly by binary
splitting. Behind the worker's log wall (json-file, 1 MiB, one file) the
host keeps at most a few MiB of it; the run is valid."""

import sys
import time

LINE_BYTES = 1024 * 1024               # bytes a line
TOTAL_BYTES = 4 * 1024 * 1024 * 1024   # bytes written at most
FLOOD_S = 3.0                          # seconds of flooding at most


def find(n, priors, test):
    line = "x" * (LINE_BYTES - 1) + "\n"
    written, started = 0, time.monotonic()
    while written < TOTAL_BYTES and time.monotonic() - started < FLOOD_S:
        for stream in (sys.stdout, sys.stderr):
            stream.write(line)
            written += LINE_BYTES
    sys.stderr.write("stdout_flood: wrote %d bytes in %.1f s\n"
                     % (written, time.monotonic() - started))
    return splitting(n, test)


def splitting(n, test):
    """Binary splitting, the shipped tester's algorithm."""
    defectives, unresolved = [], list(range(n))
    while unresolved and test(unresolved):
        pool, cleared = unresolved, set()
        while len(pool) > 1:
            half = pool[:len(pool) // 2]
            if test(half):
                pool = half
            else:
                cleared.update(half)
                pool = pool[len(pool) // 2:]
        defectives.append(pool[0])
        cleared.add(pool[0])
        unresolved = [i for i in unresolved if i not in cleared]
    return sorted(defectives)
