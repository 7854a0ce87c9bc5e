"""Measure the harness's own cost per test beside what loopback allows.

    python3 grader/bench.py                      # 5000 round trips, 500 instances
    python3 grader/bench.py --requests 500 --instances 20

Three measurements, in one run, printed as `key: value` lines on stdout
(progress goes to stderr):
- raw: a TCP loopback ping-pong between two Python processes (TCP_NODELAY),
  a request the size of a typical pool's body and a reply the size of
  {"positive":true}; the limit.
- harness: the same pool sent through the real worker's Oracle.test
  (harness/worker.py) to the real counting oracle (arh_grader.Oracle with
  problem.py's rules), timed inside the measuring process; every test made
  must be counted.
- run: grader/local.py's whole evaluation of a freshly drawn set with the
  shipped tester, in a fresh grader process; wall time, tests, tests per
  second and the grader's and the worker's peak memory.
The measuring client runs on core 0 and the server on core 1, as local.py
pins the worker and the grader.
"""

import argparse
import concurrent.futures
import contextlib
import importlib.util
import json
import multiprocessing
import os
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time

import grade
import instances
import local
import problem
from arh_grader import Oracle

WORKER = os.path.join(grade.ROOT, "harness", "worker.py")
REQUESTS = 5000          # timed round trips of each kind
WARMUP = 200             # round trips made before timing starts
INSTANCES = 500          # instances of the full run
SEED = "bench"           # the full run's set is instances.draw(count, SEED)
N = 512                  # items of the instance the harness round trips test
POOL = list(range(100, 250))             # a typical pool: 150 items
DEFECTIVES = frozenset({200})            # so the pool's answer is positive
REQUEST = json.dumps({"pool": POOL}, separators=(",", ":")).encode()   # 609 bytes
REPLY = b'{"positive":true}'             # 17 bytes
CLIENT_CORE, SERVER_CORE = 0, 1          # the worker's core and the grader's
SPAWN = multiprocessing.get_context("spawn")


def percentiles(samples_ns):
    """(median, 95th percentile) of nanosecond samples, in microseconds."""
    p95 = statistics.quantiles(samples_ns, n=20, method="inclusive")[18]
    return statistics.median(samples_ns) / 1e3, p95 / 1e3


def in_child(function, *args):
    """Run `function(*args)` in a fresh spawned process; its return value."""
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=SPAWN) as pool:
        return pool.submit(function, *args).result()


# ---- raw TCP ping-pong -----------------------------------------------------

def _recv_exactly(sock, buffer):
    view, got = memoryview(buffer), 0
    while got < len(buffer):
        chunk = sock.recv_into(view[got:])
        if not chunk:
            return False
        got += chunk
    return True


def _echo(listener):
    """Serve one connection: answer each REQUEST-sized message with REPLY."""
    conn, _ = listener.accept()
    with conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buffer = bytearray(len(REQUEST))
        while _recv_exactly(conn, buffer):
            conn.sendall(REPLY)


def _raw_client(port, count):
    local.pin(0, CLIENT_CORE)
    reply = bytearray(len(REPLY))
    times = []
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for _ in range(count):
            started = time.perf_counter_ns()
            sock.sendall(REQUEST)
            if not _recv_exactly(sock, reply) or reply != REPLY:
                raise RuntimeError("the echo server answered %r" % bytes(reply))
            times.append(time.perf_counter_ns() - started)
    return times


