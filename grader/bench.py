"""Measure the harness's own cost per test beside what loopback allows.

    python3 grader/bench.py                      # 5000 round trips, 500 instances
    python3 grader/bench.py --requests 500 --instances 20

Printed as `key: value` lines on stdout (progress goes to stderr), all
from one run:
- raw: a TCP loopback ping-pong between two Python processes (TCP_NODELAY),
  a request as long as a pool's canonical JSON and a reply as long as
  {"positive":true}: the limit.
- floor: the same ping-pong carrying a test's JSON work as the harness
  does it, HTTP and counting aside: the client writes the pool with the
  worker's encode_pool and decodes the answer with json; the server
  decodes, checks and answers it with problem.py's rules (the answer's
  bytes are made once) and, after the reply has left, encodes the query
  canonically as the oracle records it. harness_over_floor_us is what HTTP
  and counting cost.
- harness: the same pool through the real worker's Oracle.test
  (harness/worker.py) to the real counting oracle (arh_grader.Oracle),
  timed inside the measuring process; every test made must be counted.
  Blocks of the three kinds take turns in one measuring process, so that
  all three meet the same machine. rtt_ratio is harness over raw.
- run: grader/local.py's whole evaluation of a freshly drawn set with
  binary splitting as the grader counts the baseline
  (group_testing/splitting.py, not src/tester.py, so the figures do not
  move with the tester being improved), in a fresh grader process: wall
  time, tests, tests per second, and the grader's and the worker's peak
  resident memory (Linux). Every instance must take exactly its baseline's
  tests.
The measuring process runs on core 0 and the servers on core 1, as local.py
pins the worker and the grader. Exit status 1 if a count is off.
"""

import argparse
import concurrent.futures
import contextlib
import importlib.util
import json
import multiprocessing
import os
import socket
import statistics
import sys
import tempfile
import threading
import time

from arh_grader import Oracle, Spec, canonical, local_run
from arh_grader.commands import local
from group_testing import instances, problem, splitting
from group_testing.plugin import PROBLEM

WORKER = PROBLEM.WORKER
REQUESTS = 5000          # timed round trips of each kind
WARMUP = 200             # round trips made before timing starts
INSTANCES = 500          # instances of the full run
SEED = "bench"           # the full run's set is instances.draw(count, SEED)
BLOCK = 250              # round trips of one kind before switching to the other
N = 512                  # items of the instance the harness round trips test
POOL_ITEMS = 50          # items of each round trip's pool: binary splitting's mean
                         # pool on the 500-instance set is 49 items (194 bytes)
SECRET = problem.secret_of({"n": N, "defectives": [N - 1]})   # item N - 1 is the defective
REPLY = b'{"positive":true}'             # 17 bytes: every round trip's answer
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


# ---- round trips: raw, floor and through the harness, side by side ---------

def _recv_exactly(sock, buffer):
    view, got = memoryview(buffer), 0
    while got < len(buffer):
        chunk = sock.recv_into(view[got:])
        if not chunk:
            return False
        got += chunk
    return True


def _serve_one(listener, request_bytes, answer):
    """Serve one connection: answer each request_bytes-long message with
    the reply of answer(message), then call its second part, if any."""
    conn, _ = listener.accept()
    with conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buffer = bytearray(request_bytes)
        while _recv_exactly(conn, buffer):
            reply, after = answer(buffer)
            conn.sendall(reply)
            if after is not None:
                after()


def _raw_answer(message):
    return REPLY, None


def _floor_answer(message):
    """What any oracle does with a test, HTTP and bookkeeping aside: parse,
    check and answer it; once the reply has left, keep its canonical bytes."""
    query = json.loads(message.decode("utf-8"))
    problem.check_query(SECRET, query)
    return problem.answer_query(SECRET, query), lambda: canonical(query)


