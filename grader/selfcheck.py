"""Prove the grader: binary splitting passes with exactly its baseline's
tests, every counterfeit and faulty tester gets its verdict, a broken set and
a failing oracle get theirs, and two runs give the same bytes.

    python3 grader/selfcheck.py              # every case
    python3 grader/selfcheck.py --case hang  # the cases whose names hold "hang"

Each case is a real tester file run through a real worker process and oracle
on the sample's first instances. One line a case: its name, the verdict it
must get and the verdict it got. Exit status 1 if any case differs.
Verdicts are the kinds, or `valid`, `suspect` (valid but flagged) and
`nondeterministic` (two runs whose counts or transcripts differ).

Nothing here reads src/: the honest tester of every case is binary
splitting as the grader counts the baseline (grader/group_testing/calibration.py's split
on all items), so the self-check gives the same verdicts whatever tester is
being improved.
"""

import argparse
import json
import os
import sys
import tempfile

from arh_grader import Failure, engine, local_run, write_json
from arh_grader.settings import Settings
from group_testing.plugin import PROBLEM

INSTANCES = 3                 # the sample's first instances, for every case
# Deadlines in seconds. A case that finishes gets far more time than it needs,
# so a loaded machine does not change its verdict; only the cases that hang
# wait for HANG_TIMEOUT_S, which still leaves over_cap_then_hang many times
# the time its 2n + 65 tests take.
SETTINGS = Settings(instance_timeout_s=60.0, run_timeout_s=300.0,
                    worker_start_timeout_s=30.0)
HANG_TIMEOUT_S = 3.0

with open(os.path.join(PROBLEM.ROOT, "grader", "group_testing", "calibration.py"), encoding="utf-8") as _f:
    # binary splitting as a tester file: exactly problem.baseline_tests's count
    BASELINE = _f.read().replace("def find(", "def grouped_find(") + """

def find(n, priors, test):
    return sorted(split(range(n), test))
"""
# A counterfeit first finds the truth honestly, then returns `answer(d, n)`.
WRAP = BASELINE.replace("def find(", "def honest(") + """
import json, os, random, sys, threading, time, http.client, urllib.parse

def find(n, priors, test):
    d = honest(n, priors, test)
%s
"""
ORACLE_REQUEST = """
def raw_test(test, token, pool):
    # a request of the tester's own, outside test(): with any token
    url = urllib.parse.urlsplit(os.environ["AR_ORACLE_URL"])
    conn = http.client.HTTPConnection(url.hostname, url.port)
    conn.request("POST", url.path or "/", json.dumps({"pool": pool}),
                 {"Authorization": "Bearer " + token})
    return conn.getresponse().status
"""


def counterfeit(body, prelude=""):
    """A tester whose find runs `body` (indented) after d = the truth."""
    return prelude + WRAP % "\n".join("    " + line for line in body.strip().split("\n"))


def settings_for(name):
    """The deadlines of case `name`: SETTINGS, with HANG_TIMEOUT_S for the
    cases that hang."""
    if "hang" in name:
        return SETTINGS.replace(instance_timeout_s=HANG_TIMEOUT_S)
    return SETTINGS


def scores_one(result):
    bad = [e["index"] for e in result["items"] if e["score"] != 1.0]
    return "scores not 1.0 on %s" % bad if bad else None


def extra_tests(k, invalid):
    """A check that every instance made k tests beyond its baseline, `invalid` of them 400."""
    def check(result):
        for e in result["items"]:
            if e["tests"] != e["baseline"] + k or e["invalid_tests"] != invalid:
                return "instance %d: %d tests (%d invalid), wanted %d (%d)" % (
                    e["index"], e["tests"], e["invalid_tests"], e["baseline"] + k, invalid)
        return None
    return check


