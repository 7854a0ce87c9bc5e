"""Compare two testers on fresh instances until the sequential test decides
whether the challenger beats the incumbent.

    python3 grader/compare.py --challenger src/tester.py \\
        --incumbent old/tester.py --state compare.json [--seed S]
        [--log results.tsv --description TEXT --sample-result RESULT.json]
        [--instance-timeout SECONDS] [--alpha 0.05] [--beta 0.05] [--delta 0.1]
        [--draw-ceiling 0.85] [--draw-alpha 0.01] [--min-sample 30]
        [--max-decisive N]

Comparison k runs both testers on instance k - 1 of the set drawn with the
seed (grader/instances.py: `--seed S --count k` prints it last). The
challenger wins it with fewer tests, loses with more, draws with as many; a
tester past the instance deadline (autoresearch.toml's instance_timeout_s)
loses it. The record goes to grader/sprt.py, which accepts, rejects or
continues. Both testers run in this process under a counting oracle that
counts, refuses and caps as the HTTP oracle does with harness/worker.py, and
both answers are checked as the grader checks them. Beside the sign, each
comparison keeps both scores (tests / baseline), and the summary gives the
mean score difference with its 95% interval, against the MMI.

The state file (grader/compare_state.py) is locked while a run uses it and
written atomically after every comparison, so a killed run started again
with the same command goes on where it stopped. A run takes up a state file
only with the settings, seed and tester files it was started with; one
version of a tester, one state file. Taking one up runs a few of its
comparisons again, and a file whose record the testers do not reproduce is
refused.

With --log, each decision this run reaches appends one tab-separated row to
the file (a header first when the file is new): commit, decision,
comparisons, score difference, the sample's relative_tests (from
--sample-result), status (keep, discard or crash) and the description.

One progress line a comparison goes to stderr; the decision goes to stdout
as `key: value` lines. Exit status: 0 once decided (whatever the decision),
1 when a tester fails (a wrong answer, an exception, the cap; the instance
is named), 2 for bad usage or a state file that cannot be used, 130 after
Ctrl-C and 143 after SIGTERM (both keep the state file, and say whether one
exists).
"""

import argparse
import contextlib
import hashlib
import importlib.util
import json
import math
import os
import secrets
import signal
import sys
import traceback

import compare_log
import compare_state
import grade
import sprt
from arh_grader import Failure, Session, engine
from arh_grader.deadline import Deadline, deadline
from arh_grader.client import MAX_RESPONSE
from compare_log import UsageError
from compare_state import ROLES
from group_testing import instances, problem

TRACE_CHARS = 2000     # characters of a tester's traceback kept in a failure
SIGNALS = {signal.SIGINT: ("Ctrl-C", 130), signal.SIGTERM: ("SIGTERM", 143)}


class OracleError(Exception):
    """The oracle refused a test: the message says why (as the worker's)."""


