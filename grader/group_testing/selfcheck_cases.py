"""Group testing's self-check cases (grader/selfcheck.py runs them): binary
splitting passes with exactly its baseline's tests, every counterfeit and
faulty tester gets its verdict, a broken set and a failing oracle get
theirs, and two runs give the same bytes.

Each counterfeit is a tester file of counterfeits/: most find the truth
with binary splitting (splitting.py, which reads calibration.py), then
answer or act amiss. A tester may read only its own folder, so those run
as copies with splitting.py and calibration.py beside them (Case.beside).
Nothing here reads src/, so the self-check gives the same verdicts whatever
tester is being improved.

Tests that need a counterfeit of their own write one with counterfeit().
"""

import json
import os
import shutil

from arh_grader import Failure, engine, local_run, write_json
from arh_grader.commands.selfcheck import Case, case_in, set_beside, verdict
from arh_grader.settings import Settings

HERE = os.path.dirname(os.path.abspath(__file__))
SPLITTING = os.path.join(HERE, "splitting.py")          # binary splitting: the baseline's tests
COUNTERFEITS = os.path.join(HERE, "counterfeits")
HONEST = (SPLITTING, os.path.join(HERE, "calibration.py"))   # beside a counterfeit: its honest part
RAW_REQUEST = os.path.join(COUNTERFEITS, "raw_request.py")   # a test outside test()
INSTANCES = 3                 # the sample's first instances, for every case
# Deadlines in seconds. A case that finishes gets far more time than it needs,
# so a loaded machine does not change its verdict; only the cases that hang
# wait: `hang` for HANG_TIMEOUT_S (any deadline times it out), and
# over_cap_then_hang for CAP_THEN_HANG_TIMEOUT_S, in which it must first make
# its baseline's tests and 2n + 65 more: about 0.3 s on an idle machine, so
# fifty times that for a machine whose cores are shared many ways.
SETTINGS = Settings(instance_timeout_s=60.0, run_timeout_s=300.0,
                    worker_start_timeout_s=30.0)
HANG_TIMEOUT_S = 3.0
CAP_THEN_HANG_TIMEOUT_S = 15.0
HANG_DEADLINES = {"hang": HANG_TIMEOUT_S, "over_cap_then_hang": CAP_THEN_HANG_TIMEOUT_S}
BLANK_LINE = 2          # the line of the blank_line case's set that is left blank
PASSING = ("valid", "suspect", "nondeterministic")   # verdicts of a tester that answers


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


def run_blank_line(case, *, problem, items, tester, folder, settings):
    """`items` written to a set file whose line BLANK_LINE is blank, then
    read as engine.run reads a set: the verdict of a run on that file."""
    path = os.path.join(folder, "items.jsonl")
    lines = [json.dumps(item) + "\n" for item in items]
    lines.insert(BLANK_LINE - 1, "\n")
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    try:
        loaded = problem.load_set(path)
    except Failure as failure:
        return verdict(problem, [engine.summarize(problem, [], failure)])
    return verdict(problem, [local_run.evaluate_local(loaded, tester=tester, settings=settings,
                                                      quiet=True, problem=problem)])


def run_failing_oracle(case, *, problem, items, tester, folder, settings):
    """The local run with an oracle whose answer raises on every valid
    test: the grader's own fault."""
    class FailingOracle(type(problem)):
        """Group testing with an answer that raises on every valid test."""

        def answer_query(self, secret, query):
            raise RuntimeError("the oracle's answer failed on purpose")

    return verdict(problem, [local_run.evaluate_local(items, tester=tester, settings=settings,
                                                      quiet=True, problem=FailingOracle())])


def run_twice_identical(case, *, problem, items, tester, folder, settings):
    """The tester twice through engine.run's writer: `same` bytes or
    `different`."""
    blobs = []
    for i in range(2):
        path = os.path.join(folder, "twice-%d" % i, "result.json")
        write_json(path, local_run.evaluate_local(items, tester=tester, quiet=True,
                                                  settings=settings, problem=problem))
        with open(path, "rb") as f:
            blobs.append(f.read())
    return ("same" if blobs[0] == blobs[1] else "different"), ""