CASES = [
    # name, verdict, tester source, check of a valid result (or None)
    ("baseline", "valid", BASELINE, scores_one),
    ("missing", "wrong", counterfeit("return d[:-1]")),
    ("extra", "wrong", counterfeit("return sorted(set(d) | {0, 1, 2})")),
    ("unsorted", "wrong", counterfeit("return d[::-1]")),
    ("duplicated", "wrong", counterfeit("return d + d[-1:]")),
    ("out_of_range", "wrong", counterfeit("return d + [n]")),
    ("negative", "wrong", counterfeit("return [-1] + d")),
    ("empty", "wrong", counterfeit("return []")),
    ("booleans", "schema", counterfeit("return [True for x in d]")),
    ("floats", "schema", counterfeit("return [float(x) for x in d]")),
    ("strings", "schema", counterfeit("return [str(x) for x in d]")),
    ("null", "schema", counterfeit("return None")),
    ("nested", "schema", counterfeit("return [d]")),
    ("dict", "schema", counterfeit("return {'defectives': d}")),
    ("set", "schema", counterfeit("return set(d)")),
    ("nan", "schema", counterfeit("return d + [float('nan')]")),
    ("huge_list", "schema", counterfeit("return list(range(10 ** 6))")),
    ("raises", "no_answer", counterfeit("raise RuntimeError('the tester gave up')")),
    ("sys_exit", "no_answer", counterfeit("sys.exit(3)")),
    ("process_exits", "no_answer", counterfeit("os._exit(3)")),
    ("import_error", "no_answer", "import no_such_module_here\n"),
    ("no_find", "no_answer", "def search(n, priors, test):\n    return []\n"),
    ("hang", "timeout", counterfeit("time.sleep(3600)")),
    ("over_cap", "oracle_cap", "def find(n, priors, test):\n"
                               "    while True:\n        test([0])\n"),
    ("over_cap_then_hang", "oracle_cap", counterfeit(
        "try:\n    while True: test([0])\nexcept Exception:\n    time.sleep(3600)")),
    ("over_cap_then_wrong", "oracle_cap", counterfeit(
        "try:\n    while True: test([0])\nexcept Exception:\n    return []")),
    ("invalid_pools_caught", "valid", counterfeit(
        "for pool in ([], [0, 0], [n], [-1], [True], [0.0], [[0]], list(range(n + 1))):\n"
        "    try:\n        test(pool)\n    except Exception:\n        pass\n"
        "return d"), extra_tests(8, 8)),
    ("threads", "valid", counterfeit(
        "ts = [threading.Thread(target=test, args=([i],)) for i in range(16)]\n"
        "for t in ts: t.start()\n"
        "for t in ts: t.join()\n"
        "return d"), extra_tests(16, 0)),
    ("test_after_return", "valid", counterfeit(
        "global LATE\n"
        "if 'LATE' in globals():\n"
        "    LATE.join()\n"
        "    assert isinstance(LATE.error, Exception), 'a late test was answered'\n"
        "def late():\n"
        "    time.sleep(0.2)\n"
        "    try:\n        test([0])\n    except Exception as e:\n        LATE.error = e\n"
        "LATE = threading.Thread(target=late)\n"
        "LATE.error = None\n"
        "LATE.start()\n"
        "return d"), extra_tests(0, 0)),
    ("invented_token", "valid", counterfeit(
        "assert raw_test(test, 'x' * 32, [0]) == 403\nreturn d", ORACLE_REQUEST),
     extra_tests(0, 0)),
    ("old_token", "valid", counterfeit(
        "global OLD\n"
        "if 'OLD' in globals():\n"
        "    assert raw_test(test, OLD, [0]) == 403\n"
        "OLD = test.__self__.headers['Authorization'][7:]\n"
        "return d", ORACLE_REQUEST), extra_tests(0, 0)),
    ("reads_sample", "suspect", "import json, os\n"
     "SAMPLE = os.path.join(os.path.dirname(os.environ['AR_TESTER']), 'items.jsonl')\n"
     "def find(n, priors, test):\n"
     "    for line in open(SAMPLE):\n"
     "        item = json.loads(line)\n"
     "        if item['priors'] == priors:\n"
     "            return item['defectives']\n"),
    ("nondeterministic", "nondeterministic", counterfeit(
        "test([random.SystemRandom().randrange(n)])\nreturn d")),
    # the platform's side: an honest tester, a broken set or a failing oracle
    ("blank_line", "invalid_set", BASELINE),
    ("oracle_raises", "grader_error", BASELINE),
]
PLATFORM_CASES = ("blank_line", "oracle_raises")
BLANK_LINE = 2          # the line of the blank_line case's set that is left blank


