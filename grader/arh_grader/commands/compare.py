"""Compare two testers on fresh instances until the sequential test decides
whether the challenger beats the incumbent: the run of any problem, its
rules (what an instance is, a tester's play, the outcome and the score
difference, what makes a challenger suspect) its Problem's comparison(),
an arh_grader.compare.rules.Rules.

Comparison k plays item k - 1 of the seed on both testers, each as the
rules' contender() runs it: by default in a worker of its own
(arh_grader.contender), frozen while the other plays, its calls going to
the oracle served here, counted as in a local run. The
default test, `--test mean` (compare/betting.py), decides on the mean
score difference; `--test sign` (compare/sprt.py) on wins, losses and
draws. The state file (compare/state.py) is locked while a run uses it and
written after every comparison, so a killed run started again goes on
where it stopped, after a few of its comparisons are played again. With
--log the decision appends a row to a results file (compare/log.py).

One progress line a comparison goes to stderr; the decision goes to stdout
as `key: value` lines, the last of them, after a near-zero reject of the
mean test, the `cost_to_decide` lines of compare/cost.py: what deciding
it at a smaller --delta would cost, and the options to run that with.
Exit status: 0 once decided (whatever the decision), 1 when a tester
fails (an exception, a wrong answer, the cap, or a failed run given as
--sample-result: then nothing is compared), 2 for bad usage or a state
file that cannot be used, 130 after Ctrl-C and 143 after SIGTERM (both
keep the state file, and say whether one exists).
"""

import argparse
import contextlib
import math
import os
import secrets
import sys

from .. import engine, integrity, stopping
from ..compare import betting
from ..compare import cost as compare_cost
from ..compare import log as compare_log
from ..compare import settings as test_settings
from ..compare import sprt
from ..compare import state as compare_state
from ..compare.log import UsageError
from ..contender import TesterChanged, sha256_of


def main(problem, argv=None, *, doc=None):
    """Parse `argv` and run the comparison of `problem`: the exit status."""
    rules = problem.comparison()
    if rules is None:
        sys.stderr.write("compare: %s has no comparison (Problem.comparison)\n"
                         % type(problem).__name__)
        return 2
    parser = argparse.ArgumentParser(description=(doc or __doc__).split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="the tester file that challenges")
    parser.add_argument("--incumbent", required=True, help="the tester file to beat")
    rules.add_options(parser)
    parser.add_argument("--state", required=True,
                        help="the state file: created if missing, resumed if present")
    parser.add_argument("--seed", help=rules.help("seed"))
    parser.add_argument("--instance-timeout", type=rules.TIMEOUT_TYPE, metavar="SECONDS",
                        help=rules.help("instance_timeout"))
    parser.add_argument("--log", metavar="FILE", help="append this run's decision to FILE (TSV)")
    parser.add_argument("--description", help="the log row's description of the change")
    parser.add_argument("--sample-result", metavar="RESULT", help=rules.help("sample_result"))
    test_settings.add_options(parser)
    args = parser.parse_args(argv)
    rules.parsed(parser, args)
    with stopping.handled():
        return guarded(problem, rules, args)


def guarded(problem, rules, args):
    """run(...), the line of a usage error, and the one line and exit
    status of a stop."""
    try:
        return run(problem, rules, args)
    except (UsageError, sprt.StateError) as e:
        sys.stderr.write("compare: %s\n" % e)
        return 2
    except stopping.Stopped as stop:
        name, status = stopping.SIGNALS[stop.signum]
        sys.stderr.write(compare_state.stopped_line(name, args.state) + "\n")
        return status


def options(problem, rules, args):
    """(settings, instance timeout, sample result or None); UsageError."""
    try:
        settings = test_settings.settings_of(args)
    except ValueError as e:             # the test modules' SettingsError too
        raise UsageError(str(e)) from None
    if args.seed in rules.PUBLIC_SEEDS:
        raise UsageError("--seed %r is %s: %s; give another seed, or none for a fresh "
                         "random one" % (args.seed, rules.PUBLIC_SEEDS[args.seed], rules.PUBLIC))
    for role in rules.roles(args):
        if not os.path.isfile(getattr(args, role)):
            raise UsageError("--%s %r is not a file" % (role, getattr(args, role)))
    for option, path in (("--state", args.state), ("--log", args.log)):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise UsageError("%s %r is not in an existing folder" % (option, path))
    timeout = args.instance_timeout
    if timeout is None:
        timeout = problem.settings().instance_timeout_s
    if not (math.isfinite(timeout) and timeout > 0):
        raise UsageError("--instance-timeout must be a positive number of seconds, got %r"
                         % timeout)
    compare_log.check_header(args.log)
    sample = (None if args.sample_result is None else compare_log.read_sample_result(
        args.sample_result, key=problem.SCORE_NAME, command=rules.local()))
    return settings, timeout, sample