def counterfeit_case(name, expected, *, check=None, beside=()):
    """The case of counterfeits/NAME.py, a copy of it beside its honest part."""
    return Case(name, expected, os.path.join(COUNTERFEITS, name + ".py"),
                beside=HONEST + beside, check=check,
                settings=SETTINGS.replace(instance_timeout_s=HANG_DEADLINES[name])
                if name in HANG_DEADLINES else None)


def standalone_case(name, expected, **options):
    """The case of counterfeits/NAME.py, which imports nothing beside it:
    it runs where it lies, unless `prepare` writes files beside a copy."""
    return case_in(COUNTERFEITS, name, expected, **options)


CASES = (
    Case("baseline", "valid", SPLITTING, check=scores_one),
    *(counterfeit_case(name, "wrong") for name in (
        "missing", "extra", "unsorted", "duplicated", "out_of_range", "negative", "empty")),
    *(counterfeit_case(name, "schema") for name in (
        "booleans", "floats", "strings", "null", "nested", "dict", "set", "nan",
        "huge_list")),
    *(counterfeit_case(name, "no_answer") for name in ("raises", "sys_exit", "process_exits")),
    standalone_case("import_error", "no_answer"),
    standalone_case("no_find", "no_answer"),
    counterfeit_case("hang", "timeout"),
    standalone_case("over_cap", "oracle_cap"),
    counterfeit_case("over_cap_then_hang", "oracle_cap"),
    counterfeit_case("over_cap_then_wrong", "oracle_cap"),
    counterfeit_case("invalid_pools_caught", "valid", check=extra_tests(8, 8)),
    counterfeit_case("threads", "valid", check=extra_tests(16, 0)),
    counterfeit_case("test_after_return", "valid", check=extra_tests(0, 0)),
    counterfeit_case("invented_token", "valid", check=extra_tests(0, 0),
                     beside=(RAW_REQUEST,)),
    counterfeit_case("old_token", "valid", check=extra_tests(0, 0), beside=(RAW_REQUEST,)),
    standalone_case("reads_sample", "suspect", prepare=set_beside("items.jsonl")),
    counterfeit_case("nondeterministic", "nondeterministic"),
    # the platform's side: an honest tester, a broken set, a failing oracle, two runs
    Case("blank_line", "invalid_set", SPLITTING, run=run_blank_line),
    Case("oracle_raises", "grader_error", SPLITTING, run=run_failing_oracle),
    Case("identical_bytes", "same", SPLITTING, run=run_twice_identical),
)
# the cases whose tester's run fails: its verdict and its message are the
# tester's, and what the message shows must not name a defective (tests/group_testing/test_cheat.py)
FAILING = tuple(case for case in CASES if case.run is None and case.expected not in PASSING)

COUNTERFEIT = """%s
import http.client, json, os, random, runpy, sys, threading, time, urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))   # splitting.py, calibration.py beside it


def honest(n, priors, test):
    return runpy.run_path(os.path.join(HERE, "splitting.py"))["find"](n, priors, test)


def find(n, priors, test):
    d = honest(n, priors, test)
%s
"""


def counterfeit(folder, body, *, prelude=""):
    """A counterfeit of a test's own, as those of counterfeits/ are made:
    FOLDER/tester.py, whose find runs `body` (indented) after d = the
    truth found by binary splitting, with `prelude` at the top and its
    honest part beside it. Its path."""
    for path in HONEST:
        shutil.copy(path, folder)
    tester = os.path.join(folder, "tester.py")
    with open(tester, "w", encoding="utf-8") as f:
        f.write(COUNTERFEIT % (prelude, "\n".join(
            "    " + line for line in body.strip().split("\n"))))
    return tester
