"""What the harness costs a call, beside what loopback allows, for any
problem that says how to measure it (its Bench); the command is
commands/bench.py.

    figures = benchmark.measure_rtt(problem, requests=500)
    figures.update(benchmark.measure_run(problem, count=20))

Round trips, of three kinds in blocks that take turns in one measuring
process, so that all three meet the same machine:
- raw: a TCP loopback ping-pong between two Python processes (TCP_NODELAY),
  a request as long as the query's compact JSON and a reply as long as its
  answer: the limit.
- floor: the same ping-pong carrying a call's JSON work as the harness does
  it, HTTP and counting aside: the client writes the query as compact JSON
  and decodes the answer; the server decodes, checks and answers it with
  the problem's rules and, after the reply has left, encodes the query
  canonically as the oracle records it. harness_over_floor_us is what HTTP
  and counting cost.
- harness: the same query through the problem's worker's own connection
  (its OracleConnection.send, the template's, harness/arh_oracle_link.py) to
  the real counting oracle (oracle.Oracle); every call made must be counted.
  rtt_ratio is harness over raw.
The run: a whole local evaluation (local_run.evaluate_local) of a freshly
drawn set with the problem's Bench tester, whose count of each instance is
known, in a fresh process: wall time, calls, calls a second, and the
grader's and the worker's peak resident memory (Linux).
"""

import dataclasses
import importlib.util
import json
import socket
import statistics
import threading
import time
import typing

from . import local_run
from .oracle import Oracle
from .result import canonical

WARMUP = 200             # round trips made before timing starts
BLOCK = 250              # round trips of one kind before switching to the next
SEED = "bench"           # the run's set is the Bench's draw(count, SEED)
CLIENT_CORE, SERVER_CORE = 0, 1          # the worker's core and the grader's


@dataclasses.dataclass(frozen=True)
class Bench:
    """What a problem gives the bench (its BENCH): `item`, the instance the
    round trips are made on (the oracle opens its session); `query(size)`,
    the query each round trip sends, `size` by default, one of `sizes`,
    what a size is in `size_help`; `draw(count, seed)`, the run's set;
    `tester`, a tester file whose count of an instance is `expected(item)`."""

    item: dict
    query: typing.Callable[[int], dict]
    size: int
    sizes: range
    size_help: str
    draw: typing.Callable[[int, str], list]
    tester: str
    expected: typing.Callable[[dict], int]


def percentiles(samples_ns):
    """(median, 95th percentile) of nanosecond samples, in microseconds."""
    p95 = statistics.quantiles(samples_ns, n=20, method="inclusive")[18]
    return statistics.median(samples_ns) / 1e3, p95 / 1e3


def in_child(function, *args):
    """Run `function(*args)` in a fresh spawned process; its return value.
    (Its modules are imported here, not with this module: a problem's
    plugin imports Bench, and no other command needs them.)"""
    import concurrent.futures
    import multiprocessing
    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn) as pool:
        return pool.submit(function, *args).result()


def reply_bytes(answer):
    """An answer's bytes on the wire, as a session sends them: bytes as they
    are, else canonical JSON."""
    return answer if type(answer) is bytes else canonical(answer)


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