def run(problem, rules, args):
    """The command after its options are parsed: the exit status."""
    settings, timeout, sample = options(problem, rules, args)
    if sample is not None and sample["status"] != "valid":
        return sample_failed(args, settings, sample)
    roles = rules.roles(args)
    testers = {role: sha256_of(getattr(args, role)) for role in roles}
    with compare_state.Lock(args.state):
        data, record = compare_state.load(args.state), None
        if data is not None:
            settings, record = rules.check(args.state, data, settings=settings,
                                           seed=args.seed, testers=testers)
        run_settings = problem.settings().replace(instance_timeout_s=timeout)
        with engine.serving(settings=run_settings) as oracle, contextlib.ExitStack() as stack:
            contenders = {role: stack.enter_context(rules.contender(
                getattr(args, role), role=role, oracle=oracle,
                private=(args.state, args.log, args.sample_result),
                start_timeout=run_settings.worker_start_timeout_s))
                for role in roles}
            return take_up(problem, rules, args, data, settings, record, testers, contenders,
                           timeout=timeout, sample=sample)


def sample_failed(args, settings, sample):
    """A challenger whose sample run failed is not compared: its error
    lines, and with --log a `crash` row; exit status 1."""
    print("error: the sample result %s is invalid (kind: %s): nothing compared"
          % (args.sample_result, sample.get("kind")))
    print("comparisons: 0")
    if args.log:
        compare_log.log_decision(args, settings.record(), [], mmi=None, sample=sample,
                                 failed=True)
    return 1


def wld(rules, comparisons):
    """W/L/D of the entries so far."""
    return compare_log.wld(None, outcomes=[rules.outcome(entry) for entry in comparisons])


def compare(rules, data, record, contenders, *, state, timeout, stream=None):
    """Run comparisons until the verdict is not `continue`, saving `data`
    after each; None, or the `error:` text of a tester that failed."""
    stream = sys.stderr if stream is None else stream     # at the call: redirectable
    seed, comparisons = data["seed"], data["comparisons"]
    while rules.verdict(record, comparisons)[0] == sprt.CONTINUE:
        index = len(comparisons)
        item, plays = rules.draw(seed, index), {}
        for role, contender in contenders.items():
            session, failure = contender.run(index, item, timeout=timeout)
            if failure is not None and failure.kind != "timeout":
                return rules.failure_text(seed, index, item, role, failure)
            plays[role] = None if failure is not None else rules.play(session)
            escaped = still_frozen(contenders, role, index)
            if escaped is not None:
                return rules.failure_text(seed, index, item, *escaped)
        entry = rules.entry(item, plays)
        with stopping.deferred():           # saved and reported, or neither
            rules.added(index, item, entry)
            rules.feed(record, index, entry)
            comparisons.append(entry)
            data["record"] = record.to_dict()
            data["next_comparison"] = record.comparisons + 1
            compare_state.save(state, data)
            shown = " ".join("%s: %s" % (role, "timeout" if play is None else rules.shown(play))
                             for role, play in plays.items())
            stream.write("comparison: %d %s %s outcome: %s d: %.4f W/L/D: %s %s\n"
                         % (index + 1, rules.label(index, entry), shown, rules.outcome(entry),
                            rules.difference(index, entry), wld(rules, comparisons),
                            compare_log.progress(record)))
            stream.flush()
    return None


def still_frozen(contenders, played, index):
    """After `played`'s turn at comparison `index`: (role, Failure) of the
    first other contender whose worker ran meanwhile (Contender.check_frozen),
    or None. Its own failure: a challenger that thaws itself fails as the
    challenger, never as a loss of the incumbent."""
    for role, contender in contenders.items():
        check = getattr(contender, "check_frozen", None)    # a problem's own may have none
        failure = None if role == played or check is None else check(index)
        if failure is not None:
            return role, failure
    return None


