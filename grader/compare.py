"""Compare two testers on fresh instances until the sequential test decides
whether the challenger beats the incumbent.

    python3 grader/compare.py --challenger src/tester.py \\
        --incumbent old/tester.py --state compare.json [--seed S]
        [--reference platform/tester.py]
        [--log results.tsv --description TEXT --sample-result RESULT.json]
        [--instance-timeout SECONDS] [--test mean] [--alpha 0.05] [--beta 0.05]
        [--delta 0.005] [--max-comparisons 5000]
        [--test sign [--delta 0.1] [--draw-ceiling 0.85] [--draw-alpha 0.01]
                     [--min-sample 30] [--max-decisive N]]

Comparison k runs both testers on instance k - 1 of the set drawn with the
seed (grader/instances.py: `--seed S --count k` prints it last); the seed
is a fresh random one unless given, and the public sets' seeds are refused.
Its score difference d is the challenger's tests / baseline minus the
incumbent's; a tester past the instance deadline (autoresearch.toml's
instance_timeout_s) scores the cap, (2n + 64) / baseline. The default test,
`--test mean` (arh_grader/compare/betting.py), accepts once the e-process shows E[d] < 0
and rejects once the other shows E[d] > -delta, each error at most alpha
(beta) at any stopping time. `--test sign` (arh_grader/compare/sprt.py) is Wald's test
on wins (fewer tests), losses (more, or past the deadline) and draws. Either
way the summary shows W/L/D and the mean score difference with its 99%
confidence sequence, and a challenger past its deadline on
TIMEOUTS_IN_A_ROW comparisons in a row is rejected (`timeouts: ...`).
It shows too the challenger's total gain against a fixed reference (binary
splitting, or the tester file --reference names, run on the same
instances as a third contender), whether it clears the MMI, and what is
left to win above the information floor (arh_grader/compare/total.py).

Neither tester runs in this process. Each has a harness/worker.py of its
own (arh_grader.contender), frozen (every process of it stopped) while the
other is judged; its tests go over HTTP to the oracle served here, counted,
capped and checked as in a local run and on the platform. A tester past
its deadline is killed with its worker, loses that comparison, and gets a
fresh worker for the next. The cheat statistics of both testers
are kept over the comparisons (group_testing.cheat): a challenger whose
`cheat_bits` reach 20 is rejected there and then, as `suspect`, whatever
its wins. A tester file that changes during the run ends it (exit status 1).

The state file (arh_grader/compare/state.py) is locked while a run uses it and
written atomically after every comparison, so a killed run started again
with the same command goes on where it stopped. A run takes up a state file
only with the settings, seed and tester files it was started with; one
version of a tester, one state file. Taking one up runs a few of its
comparisons again, and a file whose record the testers do not reproduce is
refused.

With --log, each decision this run reaches appends one tab-separated row to
the file (a header first when the file is new): commit, decision,
comparisons, score difference, the sample's relative_tests (from
--sample-result), status (keep, discard or crash), total gain, reference
and the description; a file that starts with another header (an older
compare.py's) is refused, exit status 2. A
row says `keep` only for an accepted challenger that is not suspect, whose
gain clears the MMI, whose sample result is valid, not suspect and not
`tampered`, and when the log file was not changed by anyone else during
the run.

One progress line a comparison goes to stderr; the decision goes to stdout
as `key: value` lines. Exit status: 0 once decided (whatever the decision),
1 when a tester fails (a wrong answer, an exception, the cap; the instance
is named), 2 for bad usage or a state file that cannot be used, 130 after
Ctrl-C and 143 after SIGTERM (both keep the state file, and say whether one
exists).
"""

import argparse
import contextlib
import math
import os
import secrets
import sys

from arh_grader import engine, integrity, stopping
from arh_grader.compare import log as compare_log
from arh_grader.compare import settings as test_settings
from arh_grader.compare import sprt
from arh_grader.compare import state as compare_state
from arh_grader.compare import total as compare_total
from arh_grader.compare.log import UsageError
from arh_grader.compare.state import REFERENCE, ROLES
from arh_grader.contender import Contender, TesterChanged, sha256_of
from group_testing import instances, problem
from group_testing.comparison import Watch, baseline_and_cap
from group_testing.plugin import PROBLEM

WORKER = PROBLEM.WORKER
POSITION = {"challenger": 0, "incumbent": 1, REFERENCE: 3}    # of a role's tests in an entry
PUBLIC_SEEDS = {instances.SAMPLE_SEED: "the public sample's seed",
                "group-testing-500": "the seed of the 500-instance set (grader/headroom.py)"}


