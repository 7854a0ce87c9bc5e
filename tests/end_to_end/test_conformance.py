"""grader/conformance.py (the SDK's arh_grader/conformance/ with group
testing's group_testing/conformance.py): the reference worker passes every
rule, MUST and SHOULD, as a command and at a URL; each broken worker of
tests/workers fails its own rule and no other, and conforms only when that
rule is a SHOULD; the worker frozen at contract 1.0 conforms, its failed
SHOULDs listed as warnings; bad options and workers that never listen are
named. And grader/arh_grader/workers.py, which starts worker commands and
kills them."""

import concurrent.futures
import io
import os
import shutil
import sys
import time
import unittest

import support
from arh_grader import workers
from arh_grader.conformance import run as conformance_run
from group_testing import conformance
from group_testing import contract as contract_rules

WORKERS = os.path.join(support.ROOT, "tests", "workers")
REFERENCE = support.REFERENCE
FROZEN = os.path.join(WORKERS, "contract_1_0.py")   # a worker of contract 1.0, not broken
PARALLEL = 9            # broken workers checked at once (most of the time is waiting)
GONE_WAIT = 5.0         # seconds a killed process may take to disappear
SILENT = ("stalled_408", "errors_close")   # their checks wait out a worker that keeps silent
_CHECKS = {}            # {name: a Future of the command's check}, started by setUpModule


def broken_workers():
    """{rule: path} of the broken workers."""
    return {name[:-3]: os.path.join(WORKERS, name) for name in sorted(os.listdir(WORKERS))
            if name.endswith(".py") and name != "base.py" and not name.startswith("contract_")}


def outcomes(stdout):
    """{rule: outcome} of a report, and its summary lines as a dict."""
    lines = support.lines_of(stdout)
    rules = {name: lines[name].split(" ", 1)[0] for name in conformance.RULE_NAMES
             if name in lines}
    return rules, {key: lines.get(key) for key in ("rules", "passed", "failed", "skipped",
                                                   "contract", "conforms")}


def warnings(stdout):
    """The rules named by the report's `warning:` lines."""
    return [line.split(": ", 2)[1] for line in stdout.splitlines()
            if line.startswith("warning: ")]


def check_quietly(command):
    """The check of `command` (run.check): (results, report text)."""
    out = io.StringIO()
    with open(os.devnull, "wb") as log:
        results = conformance_run.check(conformance.Checker, command=command, out=out,
                                        log=log)
    return results, out.getvalue()


def worker_commands():
    """{name: command} of the workers checked by the whole command: the
    reference, and the frozen workers (the one in Node where there is Node)."""
    commands = {"reference": " ".join(REFERENCE), "frozen": "%s %s" % (sys.executable, FROZEN)}
    if shutil.which("node"):
        commands["node"] = "%s %s" % (shutil.which("node"), FROZEN.replace(".py", ".js"))
    return commands


def setUpModule():
    """The workers checked here run binary splitting, whatever src/ holds: the
    rule one_test_a_request compares their pools with its pools. The whole
    command's checks of worker_commands() start here side by side, as the
    rest run (each check mostly waits); their tests read them (checked)."""
    global _SAVED, _POOL
    _SAVED = os.environ.get("AR_TESTER")
    os.environ["AR_TESTER"] = support.SPLITTING
    _POOL = concurrent.futures.ThreadPoolExecutor(len(worker_commands()))
    for name, command in worker_commands().items():
        _CHECKS[name] = _POOL.submit(support.run_command, None, "grader/conformance.py",
                                     "--worker-command", command)


def checked(name):
    """(status, stdout, stderr) of the command's check of worker_commands()'s `name`."""
    return _CHECKS[name].result()


def tearDownModule():
    _POOL.shutdown(wait=True)
    if _SAVED is None:
        os.environ.pop("AR_TESTER", None)
    else:
        os.environ["AR_TESTER"] = _SAVED


