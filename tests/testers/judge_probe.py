"""A hostile tester: at import, reaches for its judge and every other
process it can name with the calls Landlock does not scope, as a red team
did: prlimit (RLIMIT_FSIZE 0: the judge writes no result.json; RLIMIT_CPU
1 s: it dies), setpriority, sched_setaffinity, sched_setscheduler and
kill(pid, 0), on getppid() and on the pids in GT_JUDGE_PIDS (the test gives
the judge's own); and, reading only, on every pid of SCAN (kill 0,
prlimit's get, getpriority, sched_getaffinity, sched_getscheduler). It
prints one line a call on stderr, "judge_probe: CALL on TARGET: RESULT",
where RESULT is "ok" or the error's name (ESRCH, EPERM); of the scan, "all
ESRCH" (or EPERM) unless a pid was named; then it plays honestly
(binary splitting): a valid run, unless the judge was hurt.

Behind a PID namespace of its own (arh_grader/pidns.py) it is pid 1 and
getppid() is 0, which for these calls names the caller itself: it is then
skipped ("no parent"), and every other pid is ESRCH."""

import errno
import os
import resource
import sys

SCAN = range(1, 4097)       # the low pids: the machine's own processes
CPU_SECONDS = 1             # the RLIMIT_CPU put on the judge
REFUSED = ("ESRCH", "EPERM")    # no such pid here; or a filter refused the call first


def _name(action):
    try:
        action()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))


def _judges():
    given = [int(p) for p in os.environ.get("GT_JUDGE_PIDS", "").split() if p.isdigit()]
    return [("getppid", os.getppid())] + [("judge %d" % p, p) for p in given]


def _harm(pid):
    """The calls that would hurt process `pid`, each (name, action)."""
    return [
        ("prlimit_fsize", lambda: resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, 0))),
        ("prlimit_cpu", lambda: resource.prlimit(pid, resource.RLIMIT_CPU,
                                                 (CPU_SECONDS, CPU_SECONDS))),
        ("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, pid, 19)),
        ("sched_setaffinity", lambda: os.sched_setaffinity(pid, {0})),
        ("sched_setscheduler", lambda: os.sched_setscheduler(pid, os.SCHED_IDLE,
                                                             os.sched_param(0))),
        ("kill", lambda: os.kill(pid, 0)),
    ]


def _look(pid):
    """The calls that only read about process `pid`."""
    return [
        ("kill", lambda: os.kill(pid, 0)),
        ("prlimit", lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE)),
        ("getpriority", lambda: os.getpriority(os.PRIO_PROCESS, pid)),
        ("sched_getaffinity", lambda: os.sched_getaffinity(pid)),
        ("sched_getscheduler", lambda: os.sched_getscheduler(pid)),
    ]


def probe(write=sys.stderr.write):
    write("judge_probe: pid %d, parent %d\n" % (os.getpid(), os.getppid()))
    for label, pid in _judges():
        for call, action in _harm(pid):
            result = "no parent" if pid == 0 else _name(action)
            write("judge_probe: %s on %s: %s\n" % (call, label, result))
    found = {}              # call -> {result: [pid, ...]}
    for pid in SCAN:
        if pid == os.getpid():
            continue
        for call, action in _look(pid):
            found.setdefault(call, {}).setdefault(_name(action), []).append(pid)
    for call, _ in _look(0):
        results = found.get(call, {})
        named = sorted(p for result, pids in results.items() if result not in REFUSED
                       for p in pids)
        write("judge_probe: %s on the scan: %s\n" % (
            call, "named %d pids, first %s" % (len(named), named[:5]) if named else
            "all " + "/".join(sorted(results))))


probe()


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
