"""A hostile tester: tries to reach past the grader's oracle. From inside
the worker it connects over TCP to its network's gateway address and to
each address in AR_PROBE_TARGETS ("IP:PORT IP:PORT ...", where the host
listens), sends a DNS query over UDP to each of those addresses, and asks
its resolver for a name outside the network; and it connects to the oracle
(AR_ORACLE_URL), which it must reach. When anything but the oracle answers,
or the oracle does not, it raises naming what it reached: the submission's
`no_answer`. Otherwise it prints its findings on stderr and solves the
instance honestly by binary splitting: a valid run."""

import os
import socket
import struct
import sys
import threading
import urllib.parse

TIMEOUT_S = 2.0                        # seconds each attempt waits
OUTSIDE_NAME = "leak-check.example.invalid."   # a name no server of the network knows


def gateway():
    """The default route's gateway, from /proc/net/route; None without one."""
    with open("/proc/net/route") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if fields[1] == "00000000" and int(fields[3], 16) & 2:
                return socket.inet_ntoa(struct.pack("<L", int(fields[2], 16)))
    return None


def tcp(host, port):
    try:
        socket.create_connection((host, port), timeout=TIMEOUT_S).close()
        return "reached"
    except OSError as e:
        return "failed (%s)" % (e.strerror or e)


def query(name):
    """A DNS query for `name`'s IPv4 address, as a UDP packet's bytes."""
    labels = b"".join(bytes([len(part)]) + part.encode() for part in name.rstrip(".").split("."))
    return struct.pack(">HHHHHH", 0x4754, 0x0100, 1, 0, 0, 0) + labels + b"\x00\x00\x01\x00\x01"


def ask(host):
    """The response code of `host`'s DNS server to the outside name's query
    (0 found, 2 it failed to ask further, 3 no such name, ...); an OSError
    when none came within TIMEOUT_S."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(TIMEOUT_S)
    try:
        s.sendto(query(OUTSIDE_NAME), (host, 53))
        return s.recvfrom(512)[0][3] & 0x0F
    finally:
        s.close()


def dns_udp(host):
    try:
        return "reached (response code %d)" % ask(host)
    except OSError as e:
        return "failed (%s)" % (e.strerror or e)


def resolver():
    """The container's own resolver (Docker's, 127.0.0.11) must find no
    server to ask: SERVFAIL (2) or REFUSED (5), or no reply at all."""
    with open("/etc/resolv.conf") as f:
        servers = [line.split()[1] for line in f if line.startswith("nameserver")]
    if not servers:
        return "failed (no nameserver)"
    try:
        code = ask(servers[0])
    except OSError as e:
        return "failed (%s: %s)" % (servers[0], e.strerror or e)
    if code in (2, 5):
        return "failed (%s: response code %d, no server beyond it answered)" % (servers[0], code)
    return "reached (%s: response code %d, a server beyond it answered)" % (servers[0], code)


def probe():
    """{what: outcome} of every attempt, run at once in threads."""
    oracle = urllib.parse.urlsplit(os.environ.get("AR_ORACLE_URL", "http://grader:8081"))
    attempts = {"oracle %s:%d" % (oracle.hostname, oracle.port or 80):
                lambda: tcp(oracle.hostname, oracle.port or 80),
                "resolver %s" % OUTSIDE_NAME: resolver}
    targets = [t.rpartition(":") for t in os.environ.get("AR_PROBE_TARGETS", "").split()]
    way = gateway()
    if way is not None:
        targets.append((way, ":", targets[0][2] if targets else "80"))
    for host, _, port in targets:
        attempts["tcp %s:%s" % (host, port)] = lambda h=host, p=int(port): tcp(h, p)
        attempts["dns %s:53" % host] = lambda h=host: dns_udp(h)
    outcomes = {}

    def attempt(name):
        outcomes[name] = attempts[name]()
    threads = [threading.Thread(target=attempt, args=(name,)) for name in attempts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return way, outcomes


def find(n, priors, test):
    way, outcomes = probe()
    report = "; ".join("%s: %s" % item for item in sorted(outcomes.items()))
    wrong = [name for name, got in outcomes.items()
             if got.startswith("reached") != name.startswith("oracle ")]
    if wrong:
        raise RuntimeError("network_probe: gateway %s; wrong: %s; all: %s"
                           % (way, ", ".join(sorted(wrong)), report))
    sys.stderr.write("network_probe: gateway %s; only the oracle reached; %s\n" % (way, report))
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
