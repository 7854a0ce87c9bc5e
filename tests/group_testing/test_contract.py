"""CONTRACT.md against the code: its tables are grader/rules.py's (group
testing's contract, group_testing/contract.py), and the
oracle, the grader's client and the worker do what those tables say, each
row tried on a live server. Rows whose behaviour is still to come are
marked as expected failures, each in a test of its own."""

import http.server
import json
import os
import re
import socket
import sys
import threading
import time
import unittest

import support
from group_testing import contract as rules
from arh_grader import Failure, Session, WorkerClient, client, workers
from support import problem

sys.path.insert(0, os.path.join(support.ROOT, "harness"))
import arh_worker  # noqa: E402
import worker  # noqa: E402

N = 64
TOKEN = b"@T@"          # stands for the session's token in the requests below
BODY = b'{"pool":[1,3]}'
SOCKET_WAIT = 10.0      # seconds a reply may take here
STALL_WAIT = rules.BODY_TIMEOUT + 3.0   # seconds to wait for the reply to a stalled request


def req(body=BODY, *, token=TOKEN, line=b"POST / HTTP/1.1", length=None, headers=()):
    lines = [line, b"Host: oracle"]
    if token is not None:
        lines.append(b"Authorization: Bearer " + token)
    if length is not False:
        lines.append(b"Content-Length: " + (b"%d" % len(body) if length is None else length))
    return b"\r\n".join(lines + list(headers)) + b"\r\n\r\n" + body


# cause: [(label, request bytes, how it is sent)]; "half": the client then
# shuts its sending side; "stall": it sends nothing more and waits
ORACLE_CASES = {
    "valid": [("a pool", req(), None), ("spaces", req(b'{"pool": [1, 3]}'), None)],
    "invalid_query": [("an empty pool", req(b'{"pool":[]}'), None),
                      ("another key", req(b'{"pool":[1],"x":1}'), None),
                      ("a boolean item", req(b'{"pool":[true]}'), None)],
    "not_json": [("not JSON", req(b"nope"), None),
                 ("UTF-16", req('{"pool":[1]}'.encode("utf-16")), None)],
    "truncated": [("a body cut short", req(length=b"%d" % (len(BODY) + 5)), "half")],
    "length": [("none", req(length=False), None), ("abc", req(length=b"abc"), None),
               ("+14", req(length=b"+14"), None),
               ("Transfer-Encoding", req(headers=[b"Transfer-Encoding: chunked"]), None)],
    "too_large": [("one byte over", req(b" " * (problem.max_body(N) + 1)), None)],
    "token": [("none", req(token=None), None), ("lower case", req().replace(
        b"Bearer", b"bearer"), None), ("unknown", req(token=b"nope"), None)],
    "no_path": [("another path", req(line=b"POST /x HTTP/1.1"), None)],
    "method": [("GET", req(line=b"GET / HTTP/1.1"), None),
               ("PUT elsewhere", req(line=b"PUT /x HTTP/1.1"), None)],
    "request_line": [("HTTP/2.0", req(line=b"POST / HTTP/2.0"), None),
                     ("a bare LF after the request line", req().replace(b"\r\n", b"\n", 1),
                      None),
                     ("a space before a colon", req(headers=[b"X : 1"]), None),
                     ("Authorization twice", req(headers=[b"Authorization: Bearer x"]), None)],
    "line_too_long": [("65,537 bytes", req(line=b"POST /" + b"a" * 65536 + b" HTTP/1.1"),
                       None)],
    "head_too_large": [("101 header lines", req(headers=[b"X-%d: 1" % i for i in range(98)]),
                        None)],
}
# rows shown apart: over_cap and fault need a session or oracle of their own,
# cut a session's end (and live, on the toy's rules: tests/sdk/test_oracle.py)
TRIED_APART = {"over_cap", "fault", "cut"}
WAITING_CASES = {       # cause: [(label, request, how)] that leave the client waiting
    "stalled": [("a body 5 bytes short, then nothing", req(length=b"%d" % (len(BODY) + 5)),
                 "stall")],
    "request_line": [("header lines ended by bare LFs", req().replace(b"\r\n", b"\n")
                      .replace(b"POST / HTTP/1.1\n", b"POST / HTTP/1.1\r\n"), "stall")],
}


