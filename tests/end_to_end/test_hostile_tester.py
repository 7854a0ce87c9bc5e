"""Testers that attack the harness from inside the worker's process get the
verdict their behaviour earns, each run through grader/local.py as a real
process: a raw `Expect: 100-continue` request reset by the client, a /solve
or /health reply trickled or never ended, text no console can print, a
killed local.py, two runs on one folder, state kept in the temporary
directory, every socket but TCP tried (tests/testers/hostile/socket_probe.py)."""

import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import unittest

import support
from arh_grader import Failure, WorkerClient, engine, seccomp
from arh_grader.result import MESSAGE_CHARS

GRACE = 2.0          # seconds past a deadline within which a run has ended
WAIT = 30.0          # seconds a test waits for something that takes well under one

EXPECT_RESET = r'''
import socket, struct

def find(n, priors, test):
    oracle = test.__self__                  # the worker's connection to the oracle
    head = ("POST / HTTP/1.1\r\nAuthorization: %s\r\nContent-Length: 10\r\n"
            "Expect: 100-continue\r\n\r\n" % oracle.headers["Authorization"]).encode()
    for _ in range(20):
        sock = socket.create_connection(oracle.address)
        sock.sendall(head)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()                        # a reset, before the 100 Continue
    test([0])
    return []                               # wrong: every instance has a defective
'''

# The worker is the __main__ module of its process: a tester can rewrite it.
TRICKLE_SOLVE = r'''
import sys, time
worker = sys.modules["__main__"]

def do_POST(self):
    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 200\r\n\r\n")
    for _ in range(200):
        time.sleep(0.25)
        self.wfile.write(b" ")

worker.Worker.Handler.do_POST = do_POST

def find(n, priors, test):
    return []
'''

NEVER_ENDS = TRICKLE_SOLVE.replace(
    "for _ in range(200):\n        time.sleep(0.25)\n        self.wfile.write(b\" \")",
    "time.sleep(3600)")

TRICKLE_HEALTH = r'''
import sys, time
worker = sys.modules["__main__"]

def do_GET(self):
    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
    for _ in range(100):
        time.sleep(0.25)
        self.wfile.write(b" ")

worker.Worker.Handler.do_GET = do_GET

def find(n, priors, test):
    return []
'''

UNPRINTABLE = r'''
def find(n, priors, test):
    raise ValueError("x" * 3_000_000 + "\ud800 lone, \x1b[2J cleared, \x00 nul")
'''

SPIN = r'''
import os, sys
# its pid outside its PID namespace (inside it is pid 1): /proc is this machine's
sys.stdout.write("tester-pid: %s\n" % os.readlink("/proc/self"))   # reaches local.py's stderr
sys.stdout.flush()

def find(n, priors, test):
    while True:
        pass
'''

TMPDIR_STATE = r'''
import os, random, tempfile
path = os.path.join(tempfile.gettempdir(), "choice")
if not os.path.exists(path):
    with open(path, "w") as f:
        f.write(str(random.randrange(1 << 30)))
with open(path) as f:
    SEED = int(f.read())

def find(n, priors, test):
    order = list(range(n))
    random.Random(SEED).shuffle(order)
    found, left = [], order
    while left and test(left):
        pool = left
        while len(pool) > 1:
            half = pool[:len(pool) // 2]
            pool = half if test(half) else pool[len(pool) // 2:]
        found.append(pool[0])
        left = [i for i in left if i != pool[0]]
    return sorted(found)
'''