def load_worker(path):
    """A problem's worker file as a module (it runs nothing when imported)."""
    spec = importlib.util.spec_from_file_location("bench_worker", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _connect(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _client(worker_path, raw_port, floor_port, url, token, query, reply, requests, warmup):
    """The measuring process, on CLIENT_CORE: blocks of raw round trips, of
    floor ones and of the worker's own calls, in turn. ({kind: times in
    ns}, calls made)."""
    local_run.pin(0, CLIENT_CORE)
    oracle = load_worker(worker_path).OracleConnection(url, token)
    request, answer = json.dumps(query, separators=(",", ":")).encode(), json.loads(reply)
    got = bytearray(len(reply))
    raw_sock, floor_sock = _connect(raw_port), _connect(floor_port)

    def raw():
        raw_sock.sendall(request)
        if not _recv_exactly(raw_sock, got) or got != reply:
            raise RuntimeError("the echo server answered %r" % bytes(got))

    def floor():            # the JSON a client writes and reads, over a raw socket
        floor_sock.sendall(json.dumps(query, separators=(",", ":")).encode())
        if not _recv_exactly(floor_sock, got) or json.loads(got) != answer:
            raise RuntimeError("the floor server answered %r" % bytes(got))

    def harness():
        status, value = oracle.send(query)
        if (status, value) != (200, answer):
            raise RuntimeError("the oracle answered %d: %r" % (status, value))

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


def measure_rtt(problem, *, requests, warmup=WARMUP, size=None):
    """Round trips from a child process on CLIENT_CORE to servers of this
    process (the raw echo, the floor's JSON server, the real oracle), with
    the query of `size` (default the Bench's): a dict of medians and 95th
    percentiles in microseconds, the ratios, and the calls the harness made
    and the oracle counted."""
    bench = problem.BENCH
    query = bench.query(bench.size if size is None else size)
    spec = dataclasses.replace(problem.session(bench.item), cap=warmup + requests)
    reply = reply_bytes(spec.answer(spec.secret, query))
    request_bytes = len(json.dumps(query, separators=(",", ":")))

    def floor_answer(message):
        """What any oracle does with a call, HTTP and bookkeeping aside: parse,
        check and answer it; once the reply has left, keep its canonical bytes."""
        received = json.loads(message.decode("utf-8"))
        spec.check(spec.secret, received)
        return reply_bytes(spec.answer(spec.secret, received)), lambda: canonical(received)

    oracle = Oracle().start()
    try:
        with socket.create_server(("127.0.0.1", 0)) as raw_listener, \
                socket.create_server(("127.0.0.1", 0)) as floor_listener:
            servers = [threading.Thread(target=_serve_one, daemon=True,
                                        args=(listener, request_bytes, answer))
                       for listener, answer in ((raw_listener, lambda _: (reply, None)),
                                                (floor_listener, floor_answer))]
            for server in servers:
                server.start()
            token = oracle.open(spec)
            times, made = in_child(_client, problem.WORKER, raw_listener.getsockname()[1],
                                   floor_listener.getsockname()[1], oracle.url, token,
                                   query, reply, requests, warmup)
            counted = oracle.close(token).tests
            for server in servers:
                server.join(timeout=5)
    finally:
        oracle.stop()
    figures = {"query_size": bench.size if size is None else size,
               "request_bytes": request_bytes, "reply_bytes": len(reply), "requests": requests}
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

def peak_mib(pid):
    """The peak resident memory of a live process, in MiB (Linux's VmHWM;
    ru_maxrss would count the parent's memory a child had before its exec)."""
    with open("/proc/%s/status" % pid, encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0       # kB
    raise RuntimeError("no VmHWM in /proc/%s/status" % pid)


def _run_local(problem, items):
    """In a fresh process: the local evaluation of `items` with the Bench's
    tester; (wall seconds, result, grader peak MiB, worker peak MiB)."""
    worker_peaks, stop_worker = [], local_run.stop_worker

    def measure_and_stop(proc):            # this process runs nothing else
        worker_peaks.append(peak_mib(proc.pid))
        stop_worker(proc)

    local_run.stop_worker = measure_and_stop
    started = time.perf_counter()
    result = local_run.evaluate_local(items, tester=problem.BENCH.tester, quiet=True,
                                      settings=problem.settings(), problem=problem)
    wall = time.perf_counter() - started
    if result["status"] != "valid" or len(worker_peaks) != 1:
        raise RuntimeError("the run was %s (%s) after %d worker(s)" % (
            result["status"], result.get("kind"), len(worker_peaks)))
    return wall, result, peak_mib("self"), worker_peaks[0]


def measure_run(problem, *, count, seed=SEED):
    """The local evaluation of the Bench's draw(count, seed) with its
    tester, in a fresh process: a dict of the figures."""
    items = problem.BENCH.draw(count, seed)
    wall, result, grader_peak, worker_peak = in_child(_run_local, problem, items)
    tests = [e[problem.COUNT] for e in result["items"]]
    return {"run_instances": len(tests), "run_wall_s": wall, "run_tests": sum(tests),
            "run_tests_per_s": sum(tests) / wall,
            "run_query_bytes_per_test": result["query_bytes"] / sum(tests),
            "run_counts_match": tests == [problem.BENCH.expected(item) for item in items],
            "grader_peak_mib": grader_peak, "worker_peak_mib": worker_peak}