class ReferenceTest(unittest.TestCase):
    def test_passes_every_rule_as_a_command(self):
        status, stdout, stderr = checked("reference")
        self.assertEqual(status, 0, stdout + stderr)
        rules, summary = outcomes(stdout)
        self.assertEqual(rules, {name: "pass" for name in conformance.RULE_NAMES})
        total = str(len(conformance.RULE_NAMES))
        self.assertEqual(summary, {"rules": total, "passed": total, "failed": "0",
                                   "skipped": "0", "contract": contract_rules.CONTRACT,
                                   "conforms": "yes"})
        self.assertEqual(warnings(stdout), [])
        self.assertIn("health: pass [MUST 1.0] \u2014 ", stdout)
        self.assertIn("path_404: pass [SHOULD 1.0] \u2014 ", stdout)

    def test_passes_every_rule_at_a_url_but_port_zero_which_needs_a_command(self):
        url, port = support.reference_at_url(self)
        status, stdout, stderr = support.run_command(
            self, "grader/conformance.py", "--worker", url, "--oracle-port", str(port))
        self.assertEqual(status, 0, stdout + stderr)
        rules, summary = outcomes(stdout)
        want = {name: "pass" for name in conformance.RULE_NAMES}
        want["port_zero"] = "skip"
        self.assertEqual(rules, want)
        self.assertIn("port_zero: skip [MUST 1.0] \u2014 only with --worker-command", stdout)
        self.assertEqual((summary["failed"], summary["skipped"]), ("0", "1"))
        self.assertEqual(summary["conforms"], "yes")


class FrozenWorkerTest(unittest.TestCase):
    """tests/workers/contract_1_0.py and contract_1_0.js (Node), written to
    contract 1.0: their /health names no version, they refuse unknown keys,
    and they keep no SHOULD they need not. Each conforms, checked against
    1.0."""

    def test_it_conforms_to_1_0_with_warnings_for_its_shoulds(self):
        self.check_frozen("frozen")

    @unittest.skipUnless(shutil.which("node"), "no Node on this machine")
    def test_the_node_worker_conforms_to_1_0_with_warnings_for_its_shoulds(self):
        self.check_frozen("node")

    def check_frozen(self, name):
        status, stdout, stderr = checked(name)
        self.assertEqual(status, 0, stdout + stderr)
        outcome, summary = outcomes(stdout)
        self.assertEqual((summary["contract"], summary["conforms"]), ("1.0", "yes"), stdout)
        for row in contract_rules.CHECKS:
            with self.subTest(row.name):
                if row.since != "1.0":
                    self.assertEqual(outcome[row.name], "skip")
                    self.assertIn("%s: skip [%s %s] \u2014 since %s; the worker speaks "
                                  "contract 1.0" % (row.name, row.mark, row.since, row.since),
                                  stdout)
                elif row.mark == "MUST":
                    self.assertEqual(outcome[row.name], "pass", stdout)
        failed = [name for name, result in outcome.items() if result == "fail"]
        self.assertTrue(failed, stdout)
        self.assertEqual(warnings(stdout), failed)
        self.assertTrue(all(contract_rules.check(name).mark == "SHOULD" for name in failed))


class BrokenWorkersTest(unittest.TestCase):
    def test_there_is_one_for_each_rule(self):
        self.assertEqual(sorted(broken_workers()), sorted(conformance.RULE_NAMES))

    def test_each_fails_its_own_rule_and_no_other(self):
        """PARALLEL at a time, each checked once: no verdict hangs on how
        fast a busy machine runs (the rules' deadlines are ones only a hung
        worker reaches, the abandoned /solve's end is read, not waited
        for, and slow_test's worker times its answers itself). The
        slowest checks, which wait out a worker that keeps silent, start
        first."""
        paths = broken_workers()
        order = sorted(paths, key=lambda rule: rule not in SILENT)
        with concurrent.futures.ThreadPoolExecutor(PARALLEL) as pool:
            done = dict(zip(order, pool.map(
                lambda rule: check_quietly([sys.executable, paths[rule]]), order)))
        needs = dict(conformance.Checker.RULES)
        for rule, (results, report) in done.items():
            with self.subTest(rule):
                failed = [name for name, outcome, _ in results if outcome == "fail"]
                self.assertEqual(failed, [rule], report)
                must = contract_rules.check(rule).mark == "MUST"
                self.assertEqual(conformance_run.conforms(results,
                                                          checks=contract_rules.CHECKS),
                                 not must)
                self.assertIn("conforms: %s\n" % ("no" if must else "yes"), report)
                self.assertEqual(warnings(report), [] if must else [rule])
                passed = {name for name, outcome, _ in results if outcome == "pass"}
                for name, outcome, seen in results:
                    if outcome == "skip":       # only for want of a rule that did not pass
                        self.assertTrue(set(needs[name]) - passed, (name, seen))
                self.assertIn("failed: 1\n", report)


