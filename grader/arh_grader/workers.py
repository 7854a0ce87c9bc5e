"""Start a worker of any language as a command, reach it over raw HTTP, and
stop it: for grader/conformance.py, and for grader/local.py to grade a
worker given as a command.

    proc, url = start("node worker.js", oracle_url=oracle.url, log=log_file)
    try:
        wait_listening(proc, url, timeout=30)     # WorkerError if it never listens
        reply = exchange(url, b"GET /health HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
    finally:
        stop(proc)                                # its whole process group

The command gets AR_ORACLE_URL, AR_WORKER_HOST and AR_WORKER_PORT (a free
port picked here, unless `port` is given; 0 lets the worker pick and report
it on stderr, CONTRACT.md's "worker: listening on" line). It runs in a
session of its own, so stop() kills whatever it started as well, and what
left that session too (reaper.py).
"""

import collections
import errno
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.parse

from . import pidns, reaper, sandbox

HOST = "127.0.0.1"      # where a started worker listens
POLL = 0.05             # seconds between two attempts to connect
KILL_WAIT = 5.0         # seconds stop() waits after SIGKILL
RECV_BYTES = 65536      # bytes asked of the socket at a time
PORTS = range(20000, 30000)     # a started worker's ports: below the kernel's range for port 0
PORT_DRAWS = 200                # draws from PORTS before free_port falls back on port 0
_GIVEN = set()                  # the ports free_port has handed out in this process
_GIVEN_LOCK = threading.Lock()
CLOSE_WAIT = 5.0        # seconds exchange() waits to see the server close, when asked

# One reply read off the wire: its status (None when none came), headers as
# {lowercase name: value}, body, whether the server then closed the
# connection (None when not looked at), and what went wrong, if anything.
Reply = collections.namedtuple("Reply", "status headers body closed error")


class WorkerError(Exception):
    """A worker command that cannot start, or that never listens."""


def split_command(command):
    """`command` as a list of words: a list is kept, a string is split as a
    POSIX shell would (no shell runs it; write `sh -c '...'` for one).
    ValueError names a command that is empty or does not split."""
    if isinstance(command, (list, tuple)):
        words = list(command)
    else:
        try:
            words = shlex.split(command)
        except ValueError as e:
            raise ValueError("cannot split the worker command %r: %s" % (command, e)) from None
    if not words:
        raise ValueError("the worker command is empty: %r" % (command,))
    return words


def free_port(host=HOST):
    """A TCP port free on `host` now, for a worker to listen on once it
    starts. It is drawn from PORTS, below the kernel's range of ports for
    a bind to port 0 (Linux's 32768-60999), which is where every oracle of
    the SDK listens: no oracle started meanwhile, here or in another
    process, can take it before the worker does. This process hands a port
    out once; another process drawing the same port in the same moment is
    a chance of one in len(PORTS)."""
    draw = random.SystemRandom()
    for _ in range(PORT_DRAWS):
        port = draw.randrange(PORTS.start, PORTS.stop)
        with _GIVEN_LOCK:
            if port in _GIVEN:
                continue
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                try:
                    sock.bind((host, port))
                except OSError:
                    continue
            _GIVEN.add(port)
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:   # PORTS all taken
        sock.bind((host, 0))
        return sock.getsockname()[1]


def start(command, *, oracle_url, host=HOST, port=None, log=None, stderr=None, env=None,
          namespace=False, core=None):
    """Start `command` as a worker; (Popen, its URL). `port` None picks a
    free one; 0 leaves it to the worker (the URL then says port 0). Output
    goes to `log` (a file), else is inherited; `stderr` overrides where
    stderr goes (subprocess.PIPE to read it). WorkerError when the command
    cannot be run.

    With `namespace`, the command runs as pid 1 of a PID namespace of its
    own with no capability (pidns.py), where the kernel allows one: the
    one wall that needs nothing of what the command is. Landlock's paths
    and a seccomp filter would (what it reads, which calls its runtime
    makes), so a command, the user's own program, gets neither. The
    process's `walls_missing` names what it went without, as
    sandbox.Walls.missing does: "landlock", "seccomp", and "pid namespace"
    without `namespace` or where the kernel refused it (walls_missing).
    With `core`, the command runs on that core alone, where the machine
    has it (set in the child, before anything of the command runs).

    A program that is not there is a WorkerError as it is without the
    namespace, though the child that runs it is then pidinit.py."""
    words = split_command(command)
    port = free_port(host) if port is None else port
    environment = dict(os.environ if env is None else env, AR_ORACLE_URL=oracle_url,
                       AR_WORKER_HOST=host, AR_WORKER_PORT=str(port))
    space = pidns.Namespace() if namespace else None
    if space is not None and space.active and shutil.which(words[0]) is None:
        raise WorkerError("cannot run the worker command %r: %s" % (words, FileNotFoundError(
            errno.ENOENT, os.strerror(errno.ENOENT), words[0])))

    def enter():                # in the child, between fork and exec
        if core is not None and hasattr(os, "sched_setaffinity") and \
                (os.cpu_count() or 1) > core:
            try:
                os.sched_setaffinity(0, {core})
            except OSError:
                pass
        if space is not None:
            space.enter()

    try:
        proc = reaper.spawn(words if space is None else space.command(words),
                            env=environment, stdin=subprocess.DEVNULL, stdout=log,
                            stderr=log if stderr is None else stderr, start_new_session=True,
                            preexec_fn=enter if space is not None or core is not None
                            else None)
    except OSError as e:
        raise WorkerError("cannot run the worker command %r: %s" % (words, e)) from None
    proc.walls_missing = walls_missing(namespace=namespace)
    return proc, "http://%s:%d" % (host, port)


