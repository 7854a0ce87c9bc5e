"""A deadline for code that runs in this process, such as a tester played
in-process by a comparison: Deadline is raised in it when time is up.

    try:
        with deadline(10.0):
            answer = find(n, priors, test)
    except Deadline:
        ...                         # the tester ran past its 10 s

Deadline derives from BaseException, so a tester's `except Exception` does
not swallow it, and it is raised again every REPEAT_S until the block ends,
so a tester that catches everything is stopped at the next reminder it
does not catch. A tester inside one long C call is only stopped when the
call returns. It uses SIGALRM: the main thread only, one deadline at a time.
"""

import contextlib
import signal

REPEAT_S = 0.5          # seconds between reminders to a tester that ignored its deadline
_ARMED = [False]


class Deadline(BaseException):
    """The code ran past its deadline."""


def _alarm(signum, frame):
    if _ARMED[0]:
        raise Deadline()


@contextlib.contextmanager
def deadline(seconds):
    """Raise Deadline in the block once `seconds` have passed, and again
    every REPEAT_S after, until it ends."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    _ARMED[0] = True
    signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT_S)
    try:
        yield
    finally:
        _ARMED[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