def send(port, data, how, closes=True):
    """One request on a new connection: (status or None, headers, whether
    the connection then ended). With `closes` False, that is seen from a
    second request, without a token, getting a reply on the same connection."""
    sock = socket.create_connection(("127.0.0.1", port),
                                    timeout=STALL_WAIT if how == "stall" else SOCKET_WAIT)
    try:
        sock.sendall(data)
        if how == "half":
            sock.shutdown(socket.SHUT_WR)
        try:
            status, headers, _, extra = workers.read_reply(sock)
        except (OSError, ValueError):
            return None, {}, None
        if closes:
            return status, headers, workers.closes(sock, extra)
        try:
            sock.sendall(req(token=None))
            workers.read_reply(sock)
            return status, headers, False
        except (OSError, ValueError):
            return status, headers, True
    finally:
        sock.close()


class TablesTest(unittest.TestCase):
    def test_contract_md_shows_the_tables_of_grader_rules_py(self):
        with open(os.path.join(support.ROOT, "CONTRACT.md"), encoding="utf-8") as f:
            text = f.read()
        for name, table in rules.markdown().items():
            with self.subTest(name):
                self.assertIn("\n" + table + "\n", text)

    def test_the_version_is_the_same_everywhere(self):
        with open(os.path.join(support.ROOT, "CONTRACT.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("**Version %s**" % rules.CONTRACT, text)
        self.assertIn("| %s |" % rules.CONTRACT, text.split("## Change log")[1])
        self.assertEqual(arh_worker.CONTRACT, rules.CONTRACT)
        self.assertEqual(client.CONTRACT, rules.version(rules.CONTRACT))
        self.assertEqual(client.FIRST, rules.version(rules.FIRST))

    def test_every_row_of_the_workers_side_is_marked_and_versioned(self):
        from group_testing import conformance
        self.assertEqual(conformance.RULE_NAMES, tuple(row.name for row in rules.CHECKS))
        for row in rules.WORKER + rules.CHECKS:
            with self.subTest(row=row[0]):
                self.assertIn(row.mark, ("MUST", "SHOULD"))
                self.assertLessEqual(rules.version(row.since), rules.version(rules.CONTRACT))
        with self.assertRaisesRegex(KeyError, "'nope'"):
            rules.check("nope")

    def test_the_worker_keeps_the_same_limits(self):
        self.assertEqual((worker.MAX_N, worker.Worker.MAX_BODY, arh_worker.BODY_TIMEOUT),
                         (rules.MAX_N, rules.SOLVE_BODY_MAX, rules.BODY_TIMEOUT))
        self.assertEqual(arh_worker.main.__code__.co_consts.count(rules.ORACLE_URL_DEFAULT), 1)

    def test_the_oracle_keeps_the_same_limits(self):
        from arh_grader import oracle
        self.assertEqual((oracle.MAX_LINE, oracle.MAX_HEAD, oracle.MAX_HEADERS),
                         (rules.LINE_MAX, rules.HEAD_MAX, rules.ORACLE_HEADER_LINES))
        self.assertEqual(problem.max_body(64), 272)
        self.assertEqual(problem.max_body(512), 2576)

    def test_every_oracle_row_is_tried(self):
        tried = set(ORACLE_CASES) | TRIED_APART | set(WAITING_CASES)
        self.assertEqual(tried, {row.cause for row in rules.ORACLE})


class OracleRowsTest(unittest.TestCase):
    """Each row of the oracle's table: its status, whether it is counted,
    whether the connection closes (and the reply says so)."""

    def setUp(self):
        self.oracle = support.start_oracle(self, idle_timeout=60)

    def check_row(self, cause, cases):
        row = rules.oracle(cause)
        for label, data, how in cases:
            with self.subTest(cause=cause, case=label):
                token = self.oracle.open(support.secret(N, {3}), cap=problem.cap(N),
                                         max_body=problem.max_body(N))
                status, headers, closed = send(self.oracle.port,
                                               data.replace(TOKEN, token.encode()), how,
                                               row.closes)
                session = self.oracle.close(token)
                self.assertEqual(status, row.status)
                self.assertEqual(session.tests, 1 if row.counted else 0)
                if how != "half":
                    self.assertEqual(closed, row.closes)
                self.assertEqual(headers.get("connection") == "close", row.closes)

    def test_each_row(self):
        for cause, cases in ORACLE_CASES.items():
            self.check_row(cause, cases)

    def test_over_the_cap(self):
        row = rules.oracle("over_cap")
        token = self.oracle.open(support.secret(N, {3}), cap=1, max_body=problem.max_body(N))
        statuses = [send(self.oracle.port, req(token=token.encode()), None, closes)
                    for closes in (False, True)]
        session = self.oracle.close(token)
        self.assertEqual([s[0] for s in statuses], [200, row.status])
        self.assertEqual((session.tests, session.over_cap), (2, True))
        self.assertEqual(statuses[1][2], row.closes)

    def test_a_fault_of_the_oracle(self):
        def broken(secret, query):
            raise RuntimeError("broken on purpose")
        oracle = support.start_oracle(self, answer=broken)
        token = oracle.open(support.secret(N, {3}), cap=9, max_body=problem.max_body(N))
        status, _, closed = send(oracle.port, req(token=token.encode()), None)
        session = oracle.close(token)
        row = rules.oracle("fault")
        self.assertEqual((status, session.tests, closed), (row.status, 1, row.closes))
        self.assertIn("broken on purpose", session.fault)

    def test_a_request_cut_off_by_its_sessions_end(self):
        """The `cut` row: counted, recorded with its status, never answered."""
        row = rules.oracle("cut")
        session = Session(support.secret(N, {3}), cap=9, max_body=problem.max_body(N),
                          check=problem.check_query, answer=problem.answer_query, record=True)
        session.admit()                 # its head read, its body still to come
        session.end()
        self.assertEqual([json.loads(line)["s"] for line in session.transcript], [row.status])
        self.assertEqual((session.tests, row.status), (1 if row.counted else 0, 408))

    def test_what_the_transcript_records(self):
        """A line a counted request: `q` null when no body was read whole."""
        oracle = support.start_oracle(self, record=True, idle_timeout=1.0)
        cases = [   # (request, how, status, q)
            (req(), None, 200, {"pool": [1, 3]}),
            (req(b'{"pool": [1, 1]}'), None, 400, {"pool": [1, 1]}),
            (req(b"nope"), None, 400, "nope"),
            (req(length=b"abc"), None, 411, None),
            (req(b" " * (problem.max_body(N) + 1)), None, 413, None),
            (req(length=b"%d" % (len(BODY) + 5)), "half", 400, None),
            (req(length=b"%d" % (len(BODY) + 5)), "stall", 408, None),
        ]
        token = oracle.open(support.secret(N, {3}), cap=len(cases), max_body=problem.max_body(N))
        for data, how, _, _ in cases + [(req(), None, 429, None)]:
            send(oracle.port, data.replace(TOKEN, token.encode()), how)
        lines = [json.loads(line) for line in oracle.close(token).transcript]
        want = [(status, q) for _, _, status, q in cases] + [(429, None)]
        self.assertEqual([(line["s"], line["q"]) for line in lines], want)
        self.assertEqual(lines[0]["a"], {"positive": True})
        self.assertTrue(all(type(line["a"]["error"]) is str for line in lines[1:]))

    def test_a_stalled_body_gets_408_long_before_the_idle_timeout(self):
        self.check_row("stalled", WAITING_CASES["stalled"])

    def test_header_lines_ended_by_bare_lf_get_400_at_once(self):
        self.check_row("request_line", WAITING_CASES["request_line"])


class FakeWorker(http.server.ThreadingHTTPServer):
    """A worker that answers every request with one fixed reply: `status`
    and `body` after `delay` seconds; status None closes unanswered."""
    daemon_threads = True

    def __init__(self, status, body=b"", delay=0.0):
        super().__init__(("127.0.0.1", 0), _FakeHandler)
        self.status, self.body, self.delay = status, body, delay
        self.seen = []      # (path, Contract-Version, body) of each request

    def handle_error(self, request, client_address):
        pass        # a client that gave up first


class _FakeHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.do_POST()

    def do_POST(self):
        self.server.seen.append((self.path, self.headers.get("Contract-Version"), self.rfile.read(
            int(self.headers.get("Content-Length", 0)))))
        time.sleep(self.server.delay)
        if self.server.status is None:
            self.close_connection = True
            return
        self.send_response(self.server.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.server.body)))
        self.end_headers()
        self.wfile.write(self.server.body)


