"""The harness's hot path: grader/bench.py's figures on small counts (the
SDK's commands/bench.py and benchmark.py, with group testing's Bench), a
problem without a Bench refused, and the worker's own HTTP client for the
oracle against a live oracle."""

import contextlib
import io
import json
import os
import random
import socket
import sys
import threading
import time
import unittest

import support
from arh_grader import benchmark
from arh_grader.commands import bench
from support import problem
from fuzz import request

KEYS = ("query_size", "request_bytes", "reply_bytes", "requests",
        "raw_rtt_median_us", "raw_rtt_p95_us", "floor_rtt_median_us", "floor_rtt_p95_us",
        "harness_rtt_median_us", "harness_rtt_p95_us", "rtt_ratio", "rtt_ratio_p95",
        "floor_ratio", "harness_tests_made", "harness_tests_counted",
        "run_instances", "run_wall_s", "run_tests", "run_tests_per_s",
        "run_query_bytes_per_test", "grader_peak_mib", "worker_peak_mib")


class BenchTest(unittest.TestCase):
    def test_the_command_prints_every_figure(self):
        status, stdout, stderr = support.run_command(
            self, "grader/bench.py", "--requests", "40", "--instances", "3", timeout=120)
        self.assertEqual(status, 0, stderr)
        lines = support.lines_of(stdout)
        for key in KEYS:
            with self.subTest(key=key):
                self.assertGreater(float(lines[key]), 0)
        self.assertIn("harness_over_floor_us", lines)
        self.assertEqual(lines["harness_counted_match"], "true")
        self.assertEqual(lines["run_counts_match"], "true")
        self.assertEqual(lines["run_instances"], "3")
        self.assertEqual(lines["harness_tests_made"], lines["harness_tests_counted"])
        # PROGRAM.md, docs/local-run.md: "of the order of 100 µs", "a few tens of MiB": loose bounds, on busy cores
        self.assertLess(float(lines["harness_rtt_median_us"]), 25000.0)
        self.assertLess(float(lines["harness_over_floor_us"]), 25000.0)
        self.assertLess(float(lines["worker_peak_mib"]), 100.0)
        for words, doc in (("grader/bench.py` measured a test's round trip, a median "
                            "`harness_rtt_median_us` of the order of 100 µs", support.MANUAL),
                           ("whole worker peaks at a few tens of MiB (`grader/bench.py`'s "
                            "`worker_peak_mib`)", support.LOCAL_RUN)):
            support.said(self, words, doc)

    def test_the_oracle_counts_exactly_the_round_trips_made(self):
        figures = benchmark.measure_rtt(support.PROBLEM, requests=30, warmup=5, size=10)
        self.assertEqual(figures["harness_tests_made"], 35)
        self.assertEqual(figures["harness_tests_counted"], 35)
        self.assertTrue(figures["harness_counted_match"])
        self.assertEqual(figures["request_bytes"], len('{"pool":[502,503,504,505,506,'
                                                       '507,508,509,510,511]}'))
        for kind in ("raw", "floor", "harness"):
            self.assertGreater(figures["%s_rtt_median_us" % kind], 0)
            self.assertGreaterEqual(figures["%s_rtt_p95_us" % kind],
                                    figures["%s_rtt_median_us" % kind])

    def test_an_answer_is_sent_as_the_session_sends_it(self):
        self.assertEqual(benchmark.reply_bytes({"yes": True, "a": [1]}), b'{"a":[1],"yes":true}')
        self.assertEqual(benchmark.reply_bytes(b'{"positive":true}'), b'{"positive":true}')
        self.assertEqual(benchmark.reply_bytes(None), b"null")

    def test_bad_options_and_a_problem_without_a_bench_are_refused_by_name(self):
        for argv, words in ((["--size", "0"], "--size in 1..512; got 5000, 500 and 0"),
                            (["--size", "513"], "--size in 1..512; got 5000, 500 and 513"),
                            (["--requests", "0"], "got 0, 500 and 50"),
                            (["--instances", "-1"], "got 5000, -1 and 50")):
            with self.subTest(argv=argv):
                self.assertIn(words, self.refusal(support.PROBLEM, argv))

        class Unbenched(type(support.PROBLEM)):
            BENCH = None

        self.assertIn("this problem gives no Bench (its BENCH is None): nothing to measure",
                      self.refusal(Unbenched(), []))

    def refusal(self, problem, argv):
        """bench.main's message for `argv`, which must exit with status 2."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as caught:
            bench.main(problem, argv)
        self.assertEqual(caught.exception.code, 2)
        return err.getvalue()


class WorkerOracleClientTest(unittest.TestCase):
    """harness/worker.py's Oracle: answers, refusals with their messages, and
    a new connection after the oracle closes one."""

    def setUp(self):
        self.oracle = support.start_oracle(self)
        self.worker = benchmark.load_worker(support.PROBLEM.WORKER)

    def client(self, token):
        client = self.worker.OracleConnection(self.oracle.url, token)
        self.addCleanup(client.close)
        return client

    def test_answers_and_refusals(self):
        token = self.oracle.open(support.secret(64, {3, 40}), cap=6, max_body=problem.max_body(64))
        client = self.client(token)
        self.assertIs(client.test([0, 1, 2]), False)
        self.assertIs(client.test([40, 63]), True)
        with self.assertRaisesRegex(self.worker.OracleError,
                                    r"^oracle answered 400: pool items must be distinct$"):
            client.test([1, 1])
        self.assertIsNotNone(client.sock)                   # a 400 keeps the connection
        with self.assertRaisesRegex(TypeError, "not JSON serializable"):
            client.test([object()])
        self.assertIs(client.test([3]), True)
        session = self.oracle.close(token)
        self.assertEqual((session.tests, session.invalid), (4, 1))
        with self.assertRaisesRegex(self.worker.OracleError, r"^oracle answered 403: unknown"):
            client.test([3])
        self.assertIsNone(client.sock)                      # closed as the oracle asked

    def test_a_kept_connection_closed_before_its_reply_is_opened_again_once(self):
        """A server that answers one request a connection and then closes
        it without a reply: the next test goes again on a new connection;
        on a new connection the same close is an error, with no retry."""
        server = socket.create_server(("127.0.0.1", 0))
        self.addCleanup(server.close)
        server.settimeout(60)
        reply = b'HTTP/1.1 200 OK\r\nContent-Length: 17\r\n\r\n{"positive":true}'
        seen = []

        def serve(answers):
            for count in answers:           # requests answered on each connection
                conn, _ = server.accept()
                with conn:
                    for _ in range(count):
                        seen.append(conn.recv(65536).partition(b"\r\n")[0])
                        conn.sendall(reply)
                    conn.recv(65536)                # the next request, unanswered

        thread = threading.Thread(target=serve, args=((1, 1, 0),), daemon=True)
        thread.start()
        client = self.worker.OracleConnection("http://127.0.0.1:%d/test"
                                              % server.getsockname()[1], "t")
        self.addCleanup(client.close)
        self.assertIs(client.test([0]), True)      # connection 1
        self.assertIs(client.test([1]), True)      # closed unanswered: again on connection 2
        client.close()
        with self.assertRaisesRegex(ConnectionError, "^the oracle closed the connection "
                                                     "without a reply$"):
            client.test([2])                        # connection 3, new: no retry
        thread.join(60)
        self.assertEqual(seen, [b"POST /test HTTP/1.1"] * 2)

    def test_a_closed_connection_is_reopened_for_the_next_test(self):
        token = self.oracle.open(support.secret(64, {3}), cap=2, max_body=problem.max_body(64))
        client = self.client(token)
        self.assertIs(client.test([3]), True)
        self.assertIs(client.test([4]), False)
        for _ in range(3):                                  # each over the cap: 429, closed
            with self.assertRaisesRegex(self.worker.OracleError,
                                        r"^oracle answered 429: over the cap of 2 tests$"):
                client.test([3])
            self.assertIsNone(client.sock)
        session = self.oracle.close(token)
        self.assertEqual(session.tests, 5)
        self.assertTrue(session.over_cap)

    def test_a_pool_is_encoded_as_json_would(self):
        rng = random.Random("encode-pool")
        pools = [[], [0], [511], [512], [-1], [0, 511], [True], [False, 1], [1.0], [1, "a"],
                 [[1]], [None], [2 ** 70], (1, 2), "12", None, 3, {"a": 1}, [1, 1, 1],
                 [float("nan")]]
        pools += [rng.sample(range(512), rng.randint(1, 512)) for _ in range(200)]
        for pool in pools:
            with self.subTest(pool=pool if len(repr(pool)) < 40 else len(pool)):
                self.assertEqual(self.worker.encode_pool(pool),
                                 json.dumps({"pool": pool}, separators=(",", ":")).encode())
        for pool in ({1, 2}, [object()], [1, {2}]):
            with self.subTest(pool=pool):
                self.assertRaises(TypeError, self.worker.encode_pool, pool)

    def test_an_oracle_that_never_answers_times_out(self):
        listener = socket.create_server(("127.0.0.1", 0))      # accepts, never answers
        self.addCleanup(listener.close)
        link = sys.modules["arh_oracle_link"]                  # the worker's link to the oracle
        self.addCleanup(setattr, link, "ORACLE_TIMEOUT", link.ORACLE_TIMEOUT)
        link.ORACLE_TIMEOUT = 0.3                              # seconds
        client = self.worker.OracleConnection("http://127.0.0.1:%d/" % listener.getsockname()[1], "t")
        self.addCleanup(client.close)
        started = time.monotonic()
        with self.assertRaisesRegex(TimeoutError, r"^the oracle did not answer a test "
                                                  r"within 0.3 s$"):
            client.test([1])
        self.assertLess(time.monotonic() - started, 5)
        self.assertIsNone(client.sock)


if __name__ == "__main__":
    unittest.main()
