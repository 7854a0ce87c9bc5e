"""Compare two testers on fresh instances until the sequential test decides
whether the challenger beats the incumbent.

    python3 grader/compare.py --challenger src/tester.py \\
        --incumbent old/tester.py --state compare.json [--seed S]
        [--alpha 0.05] [--beta 0.05] [--delta 0.1] [--draw-ceiling 0.9]
        [--min-sample 30]

Comparison k runs both testers on instance k - 1 of the set drawn with the
seed (grader/instances.py: `--seed S --count k` prints it last). The
challenger wins it with fewer tests, loses with more, draws with as many; the
record goes to grader/sprt.py, which accepts, rejects or continues. Both
testers run in this process under a counting oracle that counts, refuses and
caps exactly as the HTTP oracle does with harness/worker.py, and both answers
are checked as the grader checks them.

The state file holds the settings, the seed, the testers' SHA-256, the
record and the next comparison's number; it is written atomically after
every comparison, so a killed run started again with the same state file
goes on where it stopped, redoing at most the comparison it was in. Settings
or a seed on the command line that differ from the saved ones are an error;
without --seed a fresh run draws a random one and saves it.

One progress line a comparison goes to stderr; the decision goes to stdout
as `key: value` lines, with the fixed-sample size it is set against. Exit
status: 0 once decided (whatever the decision), 1 when a tester fails (a
wrong answer, an exception, the cap; the instance is named), 2 for bad usage
or a state file that cannot be used.
"""

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import secrets
import signal
import sys
import threading
import traceback

import grade
import instances
import problem
import sprt
from arh_grader import Failure, QueryError, write_json
from arh_grader.client import MAX_RESPONSE

ROLES = ("challenger", "incumbent")
STATE_FORMAT = 1       # the state file's layout version
TRACE_CHARS = 2000     # characters of a tester's traceback kept in a failure
OPTIONS = sprt.OPTIONS


class OracleError(Exception):
    """The oracle refused a test: the message says why (as the worker's)."""


class UsageError(Exception):
    """Bad options or a state file that does not fit them (exit status 2)."""


class Stopped(BaseException):
    """SIGTERM: not a tester's failure, whatever find was doing."""


def _stop(signum, frame):
    raise Stopped()


# ---- one tester on one instance -----------------------------------------

class CountingOracle:
    """One instance's oracle in this process; `test` is what find gets.

    It follows the HTTP path step by step: the pool is serialized as the
    worker sends it (a pool that is not JSON raises TypeError, uncounted);
    then every request is counted; over the cap it is refused and the session
    marked; a body over problem.max_body is refused; what does not parse or
    fails problem.check_query is refused and counted `invalid`. A refusal
    raises OracleError in the tester, as the worker does.
    """

    def __init__(self, instance):
        self.secret = problem.secret_of(instance)
        self.cap = problem.cap(instance["n"])
        self.max_body = problem.max_body(instance["n"])
        self.tests = self.invalid = 0
        self.over_cap = False
        self._lock = threading.Lock()

    def test(self, pool):
        body = json.dumps({"pool": pool}, separators=(",", ":")).encode()
        with self._lock:
            self.tests += 1
            number = self.tests
        if number > self.cap:
            self.over_cap = True
            raise OracleError("oracle answered 429: over the cap of %d tests" % self.cap)
        if len(body) > self.max_body:
            raise OracleError("oracle answered 413: body of %d bytes; at most %d here"
                              % (len(body), self.max_body))
        try:
            query = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, RecursionError) as e:
            raise self._refused("not JSON: %s" % e) from None
        try:
            problem.check_query(self.secret, query)
        except QueryError as e:
            raise self._refused(str(e)) from None
        except RecursionError:
            raise self._refused("the query is nested too deeply") from None
        return problem.is_positive(self.secret, query)

    def _refused(self, message):
        """Count an invalid test; the error its 400 raises in the tester."""
        with self._lock:
            self.invalid += 1
        return OracleError("oracle answered 400: %s" % message)


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def solve_one(find, instance):
    """Run `find` on `instance` under a fresh CountingOracle and judge it as
    grade.solve_one does, the cap first: (oracle, Failure or None)."""
    oracle = CountingOracle(instance)
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
    return oracle, grade.judge(instance, answer, failure, over_cap=oracle.over_cap,
                               cap=oracle.cap)


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


