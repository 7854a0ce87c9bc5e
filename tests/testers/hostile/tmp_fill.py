"""A hostile tester: fills /tmp, up to 4 GiB (bounded), then tries to write
beside its code and in the other usual places. Behind the worker's walls
/tmp is a 64 MiB tmpfs in its own memory and the rest of its root is read
only: it raises what it got, the submission's `no_answer`, with the bytes
/tmp took and each other place's error."""

import os

CHUNK_BYTES = 1024 * 1024               # bytes a write
TOTAL_BYTES = 4 * 1024 * 1024 * 1024    # bytes written to /tmp at most
ELSEWHERE = ("/app/src/fill", "/app/fill", "/var/tmp/fill", "/fill", "/root/fill",
             "/home/fill", "/dev/shm/fill")


def fill(path, limit):
    """Bytes written to `path` before an error or `limit`; (bytes, error)."""
    chunk = b"\x5a" * CHUNK_BYTES
    written = 0
    try:
        with open(path, "wb") as f:
            while written < limit:
                f.write(chunk)
                f.flush()
                written += CHUNK_BYTES
        return written, None
    except OSError as e:
        return written, e.strerror


def find(n, priors, test):
    written, error = fill("/tmp/fill", TOTAL_BYTES)
    others = []
    for path in ELSEWHERE:
        got, why = fill(path, CHUNK_BYTES)
        others.append("%s: %s" % (path, why or "wrote %d bytes" % got))
    raise RuntimeError("tmp_fill: /tmp took %d bytes, then %s; elsewhere %s"
                       % (written, error or "no error", "; ".join(others)))