def fake(case, status, body=b"", delay=0.0, *, servers=None):
    """A running FakeWorker's client, stopped at cleanup (`servers`: a list
    the FakeWorker is appended to)."""
    server = FakeWorker(status, body, delay)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    case.addCleanup(server.server_close)
    case.addCleanup(server.shutdown)
    if servers is not None:
        servers.append(server)
    return WorkerClient("http://127.0.0.1:%d" % server.server_address[1])


def kind_of(cause):
    """The failure kind a row of the verdict table names."""
    return re.fullmatch(r"`(\w+)`", rules.verdict(cause).verdict).group(1)


VERDICT_CASES = {       # cause: [(label, status, body, delay)]
    "no_answer_key": [("not JSON", 200, b"nope", 0), ("a list", 200, b"[1]", 0)],
    "unencodable": [("an error", 422, b'{"error":"a set"}', 0)],
    "other_status": [("500", 500, b'{"error":"raised"}', 0), ("500 not JSON", 500, b"x", 0),
                     ("201 with an answer", 201, b'{"answer":[1]}', 0),
                     ("404", 404, b'{"error":"no"}', 0)],
    "too_large": [("200", 200, b" " * (rules.REPLY_MAX + 1), 0),
                  ("500", 500, b" " * (rules.REPLY_MAX + 1), 0)],
    "late": [("5 s late for a 0.5 s deadline", 200, b'{"answer":[1]}', 5.0)],
    "dropped": [("closed unanswered", None, b"", 0)],
}