def outcome(challenger_tests, incumbent_tests):
    if challenger_tests < incumbent_tests:
        return sprt.WIN
    return sprt.LOSS if challenger_tests > incumbent_tests else sprt.DRAW


# ---- the state file ------------------------------------------------------

def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def new_state(settings, seed, testers):
    return {"format": STATE_FORMAT, "settings": settings.to_dict(), "seed": seed,
            "testers": testers, "record": sprt.WinRecord(settings).to_dict(),
            "next_comparison": 1}


def take_up(path, data):
    """(settings, record) of a loaded state; sprt.StateError if it is not one."""
    keys = ["format", "next_comparison", "record", "seed", "settings", "testers"]
    if sorted(data) != keys:
        raise sprt.StateError("%s must hold exactly %s, got %s"
                              % (path, ", ".join(keys), ", ".join(sorted(data))))
    if data["format"] != STATE_FORMAT:
        raise sprt.StateError("%s has format %r; this command reads %d"
                              % (path, data["format"], STATE_FORMAT))
    if type(data["seed"]) is not str:
        raise sprt.StateError("%s: the seed must be a string, got %r" % (path, data["seed"]))
    testers = data["testers"]
    if type(testers) is not dict or sorted(testers) != sorted(ROLES) \
            or not all(type(testers[r]) is str for r in ROLES):
        raise sprt.StateError("%s: testers must map %s to SHA-256 digests, got %r"
                              % (path, " and ".join(ROLES), testers))
    settings = sprt.Settings.from_dict(data["settings"])
    record = sprt.WinRecord.from_dict(settings, data["record"])
    if data["next_comparison"] != record.comparisons + 1:
        raise sprt.StateError("%s: next_comparison is %r but the record holds %d comparisons"
                              % (path, data["next_comparison"], record.comparisons))
    return settings, record


def open_state(args, testers):
    """(state dict, settings, record): the saved state checked against the
    command line, or a new one. UsageError when they disagree."""
    given = {field: getattr(args, field) for field, _, _ in OPTIONS}
    try:
        data = sprt.load_json(args.state)
        if data is None:
            settings = sprt.Settings(**{k: v for k, v in given.items() if v is not None})
            seed = args.seed if args.seed is not None else secrets.token_hex(16)
            data = new_state(settings, seed, testers)
            return data, settings, sprt.WinRecord(settings)
        settings, record = take_up(args.state, data)
    except (sprt.StateError, sprt.SettingsError) as e:
        raise UsageError(str(e)) from None
    saved = settings.to_dict()
    for field, option, _ in OPTIONS:
        if given[field] is not None and given[field] != saved[field]:
            raise UsageError("%s %r differs from %r saved in %s; use a new state file to "
                             "change it" % (option, given[field], saved[field], args.state))
    if args.seed is not None and args.seed != data["seed"]:
        raise UsageError("--seed %r differs from %r saved in %s"
                         % (args.seed, data["seed"], args.state))
    for role in ROLES:
        if testers[role] != data["testers"][role]:
            raise UsageError("the %s %r is not the file the state %s was started with "
                             "(SHA-256 %s, saved %s)" % (role, getattr(args, role), args.state,
                                                         testers[role][:12],
                                                         data["testers"][role][:12]))
    return data, settings, record


# ---- the command -----------------------------------------------------------

def bounds(settings):
    return "%.3f/%.3f" % (settings.lower, settings.upper)


def wld(record):
    return "%d/%d/%d" % (record.wins, record.losses, record.draws)