class Stopped(BaseException):
    """Ctrl-C or SIGTERM: not a tester's failure, whatever find was doing."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _stop(signum, frame):
    raise Stopped(signum)


# ---- one tester on one instance -----------------------------------------

class LocalOracle:
    """One instance's oracle in this process; `test` is what find gets.

    The pool is written as the worker writes it (one that is not JSON
    raises TypeError, uncounted); then arh_grader's Session counts, refuses
    and answers it by the very code the HTTP oracle runs. A refusal raises
    OracleError in the tester, as the worker does; once closed, a test is
    refused and not counted, as a closed token is over HTTP.
    """

    def __init__(self, instance):
        self.session = Session(problem.secret_of(instance), cap=problem.cap(instance["n"]),
                               max_body=problem.max_body(instance["n"]),
                               check=problem.check_query, answer=problem.answer_query)

    def test(self, pool):
        status, reply, _ = self.session.submit(json.dumps({"pool": pool},
                                                          separators=(",", ":")).encode())
        if status == 200:
            return json.loads(reply)["positive"]
        raise OracleError("oracle answered %d: %s" % (status, json.loads(reply)["error"]))

    def close(self):
        """End the session: its counts are final."""
        self.session.end()
        return self.session


def run_in_process(find, instance):
    """Run `find` on `instance` under a fresh LocalOracle and judge it as
    the grader does (engine.verdict): (its closed Session, Failure or None)."""
    oracle = LocalOracle(instance)
    n = instance["n"]
    failure = answer = None
    try:
        with contextlib.redirect_stdout(sys.stderr):      # stdout is the summary's
            answer = find(n, list(instance["priors"]), oracle.test)
    except (Exception, SystemExit):
        text = traceback.format_exc()
        text = text if len(text) <= TRACE_CHARS else "..." + text[-TRACE_CHARS:]
        failure = Failure("no_answer", "find raised:\n" + text)
    else:
        failure, answer = as_sent(answer)
    finally:
        session = oracle.close()
    return session, engine.verdict(grade.PROBLEM, instance, answer, failure, session)


def as_sent(answer):
    """(None, the answer as the grader receives it from the worker), or
    (Failure `schema`, None) when the worker could not send it."""
    try:
        body = json.dumps({"answer": answer}, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as e:
        return Failure("schema", "find returned %s, which is not JSON: %s"
                       % (type(answer).__name__, e)), None
    if len(body.encode()) > MAX_RESPONSE:
        return Failure("schema", "the worker's answer is over %d bytes" % MAX_RESPONSE), None
    return None, json.loads(body)["answer"]


def load_tester(path, role):
    """The `find` of the tester file `path`; Failure `no_answer` when it
    does not import or defines none."""
    try:
        spec = importlib.util.spec_from_file_location("tester_" + role, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    except (Exception, SystemExit):
        raise Failure("no_answer", "the %s %s failed to import:\n%s"
                      % (role, path, traceback.format_exc(limit=-3))) from None
    if not callable(getattr(module, "find", None)):
        raise Failure("no_answer", "the %s %s defines no function find(n, priors, test)"
                      % (role, path))
    return module.find


def run_one(find, instance, *, timeout):
    """(tests, None) for a tester that answered right, (None, None) for one
    past the deadline, (tests, Failure) for one that failed."""
    try:
        with deadline(timeout):
            oracle, failure = run_in_process(find, instance)
    except Deadline:
        return None, None
    return oracle.tests, failure


def file_sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# ---- the run ---------------------------------------------------------------

@contextlib.contextmanager
def signals_deferred():
    """Hold Ctrl-C and SIGTERM back while the block runs; they act right after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set(SIGNALS))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def compare(data, record, finds, *, state, timeout, stream=sys.stderr):
    """Run comparisons until `record` decides, saving `data` after each;
    None, or the Failure that ended the run (its message names the
    comparison)."""
    seed = data["seed"]
    while record.decision == sprt.CONTINUE:
        number = record.comparisons + 1
        instance = instances.draw_instance(seed, number - 1)
        tests = {}
        for role in ROLES:
            tests[role], failure = run_one(finds[role], instance, timeout=timeout)
            if failure is not None:
                failure.message = ("comparison %d (instance index %d of seed %r, n=%d, "
                                   "family %s): the %s failed: %s"
                                   % (number, number - 1, seed, instance["n"],
                                      instance["family"], role, failure.message))
                failure.index = number - 1
                return failure
        result = compare_state.outcome(tests["challenger"], tests["incumbent"])
        with signals_deferred():           # saved and reported, or neither
            record.add(result)
            data["comparisons"].append([tests["challenger"], tests["incumbent"],
                                        instance["baseline"]])
            data["record"] = record.to_dict()
            data["next_comparison"] = record.comparisons + 1
            compare_state.save(state, data)
            shown = {r: "timeout" if tests[r] is None else tests[r] for r in ROLES}
            stream.write("comparison: %d instance: %d challenger: %s incumbent: %s "
                         "outcome: %s W/L/D: %s llr: %.3f bounds: %s\n"
                         % (number, number - 1, shown["challenger"], shown["incumbent"],
                            result, compare_log.wld(record), record.llr,
                            compare_log.bounds(record.settings)))
            stream.flush()
    return None