def run_local(case, source, *options, env=None):
    """local.py on `source` in a real process: (status, stdout, stderr,
    result, seconds)."""
    tester = support.write(case, "tester.py", source)
    out = os.path.join(os.path.dirname(tester), "out")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "grader/local.py", "--tester", tester, "--out", out,
                           *options], cwd=support.ROOT, capture_output=True, timeout=300,
                          stdin=subprocess.DEVNULL, env=dict(os.environ, **(env or {})))
    elapsed = time.monotonic() - started
    with open(os.path.join(out, "result.json")) as f:
        result = json.load(f)
    return (done.returncode, done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"), result, elapsed)


class VerdictTest(unittest.TestCase):
    def test_a_reset_after_expect_is_the_tester_s_and_a_wrong_answer_is_wrong(self):
        status, stdout, stderr, result, _ = run_local(self, EXPECT_RESET, "--limit", "2")
        self.assertEqual((status, result["kind"], result["index"]), (1, "wrong", 0), stderr)
        self.assertEqual(result["items"][0]["tests"], 21)           # 20 resets and one test
        self.assertEqual(result["items"][0]["invalid_tests"], 20)

    def test_a_trickled_solve_reply_times_out_at_the_deadline(self):
        for name, source in (("trickle", TRICKLE_SOLVE), ("never ends", NEVER_ENDS)):
            with self.subTest(name):
                status, stdout, _, result, elapsed = run_local(
                    self, source, "--limit", "1", "--instance-timeout", "1")
                self.assertEqual((status, result["kind"]), (1, "timeout"))
                self.assertTrue(result["message"].startswith("no answer within 1.0 s; "))
                self.assertLess(elapsed, 1 + GRACE + 3)     # + the worker's start and stop
                self.assertEqual(support.lines_of(stdout)["kind"], "timeout")

    def test_a_trickled_health_reply_fails_the_start(self):
        status, stdout, _, result, elapsed = run_local(
            self, TRICKLE_HEALTH, "--limit", "1", "--start-timeout", "10")
        self.assertEqual((status, result["kind"]), (1, "no_answer"))
        # 10 s: a loaded machine's interpreter can take over a second to start
        # listening; the trickle (25 s) outlasts the deadline whatever the start took
        self.assertIn("was not healthy within 10 s", result["message"])
        self.assertLess(elapsed, 10 + GRACE + 3)

    def test_text_no_console_can_print_is_printed_escaped_and_cut(self):
        status, stdout, stderr, result, _ = run_local(
            self, UNPRINTABLE, "--limit", "1", env={"PYTHONIOENCODING": "ascii"})
        self.assertEqual((status, result["kind"]), (1, "no_answer"), stderr[-500:])
        self.assertIn("\ud800 lone, \x1b[2J cleared", result["message"])
        self.assertIn("\\ud800 lone, \\x1b[2J cleared, \\x00 nul", stdout)
        self.assertNotIn("\x1b", stdout)
        self.assertLess(len(stdout), 2 * engine.CONSOLE_CHARS)
        self.assertEqual(stdout.splitlines()[-2][:8], "result: ")

    def test_a_message_of_megabytes_is_kept_and_printed_cut(self):
        text = "a" * 3_000_000 + "\ud800\x07" + "z" * 10
        failure = Failure("no_answer", text)
        self.assertEqual(len(failure.message), MESSAGE_CHARS + len(
            "\n... [%d characters cut] ...\n" % (len(text) - MESSAGE_CHARS)))
        self.assertTrue(failure.message.endswith("\ud800\x07" + "z" * 10))
        shown = support.engine.printable(failure.message)
        self.assertTrue(shown.endswith("\\ud800\\x07" + "z" * 10))
        self.assertIn("characters cut", shown)
        self.assertLess(len(shown), engine.CONSOLE_CHARS + 100)
        shown.encode("ascii")                           # prints on any console


class SocketsTest(unittest.TestCase):
    def test_a_tester_opens_no_socket_but_tcp_and_the_run_stays_valid(self):
        """socket_probe's attempts, printed from inside the real worker,
        each refused with EPERM but TCP to the oracle; the listeners the
        test opened (Unix, on a path; UDP) hear nothing; the run is valid."""
        if not seccomp.Filter().available:
            self.skipTest("this machine has no seccomp filter (%s)" % os.uname().machine)
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.addCleanup(unix.close)
        unix.bind(os.path.join(support.tmpdir(self), "listener"))
        unix.listen()
        unix.setblocking(False)
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.addCleanup(udp.close)
        udp.bind(("127.0.0.1", 0))
        udp.setblocking(False)
        with open(os.path.join(support.TESTERS, "hostile", "socket_probe.py")) as f:
            source = f.read()
        status, stdout, stderr, result, _ = run_local(
            self, source, "--limit", "1",
            env={"AR_PROBE_UNIX": unix.getsockname(), "AR_PROBE_UDP": str(udp.getsockname()[1])})
        self.assertEqual((status, result["status"]), (0, "valid"), stderr[-2000:])
        lines = [line for line in stderr.splitlines() if line.startswith("worker| socket_probe: ")]
        self.assertEqual(len(lines), 1, stderr[-2000:])
        got = dict(part.split(" ", 1) for part in lines[0].split(": ", 1)[1].split("; "))
        self.assertEqual(got, {name: "allowed" if name == "tcp_oracle" else "refused (EPERM)"
                               for name in got})
        self.assertEqual(len(got), 12, lines[0])
        self.assertRaises(BlockingIOError, unix.accept)
        self.assertRaises(BlockingIOError, udp.recv, 16)


class SilentWorker(http.server.BaseHTTPRequestHandler):
    """Healthy at once; a /solve it reads and never answers."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def do_POST(self):
        self.server.done.wait(WAIT)


class RunDeadlineTest(unittest.TestCase):
    def test_the_run_deadline_holds_during_an_instance(self):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SilentWorker)
        server.daemon_threads, server.done = True, threading.Event()
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.addCleanup(server.done.set)
        oracle = support.start_oracle(self)
        items = support.PROBLEM.load_set(support.SAMPLE)[:3]
        started = time.monotonic()
        result = support.engine.evaluate(
            items, problem=support.PROBLEM, oracle=oracle,
            worker=WorkerClient("http://127.0.0.1:%d" % server.server_port),
            settings=support.settings(60, run_timeout_s=1, worker_start_timeout_s=60))
        self.assertLess(time.monotonic() - started, 1 + GRACE)
        self.assertEqual((result["kind"], result["index"]), ("timeout", 0))
        self.assertEqual(result["message"], "the run's deadline of 1 s passed during this instance")


class JudgeProbeTest(unittest.TestCase):
    """tests/testers/judge_probe.py, run by grader/local.py started
    through `sh -c 'exec ...'`, so that the pid the shell gives it
    (GT_JUDGE_PIDS) is the judge's: every call on the judge and on the
    scanned pids is refused, and the judge writes its result."""

    def test_the_judge_cannot_be_named(self):
        folder = support.tmpdir(self)
        out = os.path.join(folder, "out")
        done = subprocess.run(
            ["sh", "-c", 'GT_JUDGE_PIDS=$$ exec "$@"', "sh", sys.executable, "grader/local.py",
             "--tester", os.path.join(support.TESTERS, "judge_probe.py"),
             "--limit", "3", "--out", out], cwd=support.ROOT, capture_output=True,
            text=True, timeout=300, stdin=subprocess.DEVNULL)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        with open(os.path.join(out, "result.json"), encoding="utf-8") as f:
            self.assertEqual(json.load(f)["status"], "valid")
        said = dict(line.split("judge_probe: ", 1)[1].rsplit(": ", 1)
                    for line in done.stderr.splitlines() if "judge_probe: " in line
                    and ": " in line.split("judge_probe: ", 1)[1])
        self.assertEqual(said.pop("pid 1, parent 0", None), None)
        calls = ("prlimit_fsize", "prlimit_cpu", "setpriority", "sched_setaffinity",
                 "sched_setscheduler", "kill")
        judges = [key for key in said if " on judge " in key]
        self.assertEqual(len(judges), len(calls), said)
        # ESRCH: no such pid in the worker's namespace (pidns.py); EPERM: the
        # seccomp filter refuses a call on another pid first (seccomp.py)
        for key in judges:
            self.assertIn(said[key], ("ESRCH", "EPERM"), key)
        self.assertEqual(said[[k for k in judges if k.startswith("kill ")][0]], "ESRCH")
        for call in calls:
            self.assertEqual(said["%s on getppid" % call], "no parent")
        for call in ("kill", "prlimit", "getpriority", "sched_getaffinity",
                     "sched_getscheduler"):
            self.assertIn(said["%s on the scan" % call], ("all ESRCH", "all EPERM"), call)
        self.assertIn("worker| judge_probe: pid 1, parent 0", done.stderr)


class LeftoversTest(unittest.TestCase):
    def test_the_worker_dies_with_a_killed_local_py(self):
        folder = support.tmpdir(self)
        tester = os.path.join(folder, "tester.py")
        with open(tester, "w") as f:
            f.write(SPIN)
        proc = subprocess.Popen([sys.executable, "grader/local.py", "--tester", tester,
                                 "--out", os.path.join(folder, "out")], cwd=support.ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        self.addCleanup(proc.stderr.close)
        worker = wait_for_pid(proc.stderr)
        self.addCleanup(kill_quietly, worker)
        time.sleep(0.5)                                     # find is spinning now
        proc.kill()
        started = time.monotonic()
        while alive(worker) and time.monotonic() - started < WAIT:
            time.sleep(0.05)
        support.show("\nleftovers: the worker ended %.2f s after local.py was killed"
                     % (time.monotonic() - started))
        self.assertFalse(alive(worker))

    def test_a_second_run_on_the_same_folder_refuses(self):
        folder = support.tmpdir(self)
        tester = os.path.join(folder, "tester.py")
        out = os.path.join(folder, "out")
        with open(tester, "w") as f:
            f.write(SPIN)
        first = subprocess.Popen([sys.executable, "grader/local.py", "--tester", tester,
                                  "--out", out], cwd=support.ROOT, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.addCleanup(first.wait)
        self.addCleanup(first.kill)
        self.addCleanup(first.stderr.close)
        self.addCleanup(kill_quietly, wait_for_pid(first.stderr))
        status, stdout, stderr = support.run_command(
            self, "grader/local.py", "--tester", support.SHIPPED, "--out", out)
        self.assertEqual(status, 2)
        self.assertEqual(stderr, "local: another run is writing to %r; wait for it to end, "
                                 "or give --out another folder\n" % out)
        self.assertFalse(os.path.exists(os.path.join(out, "result.json")))


class RepeatTest(unittest.TestCase):
    def test_state_kept_in_the_temporary_directory_is_not_carried_over(self):
        status, stdout, stderr, result, _ = run_local(
            self, TMPDIR_STATE, "--limit", "3", "--repeat", "2")
        self.assertEqual(result["status"], "valid", stderr[-500:])
        self.assertEqual(status, 1)
        self.assertRegex(stdout.splitlines()[-1],
                         r"^nondeterministic: instance 0 \((tests|transcript) differ between "
                         r"runs 1 and 2: ")


def wait_for_pid(stream):
    """The pid SPIN prints, read off local.py's stderr (`stream`)."""
    for line in stream:
        if line.startswith(b"worker| tester-pid: "):
            return int(line.split()[-1])
    raise AssertionError("local.py ended before the worker started")


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[-1][:1] != "Z"
    except FileNotFoundError:
        return False


def kill_quietly(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    unittest.main()
