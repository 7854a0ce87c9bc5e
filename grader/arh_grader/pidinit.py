"""The parent of a worker that is pid 1 of its own PID namespace (pidns.py).

    python3 -I -S -B -c "$(pidns.LAUNCH)" JUDGE_PID [--cgroup-fd=FD] COMMAND [ARG...]

(pidns.LAUNCH compiles this file and calls main(sys.argv): run by its
path, not imported, and not a command of its own either.)

It is exec'd by the child of the judge (JUDGE_PID) that has just made the
namespace: that child stays outside it, and only the processes it forks
go in. So this forks once, and the fork execs COMMAND as pid 1; this waits
for it and exits with its status (or dies of the same signal). It never
runs a tester's code and holds nothing: its pid is not one the tester can
name, as the judge's is not.

It keeps the worker from outliving the judge, as harness/arh_worker.py's
parent watch did (pid 1 has no parent to watch: getppid() is 0): told by
the kernel with SIGCONT when the judge dies (sandbox.Walls.enter's
PR_SET_PDEATHSIG, which survives the exec), it kills the worker (SIGKILL
from outside the namespace, which even pid 1 cannot ignore) and exits.
SIGCONT wakes a frozen process, and thaw() sends it each run: the handler
only looks whether the parent is still the judge. The judge's kill (its
process group: this and the worker) reaches both; its freeze and thaw
reach the worker's cgroup, which this is not in (see --cgroup-fd below),
or, without one, both (SIGSTOP and SIGCONT to the tree). Should this process die alone, the worker
is handed to the judge, its subreaper, and reaped with its session.

With --cgroup-fd, FD is the worker's cgroup.procs (cgroup.py), opened by
the judge and inherited: the fork writes "0" to it, entering the cgroup,
closes it and execs, and this closes its own copy. This process stays out
of the cgroup, so that it is never frozen with the worker and its watch
still runs when the judge dies, even killed by SIGKILL: SIGKILL ends the
worker, frozen or not, and with it its namespace. Written through an fd
opened before the walls, since Landlock forbids opening the file here;
the worker never holds it.

Standard library only (os, signal, sys: ctypes alone would double its
start), run by path: it imports nothing of the grader.
"""

import os
import signal
import sys

FAILED = 127            # the exit status when COMMAND cannot be exec'd
CGROUP_FD = "--cgroup-fd="  # before COMMAND: the fd of the worker's cgroup.procs


def main(argv):
    judge, command, procs = int(argv[1]), argv[2:], None
    if command and command[0].startswith(CGROUP_FD):   # the worker's cgroup.procs, open
        procs, command = int(command[0][len(CGROUP_FD):]), command[1:]
    state = {"child": 0}

    def watch(signum, frame):
        if os.getppid() != judge:
            if state["child"]:
                os.kill(state["child"], signal.SIGKILL)
            os._exit(1)

    signal.signal(signal.SIGCONT, watch)
    watch(0, None)              # the judge may have died before the handler was set
    me = os.getpid()
    child = os.fork()
    if child == 0:
        try:
            signal.signal(signal.SIGCONT, signal.SIG_DFL)
            if procs is not None:       # into the worker's cgroup, before its code runs
                os.write(procs, b"0")
                os.close(procs)
            os.execvp(command[0], command)
        except BaseException as e:
            sys.stderr.write("pidinit: cannot run %r: %s\n" % (command, e))
        os._exit(FAILED)
    state["child"] = child
    if procs is not None:
        os.close(procs)
    while True:
        pid, status = os.waitpid(child, 0)
        if pid == child:
            break
    code = os.waitstatus_to_exitcode(status)
    if code < 0:                # died of a signal: die of the same one
        if -code not in (signal.SIGKILL, signal.SIGSTOP):   # those take no handler
            signal.signal(-code, signal.SIG_DFL)
        os.kill(me, -code)
        code = 128 - code
    return code
