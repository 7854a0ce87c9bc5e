"""Ctrl-C and SIGTERM for a long command that saves its state as it goes:
each stops the command between two saves, never inside one.

    with stopping.handled() as stopped:       # installs the handlers, restores them
        try:
            run()                             # may raise stopping.Stopped
        except stopping.Stopped as stop:
            name, status = stopping.SIGNALS[stop.signum]   # ("Ctrl-C", 130)
    ...
    with stopping.deferred():                 # save and report: both, or neither
        save(state); print(progress)

A signal that arrives inside `deferred()` is held and acts when the block
ends. It is held by a flag the Python handler reads, not by masking the
signal: CPython runs a signal's handler in the main thread, but the kernel
may hand the signal to any thread that does not mask it (a server's, a
worker watcher's), so a mask set in the main thread alone does not hold it.
"""

import contextlib
import signal

SIGNALS = {signal.SIGINT: ("Ctrl-C", 130), signal.SIGTERM: ("SIGTERM", 143)}


class Stopped(BaseException):
    """Ctrl-C or SIGTERM: not a tester's failure, whatever it was doing.
    A BaseException, so that no `except Exception` of the run swallows it."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


_held = []          # the signals that arrived inside deferred(), in order
_depth = [0]        # how many deferred() blocks are open


def _stop(signum, frame):
    if _depth[0]:
        _held.append(signum)
        return
    raise Stopped(signum)


@contextlib.contextmanager
def handled():
    """Install the handlers of SIGNALS for the block and restore the
    previous ones after it."""
    before = {signum: signal.signal(signum, _stop) for signum in SIGNALS}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        _held.clear()


@contextlib.contextmanager
def deferred():
    """Hold SIGNALS back while the block runs; the first that came acts
    (raises Stopped) right after it."""
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1
    if not _depth[0] and _held:
        signum = _held[0]
        _held.clear()
        raise Stopped(signum)