class VerdictRowsTest(unittest.TestCase):
    """Each row of the table of the grader's verdicts, from a fake worker."""

    def solve(self, status, body, delay=0.0):
        client = fake(self, status, body, delay)
        return client.solve({"token": "t", "n": 1, "priors": [0.5]}, timeout=0.5 if delay
                            else SOCKET_WAIT)

    def assert_kind(self, cause, status, body, delay=0.0):
        with self.assertRaises(Failure) as caught:
            self.solve(status, body, delay)
        self.assertEqual(caught.exception.kind, kind_of(cause))

    def test_an_answer_is_returned_to_be_checked(self):
        self.assertEqual(self.solve(200, b'{"answer":[1],"extra":0}'), [1])

    def test_each_row(self):
        for cause, cases in VERDICT_CASES.items():
            for label, status, body, delay in cases:
                with self.subTest(cause=cause, case=label):
                    self.assert_kind(cause, status, body, delay)

    def test_a_health_that_never_answers_200(self):
        client = fake(self, 503, b'{"ok":false}')
        with self.assertRaises(Failure) as caught:
            client.wait_healthy(timeout=0.5)
        self.assertEqual(caught.exception.kind, kind_of("unhealthy"))

    def test_a_200_without_answer_is_schema(self):
        self.assert_kind("no_answer_key", 200, b'{"result":[1]}')

    def test_a_422_not_json_is_schema(self):
        self.assert_kind("unencodable", 422, b"could not encode")

    def test_a_500_with_a_json_list_is_no_answer(self):
        self.assert_kind("other_status", 500, b"[1]")

    def test_a_slow_but_alive_health_starts_the_run(self):
        client = fake(self, 200, b'{"ok":true}', delay=2.5)
        client.wait_healthy(timeout=6)


class VersionTest(unittest.TestCase):
    """The grader says its version on every request, reads the worker's from
    /health, and sends it only the keys of the lower one."""

    def deadline_sent(self, health):
        servers = []
        client_ = fake(self, 200, health[:-1] + b',"answer":[1]}', servers=servers)
        client_.wait_healthy(timeout=SOCKET_WAIT)
        self.assertEqual(client_.solve({"token": "t", "n": 1, "priors": [0.5],
                                        "deadline": 9.5}, timeout=SOCKET_WAIT), [1])
        seen = servers[0].seen
        self.assertEqual([version for _, version, _ in seen], ["%d.%d" % client.CONTRACT] * 2)
        return "deadline" in json.loads(seen[-1][2])

    def test_a_worker_that_names_no_version_is_sent_the_keys_of_1_0(self):
        for health in (b'{"ok":true}', b'{"ok":true,"contract":"one"}',
                       b'{"ok":true,"contract":1.1}', b'{"ok":true,"contract":"1.0"}'):
            with self.subTest(health=health):
                self.assertFalse(self.deadline_sent(health))

    def test_a_worker_of_1_1_or_later_gets_the_deadline(self):
        for health in (b'{"ok":true,"contract":"1.1"}', b'{"ok":true,"contract":"1.7",'
                                                        b'"later":{"x":[]}}'):
            with self.subTest(health=health):
                self.assertTrue(self.deadline_sent(health))


class WorkerRowsTest(unittest.TestCase):
    def test_every_worker_row_is_checked_by_a_conformance_rule(self):
        """The conformance rules read each status from the table; all but
        422, which only a tester returning what JSON cannot encode gives
        (test_faults.py and the self-check show it)."""
        text = ""
        for name in (os.path.join("group_testing", "conformance.py"),
                     os.path.join("arh_grader", "conformance", "requests.py"),
                     os.path.join("arh_grader", "conformance", "service.py")):
            with open(os.path.join(support.GRADER, name), encoding="utf-8") as f:
                text += f.read()
        checked = set(re.findall(r'status\("(\w+)"\)', text))
        self.assertEqual(checked | {"unencodable"}, {row.cause for row in rules.WORKER})


if __name__ == "__main__":
    unittest.main()