def replay(problem, rules, state, data, contenders, *, timeout, stream=None):
    """Run a few saved comparisons again (compare_state.replay_choice);
    UsageError unless every tester plays them as the file says."""
    stream = sys.stderr if stream is None else stream     # at the call: redirectable
    seed, chosen = data["seed"], compare_state.replay_choice(data["comparisons"])
    for index in chosen:
        item = rules.draw(seed, index)
        saved = rules.plays(data["comparisons"][index], list(contenders))
        for role, contender in contenders.items():
            session, failure = contender.run(index, item, timeout=timeout)
            escaped = still_frozen(contenders, role, index)
            if escaped is not None:
                raise UsageError("%s: comparison %d: %s" % (state, index + 1, rules.failure_text(
                    seed, index, item, *escaped)))
            failed = failure if failure is not None and failure.kind != "timeout" else None
            play = None if failure is not None else rules.play(session)
            if failed is not None or play != saved[role]:
                raise UsageError("%s: comparison %d does not come out again: the %s %s now, "
                                 "the file says %s. The file was changed, or a tester is not "
                                 "deterministic; start a new state file"
                                 % (state, index + 1, role,
                                    rules.replayed(seed, index, item, role, play, failed),
                                    saved[role]))
    if chosen:
        stream.write("compare: comparisons %s of %s ran again with the same %s\n"
                     % (", ".join(str(i + 1) for i in chosen), state, problem.COUNT))


def take_up(problem, rules, args, data, settings, record, testers, contenders, *, timeout,
            sample):
    """Run a checked state (or a new one when `data` is None) to its
    decision: the exit status."""
    mmi = rules.mmi()
    log_before = compare_log.fingerprint(args.log)
    outputs = [os.path.dirname(os.path.abspath(p))
               for p in (args.state, args.log, args.sample_result) if p]
    base = integrity.baseline(problem.REPOSITORY, editable=problem.EDITABLE, outputs=outputs)
    if data is None:                # saved after the first comparison, not before
        seed = args.seed if args.seed is not None else secrets.token_hex(16)
        data, record = compare_state.new(settings, seed, testers), settings.record()
    comparisons = data["comparisons"]
    for index, entry in enumerate(comparisons):
        rules.added(index, rules.draw(data["seed"], index), entry)

    def say_tampered():
        """The files outside src/ that differ, printed as local.py prints them."""
        tampered = integrity.changes(base)
        if tampered:
            print("tampered: %s\n%s" % (", ".join(tampered), integrity.WARNING))
        return tampered

    def say_walls():
        """The walls a contender went without, printed as local.py prints
        them (`walls_missing: landlock`); nothing when every one held."""
        missing = []
        for contender in contenders.values():       # a problem's own may keep none
            missing += [wall for wall in getattr(contender, "walls_missing", ())
                        if wall not in missing]
        if missing:
            print("walls_missing: %s" % ", ".join(missing))
        return missing

    def log(failed=False):
        """Say what walls are missing and what is tampered, then write the
        log's row (with --log)."""
        missing = say_walls()
        tampered = say_tampered()
        if args.log:
            for line in compare_log.log_decision(
                    args, record, comparisons, mmi=mmi, sample=sample, failed=failed,
                    verdict=rules.verdict(record, comparisons), log_before=log_before,
                    tampered=tampered, walls_missing=missing,
                    total=rules.cells(comparisons, args),
                    scores=rules.scores(comparisons)):
                print(line)

    try:
        if comparisons:
            replay(problem, rules, args.state, data, contenders, timeout=timeout)
        if rules.verdict(record, comparisons)[0] != sprt.CONTINUE:
            sys.stderr.write("compare: %s had decided already%s\n"
                             % (args.state, "; nothing logged" if args.log else ""))
            say_tampered()
        else:
            if record.comparisons:
                sys.stderr.write("compare: resuming %s at comparison %d, W/L/D %s\n"
                                 % (args.state, record.comparisons + 1,
                                    wld(rules, comparisons)))
            failure = compare(rules, data, record, contenders, state=args.state,
                              timeout=timeout)
            if failure is not None:
                print("error: %s" % failure)
                print("comparisons: %d" % record.comparisons)
                log(failed=True)
                return 1
            log()
    except TesterChanged as e:
        print("error: %s" % e)
        print("comparisons: %d" % record.comparisons)
        log(failed=True)
        return 1
    verdict = rules.verdict(record, comparisons)
    lines = compare_log.summary_lines(
        record, comparisons, state=args.state, mmi=mmi, verdict=verdict,
        scores=rules.scores(comparisons),
        outcomes=[rules.outcome(entry) for entry in comparisons])
    cost = compare_cost.lines(record, [rules.difference(k, entry) for k, entry
                                       in enumerate(comparisons)], verdict=verdict) \
        if isinstance(record, betting.MeanRecord) else []
    print("\n".join(lines + rules.lines(comparisons, args) + cost))
    return 0