def run_case(name, expected, source, check, items, workdir):
    """Run one case; (verdict it got, detail)."""
    folder = os.path.join(workdir, name)
    os.makedirs(folder)
    tester = os.path.join(folder, "tester.py")
    with open(tester, "w", encoding="utf-8") as f:
        f.write(source)
    if name == "reads_sample":
        with open(os.path.join(folder, "items.jsonl"), "w", encoding="utf-8") as f:
            f.writelines(json.dumps(item) + "\n" for item in items)
    settings = settings_for(name)
    if name == "blank_line":
        results = [evaluate_blank_line(items, tester=tester, folder=folder,
                                       settings=settings)]
    elif name == "oracle_raises":
        results = [evaluate_failing_oracle(items, tester=tester, settings=settings)]
    else:
        results = local_run.evaluate_runs(
            items, repeat=2 if expected == "nondeterministic" else 1, settings=settings,
            tester=tester, quiet=True, problem=PROBLEM)
        if len(results) == 2 and engine.run_verdict(results[0]) == "valid":
            differ = local_run.first_difference(results, keys=PROBLEM.REPEATED)
            if differ:
                return "nondeterministic", differ
    got = engine.run_verdict(results[0])
    if got != "valid" or check is None:
        return got, results[0]["message"] or ""
    problem_found = check(results[0])
    return ("valid" if problem_found is None else "valid?"), problem_found or ""


def evaluate_blank_line(items, *, tester, folder, settings):
    """`items` written to a set file whose line BLANK_LINE is blank, then
    read as engine.run reads a set: the result of a run on that file."""
    path = os.path.join(folder, "items.jsonl")
    lines = [json.dumps(item) + "\n" for item in items]
    lines.insert(BLANK_LINE - 1, "\n")
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    try:
        loaded = PROBLEM.load_set(path)
    except Failure as failure:
        return engine.summarize(PROBLEM, [], failure)
    return local_run.evaluate_local(loaded, tester=tester, settings=settings, quiet=True,
                                    problem=PROBLEM)


class FailingOracle(type(PROBLEM)):
    """Group testing with an answer that raises on every valid test."""

    def answer_query(self, secret, query):
        raise RuntimeError("the oracle's answer failed on purpose")


def evaluate_failing_oracle(items, *, tester, settings):
    """local_run.evaluate_local's run, with an oracle whose answer function
    raises on every valid test (FailingOracle's): the grader's own fault."""
    return local_run.evaluate_local(items, tester=tester, settings=settings, quiet=True,
                                    problem=FailingOracle())


def run_twice_identical(items, workdir):
    """Binary splitting twice through engine.run's writer: same bytes?"""
    tester = os.path.join(workdir, "twice.py")
    with open(tester, "w", encoding="utf-8") as f:
        f.write(BASELINE)
    blobs = []
    for i in range(2):
        path = os.path.join(workdir, "twice-%d" % i, "result.json")
        write_json(path, local_run.evaluate_local(items, tester=tester, quiet=True,
                                                  settings=SETTINGS, problem=PROBLEM))
        with open(path, "rb") as f:
            blobs.append(f.read())
    return blobs[0] == blobs[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", default="", help="run only cases whose name holds this")
    args = parser.parse_args(argv)
    items = PROBLEM.load_set(PROBLEM.SAMPLE)[:INSTANCES]
    with tempfile.TemporaryDirectory(prefix="selfcheck-") as workdir:
        cases = [(name, expected,
                  lambda name=name, expected=expected, source=source, rest=rest: run_case(
                      name, expected, source, rest[0] if rest else None, items, workdir))
                 for name, expected, source, *rest in CASES if args.case in name]
        if args.case in "identical_bytes":
            cases.append(("identical_bytes", "same", lambda: (
                "same" if run_twice_identical(items, workdir) else "different", "")))
        return engine.check_cases(cases)


if __name__ == "__main__":
    sys.exit(main())