def mmi_setting():
    """The MMI of autoresearch.toml's [metric] (absolute, in relative_tests)."""
    return float(PROBLEM.table("metric")["mmi"])


# ---- one tester on one instance -----------------------------------------

def run_one(contender, index, instance, *, timeout):
    """(tests, None) for a tester that answered right, (None, None) for one
    past the deadline, (tests, Failure) for one that failed."""
    session, failure = contender.run(index, instance, timeout=timeout)
    if failure is not None and failure.kind == "timeout":
        return None, None
    return session.tests, failure


# ---- the run ---------------------------------------------------------------

def compare(data, record, contenders, watch, *, state, timeout, stream=None):
    """Run comparisons until `record` decides or the challenger is suspect,
    saving `data` after each; None, or the Failure that ended the run (its
    message names the comparison)."""
    stream = sys.stderr if stream is None else stream     # at the call: redirectable
    seed = data["seed"]
    while watch.verdict(record)[0] == sprt.CONTINUE:
        number = record.comparisons + 1
        instance = instances.draw_instance(seed, number - 1)
        tests = {}
        for role in contenders:
            tests[role], failure = run_one(contenders[role], number - 1, instance,
                                           timeout=timeout)
            if failure is not None:
                failure.message = ("comparison %d (instance index %d of seed %r, n=%d, "
                                   "family %s): the %s failed: %s"
                                   % (number, number - 1, seed, instance["n"],
                                      instance["family"], role, failure.message))
                failure.index = number - 1
                return failure
        result = compare_state.outcome(tests["challenger"], tests["incumbent"])
        entry = [tests["challenger"], tests["incumbent"], instance["baseline"]] + [
            tests[role] for role in contenders if role == REFERENCE]
        with stopping.deferred():           # saved and reported, or neither
            compare_state.feed(record, entry, problem.cap(instance["n"]))
            watch.add(instance, (tests["challenger"], tests["incumbent"]))
            data["comparisons"].append(entry)
            data["record"] = record.to_dict()
            data["next_comparison"] = record.comparisons + 1
            compare_state.save(state, data)
            shown = " ".join("%s: %s" % (r, "timeout" if tests[r] is None else tests[r])
                             for r in contenders)
            stream.write("comparison: %d instance: %d %s outcome: %s d: %.4f W/L/D: %s %s\n"
                         % (number, number - 1, shown, result,
                            compare_state.difference(entry, watch.caps[-1]),
                            compare_log.wld(record, data["comparisons"]),
                            compare_log.progress(record)))
            stream.flush()
    return None


def replay(state, data, contenders, *, timeout, stream=None):
    """Run a few saved comparisons again (compare_state.replay_choice);
    UsageError unless every tester makes the tests the file says."""
    stream = sys.stderr if stream is None else stream     # at the call: redirectable
    chosen = compare_state.replay_choice(data["comparisons"])
    for index in chosen:
        instance = instances.draw_instance(data["seed"], index)
        for role, k in ((role, POSITION[role]) for role in contenders):
            tests, failure = run_one(contenders[role], index, instance, timeout=timeout)
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


def watch_of(data):
    """The cheat statistics of a state's comparisons so far."""
    watch = Watch()
    for index, entry in enumerate(data["comparisons"]):
        watch.add(instances.draw_instance(data["seed"], index), entry[:2])
    return watch


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="the tester file that challenges")
    parser.add_argument("--incumbent", required=True, help="the tester file to beat")
    parser.add_argument("--reference", metavar="TESTER",
                        help="the tester the total gain is against, run on the same instances "
                             "(the platform's incumbent; default: binary splitting, no run)")
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
    test_settings.add_options(parser)
    args = parser.parse_args(argv)
    with stopping.handled():
        return guarded(args)


def guarded(args):
    """run(args), and the one line and exit status of a stop."""
    try:
        return run(args)
    except stopping.Stopped as stop:
        name, status = stopping.SIGNALS[stop.signum]
        sys.stderr.write(compare_state.stopped_line(name, args.state) + "\n")
        return status


def options(args):
    """(settings, instance timeout, sample result or None); UsageError."""
    try:
        settings = test_settings.settings_of(args)
    except ValueError as e:             # the test modules' SettingsError too
        raise UsageError(str(e)) from None
    if args.seed in PUBLIC_SEEDS:
        raise UsageError("--seed %r is %s: its instances are public, and a tester may know "
                         "them; give another seed, or none for a fresh random one"
                         % (args.seed, PUBLIC_SEEDS[args.seed]))
    for role in ROLES + ((REFERENCE,) if args.reference else ()):
        if not os.path.isfile(getattr(args, role)):
            raise UsageError("--%s %r is not a file" % (role, getattr(args, role)))
    for option, path in (("--state", args.state), ("--log", args.log)):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise UsageError("%s %r is not in an existing folder" % (option, path))
    timeout = args.instance_timeout
    if timeout is None:
        timeout = PROBLEM.settings().instance_timeout_s
    if not (math.isfinite(timeout) and timeout > 0):
        raise UsageError("--instance-timeout must be a positive number of seconds, got %r"
                         % timeout)
    compare_log.check_header(args.log)
    sample = (None if args.sample_result is None
              else compare_log.read_sample_result(args.sample_result))
    return settings, timeout, sample