class BadOptionsTest(unittest.TestCase):
    def test_each_is_named_with_exit_status_2(self):
        cases = [
            (["--worker", "ftp://example:1"], "'ftp://example:1'"),
            (["--worker", "http://127.0.0.1"], "'http://127.0.0.1'"),
            (["--worker-command", ""], "''"),
            (["--worker-command", "python3 'unclosed"], "\"python3 'unclosed\""),
            (["--worker-command", "/no/such/worker --flag"], "/no/such/worker"),
            (["--worker-command", "%s -c 'import sys; sys.exit(3)'" % sys.executable],
             "exited with status 3 before listening"),
            (["--worker", "http://127.0.0.1:9", "--oracle-port", "70000"], "70000"),
            ([], "one of the arguments --worker --worker-command is required"),
        ]
        with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:    # side by side
            done = list(pool.map(lambda case: support.run_command(
                self, "grader/conformance.py", *case[0], timeout=120), cases))
        for (args, words), (status, stdout, stderr) in zip(cases, done):
            with self.subTest(args=args):
                self.assertEqual(status, 2, stdout + stderr)
                self.assertIn(words, stderr)


class WorkersTest(unittest.TestCase):
    def test_the_command_gets_its_addresses_and_is_killed_with_its_children(self):
        folder = support.tmpdir(self)
        script = support.write(self, "w.py", """import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(os.path.join(%r, "seen"), "w") as f:
    f.write("%%s %%s %%s %%d" %% (os.environ["AR_ORACLE_URL"], os.environ["AR_WORKER_HOST"],
                              os.environ["AR_WORKER_PORT"], child.pid))
time.sleep(600)
""" % folder)
        proc, url = workers.start([sys.executable, script], oracle_url="http://o:1/")
        self.addCleanup(workers.stop, proc)
        seen = os.path.join(folder, "seen")
        deadline = time.monotonic() + 30
        while not (os.path.exists(seen) and os.path.getsize(seen)) and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        with open(seen) as f:
            oracle_url, host, port, child = f.read().split()
        self.assertEqual((oracle_url, url), ("http://o:1/", "http://%s:%s" % (host, port)))
        self.assertEqual(host, "127.0.0.1")
        workers.stop(proc)
        self.assertIsNotNone(proc.poll())
        self.assertTrue(gone(int(child)), "the worker's child outlived it")

    def test_a_worker_that_never_listens_is_named(self):
        proc, url = workers.start([sys.executable, "-c", "import time; time.sleep(600)"],
                                  oracle_url="http://o:1/")
        self.addCleanup(workers.stop, proc)
        with self.assertRaisesRegex(workers.WorkerError, "did not listen on %s within 0.5 s"
                                    % url):
            workers.wait_listening(proc, url, timeout=0.5)

    def test_bad_commands_and_urls_are_named(self):
        for command in ("", "a 'b", []):
            with self.subTest(command=command):
                with self.assertRaisesRegex(ValueError, repr(command).replace("[", r"\[")):
                    workers.split_command(command)
        for url in ("127.0.0.1:80", "http://:80", "http://h:x", "https://h:1"):
            with self.subTest(url=url):
                with self.assertRaisesRegex(ValueError, repr(url)):
                    workers.address(url)


def gone(pid):
    """Whether process `pid` is gone (or a zombie) within GONE_WAIT."""
    deadline = time.monotonic() + GONE_WAIT
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split(") ", 1)[1].startswith("Z"):
                    return True
        except (FileNotFoundError, ProcessLookupError):
            return True
        time.sleep(0.05)
    return False


if __name__ == "__main__":
    unittest.main()