def walls_missing(*, namespace):
    """The walls a worker started from a command goes without, in
    sandbox.EVERY_WALL's words: Landlock and the seccomp filter always
    (they need to know the program), the PID namespace unless `namespace`
    and the kernel allows it (pidns.mode)."""
    return [sandbox.LANDLOCK, sandbox.SECCOMP] + (
        [] if namespace and pidns.mode()[0] else [sandbox.PID_NAMESPACE])


def address(url):
    """(host, port) of an http://HOST:PORT URL; ValueError names a bad one."""
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != "http" or not parts.hostname or not port:
        raise ValueError("a worker URL is http://HOST:PORT, got %r" % (url,))
    return parts.hostname, port


def wait_listening(proc, url, *, timeout):
    """Return once `url` accepts a TCP connection. WorkerError if `proc`
    (None: not ours to watch) exits first, or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    where = address(url)
    while True:
        if proc is not None and proc.poll() is not None:
            raise WorkerError("the worker exited with status %d before listening on %s"
                              % (proc.returncode, url))
        try:
            socket.create_connection(where, timeout=1.0).close()
            return
        except OSError as e:
            last = e
        if time.monotonic() > deadline:
            raise WorkerError("the worker did not listen on %s within %g s (%s)"
                              % (url, timeout, last))
        time.sleep(POLL)


def stop(proc):
    """Kill `proc`'s whole process group (SIGKILL: a worker keeps nothing
    worth saving) and reap it, then everything it started that left the
    group: its session, and the orphans handed to this process (reaper.reap:
    a setsid daemon, a double fork, a daemon that forks on). Safe to call
    twice, or on a process gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=KILL_WAIT)
    except subprocess.TimeoutExpired:
        pass
    reaper.reap(proc)


def exchange(url, data, *, pieces=(), pause=0.0, half_close=False, timeout=10.0,
             see_close=False):
    """Send `data` (then each of `pieces`, `pause` seconds apart) on a new
    connection to `url` and read one reply. `half_close` shuts the sending
    side after the last piece; `see_close` waits up to CLOSE_WAIT for the
    server to close. Never raises for the server's faults: Reply.error
    says what went wrong (no reply within `timeout`, a reset, not HTTP)."""
    sock = socket.create_connection(address(url), timeout=timeout)
    data_in = b""
    try:
        try:
            sock.sendall(data)
            for piece in pieces:
                time.sleep(pause)
                sock.sendall(piece)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass                # a server that answered early and closed: read its answer
        try:
            status, headers, body, data_in = read_reply(sock)
        except (OSError, ValueError) as e:
            return Reply(None, {}, b"", None, "%s: %s" % (type(e).__name__, e))
        closed = None
        if see_close:
            closed = closes(sock, data_in)
        return Reply(status, headers, body, closed, None)
    finally:
        sock.close()


def read_reply(sock):
    """(status, headers, body, bytes after it) of the next final reply on
    `sock`, skipping 1xx; ValueError when it is not HTTP or is cut short."""
    data = b""
    while True:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(RECV_BYTES)
            if not chunk:
                raise ValueError("the connection closed %s" % (
                    "mid-reply: %r" % data[:80] if data else "without a reply"))
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        words = lines[0].split(None, 2)
        if len(words) < 2 or not words[0].startswith(b"HTTP/") or not words[1].isdigit():
            raise ValueError("not an HTTP reply: %r" % lines[0][:80])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
        status = int(words[1])
        if status >= 200:
            break
    length = headers.get("content-length")
    if length is None:                  # the body runs to the end of the connection
        while True:
            chunk = sock.recv(RECV_BYTES)
            if not chunk:
                return status, headers, data, b""
            data += chunk
    if not length.isdigit():
        raise ValueError("a reply's Content-Length is %r" % length)
    while len(data) < int(length):
        chunk = sock.recv(RECV_BYTES)
        if not chunk:
            raise ValueError("the reply was cut short: %d of %s bytes" % (len(data), length))
        data += chunk
    return status, headers, data[:int(length)], data[int(length):]


def closes(sock, extra):
    """Whether the server closes `sock` within CLOSE_WAIT, sending nothing
    more (`extra`: what came after the reply already)."""
    if extra:
        return False
    sock.settimeout(CLOSE_WAIT)
    try:
        return sock.recv(RECV_BYTES) == b""
    except ConnectionResetError:
        return True
    except OSError:
        return False