def run(args):
    """The command after its options are parsed: the exit status."""
    try:
        settings, timeout, sample = options(args)
        roles = ROLES + ((REFERENCE,) if args.reference else ())
        testers = {role: sha256_of(getattr(args, role)) for role in roles}
        with compare_state.Lock(args.state):
            data = compare_state.load(args.state)
            if data is not None:
                settings, record = compare_state.check(args.state, data, settings=settings,
                                                       seed=args.seed, testers=testers,
                                                       instance=baseline_and_cap)
            run_settings = PROBLEM.settings().replace(instance_timeout_s=timeout)
            with engine.serving(settings=run_settings) as oracle, \
                    contextlib.ExitStack() as stack:
                contenders = {role: stack.enter_context(Contender(
                    getattr(args, role), role=role, problem=PROBLEM, oracle=oracle,
                    private=(args.state, args.log, args.sample_result),
                    start_timeout=run_settings.worker_start_timeout_s))
                    for role in roles}
                return take_up(args, data, settings, record if data else None, testers,
                               contenders, timeout=timeout, sample=sample)
    except (UsageError, sprt.StateError) as e:
        sys.stderr.write("compare: %s\n" % e)
        return 2


def take_up(args, data, settings, record, testers, contenders, *, timeout, sample):
    """Run a checked state (or a new one when `data` is None) to its decision."""
    mmi = mmi_setting()
    log_before = compare_log.fingerprint(args.log)
    outputs = [os.path.dirname(os.path.abspath(p))
               for p in (args.state, args.log, args.sample_result) if p]
    base = integrity.baseline(PROBLEM.REPOSITORY, editable=PROBLEM.EDITABLE, outputs=outputs)
    if data is None:
        seed = args.seed if args.seed is not None else secrets.token_hex(16)
        data, record = compare_state.new(settings, seed, testers), settings.record()
        watch = Watch()             # saved after the first comparison, not before
    else:
        watch = watch_of(data)

    def say_tampered():
        """The files outside src/ that differ, printed as local.py prints them."""
        tampered = integrity.changes(base)
        if tampered:
            print("tampered: %s\n%s" % (", ".join(tampered), integrity.WARNING))
        return tampered

    def log(failed=False):
        """Say what is tampered, then write the log's row (with --log)."""
        tampered = say_tampered()
        if args.log:
            for line in compare_log.log_decision(
                    args, record, data["comparisons"], mmi=mmi, sample=sample, failed=failed,
                    verdict=watch.verdict(record), log_before=log_before,
                    caps=watch.caps, tampered=tampered, total={
                        "total_gain": compare_total.cell(compare_total.total_gain(
                            data["comparisons"], watch.caps)),
                        "reference": args.reference or compare_total.SPLITTING}):
                print(line)

    try:
        if data["comparisons"]:
            replay(args.state, data, contenders, timeout=timeout)
        if watch.verdict(record)[0] != sprt.CONTINUE:
            sys.stderr.write("compare: %s had decided already%s\n"
                             % (args.state, "; nothing logged" if args.log else ""))
            say_tampered()
        else:
            if record.comparisons:
                sys.stderr.write("compare: resuming %s at comparison %d, W/L/D %s\n"
                                 % (args.state, record.comparisons + 1,
                                    compare_log.wld(record, data["comparisons"])))
            failure = compare(data, record, contenders, watch, state=args.state,
                              timeout=timeout)
            if failure is not None:
                print("error: %s: %s" % (failure.kind, failure.message))
                print("comparisons: %d" % record.comparisons)
                log(failed=True)
                return 1
            log()
    except TesterChanged as e:
        print("error: %s" % e)
        print("comparisons: %d" % record.comparisons)
        log(failed=True)
        return 1
    print("\n".join(compare_log.summary_lines(record, data["comparisons"], state=args.state,
                                              mmi=mmi, verdict=watch.verdict(record),
                                              caps=watch.caps)))
    print("\n".join(compare_total.lines(data["comparisons"], caps=watch.caps,
                                        floors=watch.floors, mmi=mmi,
                                        reference=args.reference)))
    print("\n".join(watch.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