def measure_raw(*, requests=REQUESTS, warmup=WARMUP):
    """Round trips of a raw socket between a child on CLIENT_CORE and a
    thread of this process: (median, p95) in microseconds."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        server = threading.Thread(target=_echo, args=(listener,), daemon=True)
        server.start()
        times = in_child(_raw_client, listener.getsockname()[1], warmup + requests)
        server.join(timeout=5)
    return percentiles(times[warmup:])


# ---- through the worker's test and the oracle --------------------------------

def _harness_client(url, token, count):
    local.pin(0, CLIENT_CORE)
    spec = importlib.util.spec_from_file_location("bench_worker", WORKER)
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    oracle = worker.Oracle(url, token)
    times = []
    try:
        for _ in range(count):
            started = time.perf_counter_ns()
            positive = oracle.test(POOL)
            times.append(time.perf_counter_ns() - started)
            if positive is not True:
                raise RuntimeError("the oracle answered %r" % (positive,))
    finally:
        oracle.close()
    return times


def measure_harness(*, requests=REQUESTS, warmup=WARMUP):
    """Round trips of harness/worker.py's Oracle.test in a child on
    CLIENT_CORE against the real oracle served by this process:
    (median, p95 in microseconds, tests made, tests the oracle counted)."""
    oracle = Oracle(check=problem.check_query, answer=problem.answer_query).start()
    try:
        token = oracle.open((N, DEFECTIVES), cap=warmup + requests,
                            max_body=problem.max_body(N))
        times = in_child(_harness_client, oracle.url, token, warmup + requests)
        session = oracle.close(token)
    finally:
        oracle.stop()
    return (*percentiles(times[warmup:]), len(times), session.tests)


# ---- a whole evaluation ------------------------------------------------------

def _peak_mib(who):
    return resource.getrusage(who).ru_maxrss / 1024.0     # KiB on Linux


def _run_local(items_path, out):
    """In a fresh process: grader/local.py's main on the set, the shipped
    tester; (wall seconds, grader peak MiB, worker peak MiB)."""
    started = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):
        status = local.main(["--items", items_path, "--out", out])
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError("local.py exited with status %d" % status)
    # the worker is the one child this process has reaped
    return wall, _peak_mib(resource.RUSAGE_SELF), _peak_mib(resource.RUSAGE_CHILDREN)


def measure_run(*, count=INSTANCES, seed=SEED):
    """grader/local.py on instances.draw(count, seed) with the shipped
    tester, in a fresh process: a dict of the figures."""
    items = instances.draw(count, seed)
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        path = os.path.join(folder, "items.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(instances.dumps(item) for item in items)
        wall, grader_peak, worker_peak = in_child(_run_local, path, folder)
        with open(os.path.join(folder, "result.json"), encoding="utf-8") as f:
            result = json.load(f)
    tests = [e["tests"] for e in result["items"]]
    return {"run_instances": len(tests), "run_wall_s": wall, "run_tests": sum(tests),
            "run_tests_per_s": sum(tests) / wall,
            "run_query_bytes_per_test": result["query_bytes"] / sum(tests),
            "tests_match_baseline": tests == [item["baseline"] for item in items],
            "grader_peak_mib": grader_peak, "worker_peak_mib": worker_peak}


# ---- the command -------------------------------------------------------------

def _format(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return "%.3f" % value if isinstance(value, float) else str(value)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=REQUESTS,
                        help="timed round trips of each kind (default %d)" % REQUESTS)
    parser.add_argument("--instances", type=int, default=INSTANCES,
                        help="instances of the full run (default %d; 0 skips it)"
                        % INSTANCES)
    args = parser.parse_args(argv)
    if args.requests < 1 or args.instances < 0:
        parser.error("--requests must be at least 1 and --instances at least 0")
    local.pin(0, SERVER_CORE)
    warmup = min(WARMUP, args.requests)
    figures = {"requests": args.requests, "request_bytes": len(REQUEST),
               "reply_bytes": len(REPLY)}
    sys.stderr.write("bench: raw ping-pong, %d round trips\n" % args.requests)
    raw = measure_raw(requests=args.requests, warmup=warmup)
    sys.stderr.write("bench: worker and oracle, %d round trips\n" % args.requests)
    *harness, made, counted = measure_harness(requests=args.requests, warmup=warmup)
    figures.update(raw_rtt_median_us=raw[0], raw_rtt_p95_us=raw[1],
                   harness_rtt_median_us=harness[0], harness_rtt_p95_us=harness[1],
                   rtt_ratio=harness[0] / raw[0], rtt_ratio_p95=harness[1] / raw[1],
                   harness_tests_made=made, harness_tests_counted=counted,
                   harness_counted_match=made == counted)
    if args.instances:
        sys.stderr.write("bench: local.py on %d instances\n" % args.instances)
        figures.update(measure_run(count=args.instances))
    for key, value in figures.items():
        print("%s: %s" % (key, _format(value)))
    ok = figures["harness_counted_match"] and figures.get("tests_match_baseline", True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