def replay(state, data, finds, *, timeout, stream=sys.stderr):
    """Run a few saved comparisons again (compare_state.replay_choice);
    UsageError unless both testers make the tests the file says."""
    chosen = compare_state.replay_choice(data["comparisons"])
    for index in chosen:
        instance = instances.draw_instance(data["seed"], index)
        for k, role in enumerate(ROLES):
            tests, failure = run_one(finds[role], instance, timeout=timeout)
            if failure is not None or tests != data["comparisons"][index][k]:
                now = failure.kind if failure else "timeout" if tests is None else tests
                raise UsageError("%s: comparison %d does not come out again: the %s makes %s "
                                 "tests now, the file says %d. The file was changed, or a "
                                 "tester is not deterministic; start a new state file"
                                 % (state, index + 1, role, now,
                                    data["comparisons"][index][k]))
    if chosen:
        stream.write("compare: comparisons %s of %s ran again with the same tests\n"
                     % (", ".join(str(i + 1) for i in chosen), state))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="the tester file that challenges")
    parser.add_argument("--incumbent", required=True, help="the tester file to beat")
    parser.add_argument("--state", required=True,
                        help="the state file: created if missing, resumed if present")
    parser.add_argument("--seed", help="the instances' seed (any string; default: a random one)")
    parser.add_argument("--instance-timeout", type=float, metavar="SECONDS",
                        help="each tester's deadline on an instance (default: autoresearch.toml)")
    parser.add_argument("--log", metavar="FILE", help="append this run's decision to FILE (TSV)")
    parser.add_argument("--description", help="the log row's description of the change")
    parser.add_argument("--sample-result", metavar="RESULT",
                        help="a local.py result.json whose relative_tests and status go "
                             "in the log row")
    sprt.add_options(parser)
    args = parser.parse_args(argv)
    handlers = {signum: signal.signal(signum, _stop) for signum in SIGNALS}
    try:
        return run(args)
    except Stopped as stop:
        name, status = SIGNALS[stop.signum]
        data = None
        with contextlib.suppress(sprt.StateError):
            data = compare_state.load(args.state)
        if data is None:
            sys.stderr.write("compare: stopped by %s before any comparison; no state file "
                             "was written\n" % name)
        else:
            sys.stderr.write("compare: stopped by %s; %s keeps %d comparisons, and the same "
                             "command resumes from there\n"
                             % (name, args.state, len(data.get("comparisons") or [])))
        return status
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


def options(args):
    """(settings, instance timeout, sample result or None); UsageError."""
    try:
        settings = sprt.settings_of(args)
    except sprt.SettingsError as e:
        raise UsageError(str(e)) from None
    for role in ROLES:
        if not os.path.isfile(getattr(args, role)):
            raise UsageError("--%s %r is not a file" % (role, getattr(args, role)))
    for option, path in (("--state", args.state), ("--log", args.log)):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise UsageError("%s %r is not in an existing folder" % (option, path))
    timeout = args.instance_timeout
    if timeout is None:
        timeout = float(grade.load_settings()["instance_timeout_s"])
    if not (math.isfinite(timeout) and timeout > 0):
        raise UsageError("--instance-timeout must be a positive number of seconds, got %r"
                         % timeout)
    sample = (None if args.sample_result is None
              else compare_log.read_sample_result(args.sample_result))
    return settings, timeout, sample


def run(args):
    """The command after its options are parsed: the exit status."""
    try:
        settings, timeout, sample = options(args)
        testers = {role: file_sha256(getattr(args, role)) for role in ROLES}
        with compare_state.Lock(args.state):
            data = compare_state.load(args.state)
            if data is not None:
                settings, record = compare_state.check(args.state, data, settings=settings,
                                                       seed=args.seed, testers=testers)
            return take_up(args, data, settings, record if data else None, testers,
                           timeout=timeout, sample=sample)
    except (UsageError, sprt.StateError) as e:
        sys.stderr.write("compare: %s\n" % e)
        return 2


def take_up(args, data, settings, record, testers, *, timeout, sample):
    """Run a checked state (or a new one when `data` is None) to its decision."""
    mmi = compare_log.mmi_setting()
    try:
        finds = {role: load_tester(getattr(args, role), role) for role in ROLES}
    except Failure as failure:
        print("error: %s: %s" % (failure.kind, failure.message))
        if args.log:
            compare_log.log_decision(args, record or sprt.WinRecord(settings),
                                     data["comparisons"] if data else [], mmi=mmi,
                                     sample=sample, failed=True)
        return 1
    if data is None:
        seed = args.seed if args.seed is not None else secrets.token_hex(16)
        data, record = compare_state.new(settings, seed, testers), sprt.WinRecord(settings)
        compare_state.save(args.state, data)
    else:
        replay(args.state, data, finds, timeout=timeout)
    if record.decision != sprt.CONTINUE:
        sys.stderr.write("compare: %s had decided already%s\n"
                         % (args.state, "; nothing logged" if args.log else ""))
    else:
        if record.comparisons:
            sys.stderr.write("compare: resuming %s at comparison %d, W/L/D %s\n"
                             % (args.state, record.comparisons + 1, compare_log.wld(record)))
        failure = compare(data, record, finds, state=args.state, timeout=timeout)
        if failure is not None:
            print("error: %s: %s" % (failure.kind, failure.message))
            print("comparisons: %d" % record.comparisons)
            if args.log:
                compare_log.log_decision(args, record, data["comparisons"], mmi=mmi,
                                         sample=sample, failed=True)
            return 1
        if args.log:
            compare_log.log_decision(args, record, data["comparisons"], mmi=mmi, sample=sample)
    print("\n".join(compare_log.summary_lines(record, data["comparisons"], state=args.state,
                                              mmi=mmi)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
