"""A hostile tester for the cleanup tests: it leaves processes behind that
escape the worker's process group, then tests each item alone (a valid
answer, n tests an instance).

Its environment says what it does (the worker passes ours on):
  GT_DAEMON_PIDS  a file where every process it leaves appends a line,
                  "PID STARTTIME" (its start in clock ticks, /proc's, so
                  that a pid taken again by another process is told apart;
                  "-" where /proc cannot be read); each also writes the
                  line "daemon-pid: PID STARTTIME" on its stdout, which it
                  keeps (the worker's: the local run's stderr)
  GT_DAEMON_MODE  sleep (default): a daemon made by a double fork, in a
                  session of its own (setsid), that holds a listening socket
                  and sleeps; hop: the same daemon forks and exits every
                  HOP_S, a new pid and a new session each time; spawn: the
                  daemon forks a sleeping child every HOP_S; group: a child
                  that leaves the worker's process group, not its session
  GT_DAEMON_WHEN  import: leave it when the worker imports this file;
                  otherwise at the first find
  GT_DAEMON_PORT  the daemon listens on this loopback port, and find makes
                  one test more when it can connect to it: state that a
                  daemon left by an earlier run would carry into this one
  GT_DAEMON_HANG  when set, find sleeps for good after leaving the daemon
"""

import os
import socket
import time

HOP_S = 0.02            # seconds between two forks of a hopping or spawning daemon
SLEEP_S = 3600          # seconds a daemon sleeps: for good, as far as a test goes
started = []            # one entry once the daemon is left


def record():
    """Say this process's "PID STARTTIME": on stdout, and in GT_DAEMON_PIDS."""
    try:
        with open("/proc/self/stat", "rb") as f:
            text = f.read()
        start = text[text.rindex(b")") + 2:].split()[19].decode()
    except OSError:
        start = "-"
    try:                # the pid outside the worker's PID namespace: /proc is the machine's
        pid = int(os.readlink("/proc/self"))
    except (OSError, ValueError):
        pid = os.getpid()
    line = "%d %s\n" % (pid, start)
    try:
        os.write(1, ("daemon-pid: " + line).encode())
    except OSError:
        pass
    path = os.environ.get("GT_DAEMON_PIDS")
    if path:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


def detach():
    """In a forked child: nothing inherited held open (the worker's pipes
    and sockets) but stdout; stdin and stderr on /dev/null."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 2):
        os.dup2(null, fd)
    os.closerange(3, 65536)


def daemon(mode):
    """The daemon's life; never returns."""
    server = socket.socket()            # kept: a daemon's socket, where walls allow one
    try:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", int(os.environ.get("GT_DAEMON_PORT") or 0)))
        server.listen(8)
    except OSError:
        pass
    record()
    while True:
        if mode == "hop":
            time.sleep(HOP_S)
            if os.fork():
                os._exit(0)
            os.setsid()
            record()
        elif mode == "spawn":
            time.sleep(HOP_S)
            if os.fork() == 0:
                record()
                time.sleep(SLEEP_S)
                os._exit(0)
        else:
            time.sleep(SLEEP_S)


def leave():
    """Leave the daemon behind, once."""
    if started:
        return
    started.append(True)
    mode = os.environ.get("GT_DAEMON_MODE", "sleep")
    pid = os.fork()
    if pid:
        if mode != "group":
            os.waitpid(pid, 0)          # the middle process ends at once
        return
    try:
        detach()
        if mode == "group":
            os.setpgid(0, 0)
            record()
            time.sleep(SLEEP_S)
        else:
            os.setsid()
            if os.fork() == 0:
                daemon(mode)
    finally:
        os._exit(0)


def earlier_daemon():
    """Whether a daemon listens on GT_DAEMON_PORT already."""
    port = os.environ.get("GT_DAEMON_PORT")
    if not port:
        return False
    try:
        socket.create_connection(("127.0.0.1", int(port)), timeout=1.0).close()
        return True
    except OSError:
        return False


if os.environ.get("GT_DAEMON_WHEN") == "import":
    leave()


def find(n, priors, test):
    if not started:
        if earlier_daemon():
            test([0])
        leave()
    if os.environ.get("GT_DAEMON_HANG"):
        time.sleep(SLEEP_S)
    return [i for i in range(n) if test([i])]