def load_worker():
    """harness/worker.py as a module (it runs nothing when imported)."""
    spec = importlib.util.spec_from_file_location("bench_worker", WORKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _connect(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _client(raw_port, floor_port, url, token, pool, requests, warmup):
    """The measuring process, on CLIENT_CORE: blocks of raw round trips, of
    floor ones and of harness/worker.py's Oracle.test, in turn, so that all
    three meet the same machine. ({kind: times in ns}, tests made)."""
    local_run.pin(0, CLIENT_CORE)
    worker = load_worker()
    request = worker.encode_pool(pool)
    reply = bytearray(len(REPLY))
    oracle = worker.OracleConnection(url, token)
    raw_sock, floor_sock = _connect(raw_port), _connect(floor_port)

    def raw():
        raw_sock.sendall(request)
        if not _recv_exactly(raw_sock, reply) or reply != REPLY:
            raise RuntimeError("the echo server answered %r" % bytes(reply))

    def floor():            # the JSON a client writes and reads, over a raw socket
        floor_sock.sendall(worker.encode_pool(pool))
        if not _recv_exactly(floor_sock, reply) or json.loads(reply)["positive"] is not True:
            raise RuntimeError("the floor server answered %r" % bytes(reply))

    def harness():
        positive = oracle.test(pool)
        if positive is not True:
            raise RuntimeError("the oracle answered %r" % (positive,))

    kinds = {"raw": raw, "floor": floor, "harness": harness}
    times = {kind: [] for kind in kinds}
    try:
        for once in kinds.values():
            for _ in range(warmup):
                once()
        for start in range(0, requests, BLOCK):
            for kind, once in kinds.items():
                for _ in range(min(BLOCK, requests - start)):
                    started = time.perf_counter_ns()
                    once()
                    times[kind].append(time.perf_counter_ns() - started)
    finally:
        raw_sock.close()
        floor_sock.close()
        oracle.close()
    return times, warmup + len(times["harness"])


def measure_rtt(*, requests=REQUESTS, warmup=WARMUP, pool_items=POOL_ITEMS):
    """Round trips from a child process on CLIENT_CORE to servers of this
    process (the raw echo, the floor's JSON server, the real oracle): a
    dict of medians and 95th percentiles in microseconds, the ratios, and
    the tests the harness made and the oracle counted."""
    pool = list(range(N - pool_items, N))         # three-digit items, N - 1 among them
    request_bytes = len(json.dumps({"pool": pool}, separators=(",", ":")))
    oracle = Oracle().start()
    try:
        with socket.create_server(("127.0.0.1", 0)) as raw_listener, \
                socket.create_server(("127.0.0.1", 0)) as floor_listener:
            servers = [threading.Thread(target=_serve_one, daemon=True,
                                        args=(listener, request_bytes, answer))
                       for listener, answer in ((raw_listener, _raw_answer),
                                                (floor_listener, _floor_answer))]
            for server in servers:
                server.start()
            token = oracle.open(Spec(SECRET, cap=warmup + requests, max_body=problem.max_body(N),
                                     check=problem.check_query, answer=problem.answer_query))
            times, made = in_child(_client, raw_listener.getsockname()[1],
                                   floor_listener.getsockname()[1], oracle.url, token,
                                   pool, requests, warmup)
            counted = oracle.close(token).tests
            for server in servers:
                server.join(timeout=5)
    finally:
        oracle.stop()
    figures = {"pool_items": pool_items, "request_bytes": request_bytes,
               "reply_bytes": len(REPLY), "requests": requests}
    for kind in ("raw", "floor", "harness"):
        figures["%s_rtt_median_us" % kind], figures["%s_rtt_p95_us" % kind] = \
            percentiles(times[kind])
    figures.update(
        rtt_ratio=figures["harness_rtt_median_us"] / figures["raw_rtt_median_us"],
        rtt_ratio_p95=figures["harness_rtt_p95_us"] / figures["raw_rtt_p95_us"],
        floor_ratio=figures["floor_rtt_median_us"] / figures["raw_rtt_median_us"],
        harness_over_floor_us=figures["harness_rtt_median_us"]
        - figures["floor_rtt_median_us"],
        harness_tests_made=made, harness_tests_counted=counted,
        harness_counted_match=made == counted)
    return figures


# ---- a whole evaluation ------------------------------------------------------

def _peak_mib(pid):
    """The peak resident memory of a live process, in MiB (Linux's VmHWM;
    ru_maxrss would count the parent's memory a child had before its exec)."""
    with open("/proc/%s/status" % pid, encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0       # kB
    raise RuntimeError("no VmHWM in /proc/%s/status" % pid)


def _run_local(items_path, tester, out):
    """In a fresh process: grader/local.py's main on the set with `tester`;
    (wall seconds, grader peak MiB, worker peak MiB)."""
    worker_peaks, stop_worker = [], local_run.stop_worker

    def measure_and_stop(proc):            # this process runs nothing else
        worker_peaks.append(_peak_mib(proc.pid))
        stop_worker(proc)

    local_run.stop_worker = measure_and_stop
    started = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):
        status = local.main(PROBLEM, ["--items", items_path, "--tester", tester, "--out", out])
    wall = time.perf_counter() - started
    if status != 0 or len(worker_peaks) != 1:
        raise RuntimeError("local.py exited with status %d after %d worker(s)"
                           % (status, len(worker_peaks)))
    return wall, _peak_mib("self"), worker_peaks[0]


def measure_run(*, count=INSTANCES, seed=SEED):
    """grader/local.py on instances.draw(count, seed) with binary
    splitting (group_testing/splitting.py), in a fresh process: a dict of
    the figures."""
    items = instances.draw(count, seed)
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        path = os.path.join(folder, "items.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(instances.dumps(item) for item in items)
        wall, grader_peak, worker_peak = in_child(_run_local, path, splitting.__file__, folder)
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
    parser.add_argument("--pool-items", type=int, default=POOL_ITEMS,
                        help="items of the pool each round trip sends (default %d)"
                        % POOL_ITEMS)
    args = parser.parse_args(argv)
    if args.requests < 1 or args.instances < 0 or not 1 <= args.pool_items <= N:
        parser.error("--requests must be at least 1, --instances at least 0 and "
                     "--pool-items in 1..%d" % N)
    local_run.pin(0, SERVER_CORE)
    sys.stderr.write("bench: %d round trips of each kind: raw, floor, harness\n"
                     % args.requests)
    figures = measure_rtt(requests=args.requests, warmup=min(WARMUP, args.requests),
                          pool_items=args.pool_items)
    if args.instances:
        sys.stderr.write("bench: local.py on %d instances\n" % args.instances)
        figures.update(measure_run(count=args.instances))
    for key, value in figures.items():
        print("%s: %s" % (key, _format(value)))
    ok = figures["harness_counted_match"] and figures.get("tests_match_baseline", True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