def summary_lines(record, *, state):
    settings = record.settings
    fixed = settings.fixed_sample
    share = ("%.2f" % (record.decisive / fixed)
             if record.reason in (sprt.UPPER, sprt.LOWER) else "-")
    return ["decision: %s" % record.decision, "reason: %s" % record.reason,
            "comparisons: %d" % record.comparisons, "W/L/D: %s" % wld(record),
            "llr: %.3f" % record.llr, "bounds: %s" % bounds(settings),
            "decisive: %d" % record.decisive, "fixed_sample: %d" % fixed,
            "of_fixed_sample: %s" % share, "state: %s" % state]


def compare(data, record, finds, *, state, stream=sys.stderr):
    """Run comparisons until `record` decides, saving `data` after each;
    None, or the Failure that ended the run (its message names the
    comparison)."""
    seed = data["seed"]
    while record.decision == sprt.CONTINUE:
        number = record.comparisons + 1
        instance = instances.draw_instance(seed, number - 1)
        tests = {}
        for role in ROLES:
            oracle, failure = solve_one(finds[role], instance)
            if failure is not None:
                failure.message = ("comparison %d (instance index %d of seed %r, n=%d, "
                                   "family %s): the %s failed: %s"
                                   % (number, number - 1, seed, instance["n"],
                                      instance["family"], role, failure.message))
                failure.index = number - 1
                return failure
            tests[role] = oracle.tests
        result = outcome(tests["challenger"], tests["incumbent"])
        with sigterm_deferred():           # saved and reported, or neither
            record.add(result)
            data["record"] = record.to_dict()
            data["next_comparison"] = record.comparisons + 1
            write_json(state, data)
            stream.write("comparison: %d instance: %d challenger: %d incumbent: %d "
                         "outcome: %s W/L/D: %s llr: %.3f bounds: %s\n"
                         % (number, number - 1, tests["challenger"], tests["incumbent"],
                            result, wld(record), record.llr, bounds(record.settings)))
            stream.flush()
    return None


@contextlib.contextmanager
def sigterm_deferred():
    """Hold SIGTERM back while the block runs; it is handled right after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="the tester file that challenges")
    parser.add_argument("--incumbent", required=True, help="the tester file to beat")
    parser.add_argument("--state", required=True,
                        help="the state file: created if missing, resumed if present")
    parser.add_argument("--seed", help="the instances' seed (any string; default: a random one)")
    sprt.add_options(parser)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)
    try:
        return run(args)
    except Stopped:
        sys.stderr.write("compare: stopped by SIGTERM; the state file resumes the run\n")
        return 143


def run(args):
    """The command after its options are parsed: the exit status."""
    try:
        for role in ROLES:
            if not os.path.isfile(getattr(args, role)):
                raise UsageError("--%s %r is not a file" % (role, getattr(args, role)))
        if not os.path.isdir(os.path.dirname(os.path.abspath(args.state))):
            raise UsageError("--state %r is not in an existing folder" % args.state)
        testers = {role: digest(getattr(args, role)) for role in ROLES}
        data, settings, record = open_state(args, testers)
    except UsageError as e:
        sys.stderr.write("compare: %s\n" % e)
        return 2
    if record.decision == sprt.CONTINUE:
        if record.comparisons:
            sys.stderr.write("compare: resuming %s at comparison %d, W/L/D %s\n"
                             % (args.state, record.comparisons + 1, wld(record)))
        try:
            finds = {role: load_tester(getattr(args, role), role) for role in ROLES}
        except Failure as failure:
            print("error: %s: %s" % (failure.kind, failure.message))
            return 1
        failure = compare(data, record, finds, state=args.state)
        if failure is not None:
            print("error: %s: %s" % (failure.kind, failure.message))
            print("comparisons: %d" % record.comparisons)
            return 1
    print("\n".join(summary_lines(record, state=args.state)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
