"""A hostile tester: tries, from inside the worker, every socket but the TCP
one the contract gives it: UDP over IPv4 and IPv6 (to AR_PROBE_UDP, a
port where the host listens, or the discard port), a Unix socket connected
to a path (AR_PROBE_UNIX, a listener the host opened, or X11's), a
datagram socketpair, a packet socket (every loopback exchange, the other
contender's oracle traffic included), a netlink one, raw ones, vsock,
SCTP, and an io_uring (which opens sockets itself); and TCP to the oracle,
which it must reach. It prints what each attempt got on stderr, one line
("socket_probe: udp refused (EPERM); ..."), and solves the instance
honestly by binary splitting: a valid run, wherever it runs. Inside
grader/local.py's walls each is refused with EPERM (arh_grader/seccomp.py);
in the container the platform's walls differ (no capability: no packet or
raw socket; UDP and Unix sockets reach nothing outside it), and the probe
only reports."""

import ctypes
import errno
import os
import socket
import sys
import urllib.parse

TIMEOUT_S = 1.0                        # seconds each attempt waits
SYS_IO_URING_SETUP = 425               # x86-64 and arm64


def udp(family, host):
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        s.sendto(b"socket_probe", (host, int(os.environ.get("AR_PROBE_UDP", "9"))))


def unix_path():
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(TIMEOUT_S)
        s.connect(os.environ.get("AR_PROBE_UNIX", "/tmp/.X11-unix/X0"))
        s.sendall(b"socket_probe")


def opened(*args):
    socket.socket(*args).close()


def pair(kind):
    for end in socket.socketpair(socket.AF_UNIX, kind):
        end.close()


def ring():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.syscall(SYS_IO_URING_SETUP, 1, ctypes.create_string_buffer(120))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "io_uring_setup")
    os.close(fd)


def oracle():
    parts = urllib.parse.urlsplit(os.environ.get("AR_ORACLE_URL", "http://grader:8081"))
    socket.create_connection((parts.hostname, parts.port or 80), timeout=TIMEOUT_S).close()


ATTEMPTS = {
    "udp": lambda: udp(socket.AF_INET, "127.0.0.1"),
    "udp6": lambda: udp(socket.AF_INET6, "::1"),
    "unix_path": unix_path,
    "socketpair_dgram": lambda: pair(socket.SOCK_DGRAM),
    "packet": lambda: opened(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3)),  # ETH_P_ALL
    "netlink": lambda: opened(socket.AF_NETLINK, socket.SOCK_RAW, 0),
    "raw": lambda: opened(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP),
    "raw6": lambda: opened(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6),
    "vsock": lambda: opened(40, socket.SOCK_STREAM),                               # AF_VSOCK
    "sctp": lambda: opened(socket.AF_INET, socket.SOCK_STREAM, 132),
    "io_uring": ring,
    "tcp_oracle": oracle,
}


def outcome(action):
    try:
        action()
        return "allowed"
    except PermissionError as e:
        return "refused (%s)" % errno.errorcode.get(e.errno, e.errno)
    except OSError as e:
        return "failed (%s)" % errno.errorcode.get(e.errno, e.errno)


def find(n, priors, test):
    report = "; ".join("%s %s" % (name, outcome(action)) for name, action in ATTEMPTS.items())
    sys.stderr.write("socket_probe: %s\n" % report)
    sys.stderr.flush()
    return splitting(n, test)


def splitting(n, test):
    """Binary splitting, the shipped tester's algorithm."""
    defectives, unresolved = [], list(range(n))
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
