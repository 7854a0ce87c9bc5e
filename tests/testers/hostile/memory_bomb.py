"""A hostile tester: allocates memory in 64 MiB chunks, every page written,
up to 2 GiB (bounded, so a machine without the wall stays usable). Behind
the worker's memory wall (512 MiB) the kernel kills the worker, and the
grader gives the submission's `no_answer`. Should it get its 2 GiB, it
raises, saying so."""

CHUNK_BYTES = 64 * 1024 * 1024        # bytes allocated at a time
TOTAL_BYTES = 2 * 1024 * 1024 * 1024  # bytes allocated at most


def find(n, priors, test):
    held = []
    while len(held) * CHUNK_BYTES < TOTAL_BYTES:
        held.append(bytearray(b"\x5a") * CHUNK_BYTES)     # written: the pages are real
    raise RuntimeError("memory_bomb: held %d bytes and was not stopped" % (len(held) * CHUNK_BYTES))
