"""A hostile challenger: binary splitting whose worker thaws itself while it
is frozen, and burns CPU whenever it runs, the red team's attack of issue 38.

At import it forks a child that burns CPU in a loop, and both it and the
child arm one-shot POSIX timers (timer_create, SIGEV_SIGNAL) that send SIGCONT
to their own process every few milliseconds for a few seconds ahead,
with a SIGCONT handler that arms them again: a tree stopped by SIGSTOP is continued a few milliseconds later,
whatever the judge thinks. The child writes a line "MONOTONIC CPU" (both
in seconds, time.monotonic() and time.process_time()) every few
milliseconds to burn.log in its HOME (the worker's own folder), so a test
can see when it ran. In a frozen cgroup neither the timer's signal nor
anything else wakes it: the burner's CPU time does not move until the
judge thaws it.
"""

import ctypes
import os
import signal
import sys
import time

TICK = 0.05                     # seconds between two SIGCONTs to itself
TIMERS = 100                    # timers armed at once: TIMERS * TICK seconds ahead
CLOCK_MONOTONIC, SIGEV_SIGNAL = 1, 0
LOG_EVERY = 0.005               # seconds of the burner between two lines


class _Sigevent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int),
                ("notify", ctypes.c_int), ("pad", ctypes.c_byte * 48)]


class _Timespec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("interval", _Timespec), ("value", _Timespec)]


def _arm():
    """TIMERS one-shot timers of this process that send it SIGCONT, TICK,
    2 TICK, ... seconds on, armed afresh by the SIGCONT handler (at most
    once a TICK). Many rather than one: the SIGSTOP that stops the process
    throws a pending SIGCONT away, and the judge's freeze stops it again
    each time it sees it run, so a few are lost; the later ones still
    fire once the judge stops looking. False where the calls are refused."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    armed, last = [], [0.0]
    for step in range(1, TIMERS + 1):
        event = _Sigevent(signo=int(signal.SIGCONT), notify=SIGEV_SIGNAL)
        timer = ctypes.c_void_p()
        if libc.timer_create(CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(timer)) != 0:
            return False
        nsec = int(TICK * step * 1e9)
        armed.append((timer, _Itimerspec(value=_Timespec(nsec // 10**9, nsec % 10**9))))

    def rearm(signum=0, frame=None):
        if time.monotonic() - last[0] >= TICK:
            last[0] = time.monotonic()
            for timer, spec in armed:
                libc.timer_settime(timer, 0, ctypes.byref(spec), None)

    signal.signal(signal.SIGCONT, rearm)
    rearm()
    return True


def _burn(path):
    with open(path, "a", buffering=1) as log:
        last = 0.0
        while True:
            now = time.monotonic()
            if now - last >= LOG_EVERY:
                log.write("%.6f %.6f\n" % (now, time.process_time()))
                last = now


def _start():
    home = os.environ.get("HOME") or os.getcwd()
    child = os.fork()
    if child == 0:
        try:
            _arm()
            _burn(os.path.join(home, "burn.log"))
        finally:
            os._exit(0)
    if not _arm():
        sys.stderr.write("thaws_itself: timer_create refused\n")


_start()


def find(n, priors, test):
    defectives = []
    unresolved = list(range(n))
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
