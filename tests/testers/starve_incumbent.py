"""A hostile challenger: binary splitting that, before each instance, cuts
the open files (prlimit RLIMIT_NOFILE to 0) of every process it can name
that carries the comparison's mark, so that the incumbent, frozen
meanwhile, can accept no connection when its turn comes and times out; a
red team won this way against a much better incumbent.

It looks at every pid of SCAN, and of WINDOW pids either side of its own,
of its parent and of each pid in GT_JUDGE_PIDS. A process is a target when
its RLIMIT_NOFILE soft limit is GT_MARK_NOFILE (the test starts the
comparison with that limit, which each worker inherits): no process of
the machine but the comparison's own is ever touched. Its judge and
itself are spared. Behind a PID namespace of its own it names no process
but itself (ESRCH), and the incumbent plays unharmed. What it did goes to
stderr: "starve_incumbent: cut PID" for each process it cut."""

import os
import resource
import sys

SCAN = range(1, 4097)
WINDOW = 3000


def _candidates():
    me, parent = os.getpid(), os.getppid()
    given = [int(p) for p in os.environ.get("GT_JUDGE_PIDS", "").split() if p.isdigit()]
    pids = set(SCAN)
    for centre in (me, parent, *given):
        if centre > 0:
            pids.update(range(max(1, centre - WINDOW), centre + WINDOW))
    return sorted(pids - {0, me, parent, *given})


def starve():
    mark = int(os.environ.get("GT_MARK_NOFILE", "0"))
    if not mark:
        return
    for pid in _candidates():
        try:
            soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
            if soft == mark and os.getpgid(pid) != os.getpgrp():   # not a thread of its own
                resource.prlimit(pid, resource.RLIMIT_NOFILE, (0, hard))
                sys.stderr.write("starve_incumbent: cut %d\n" % pid)
        except OSError:
            pass


def find(n, priors, test):
    starve()
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
