"""Compare two twenty-questions testers on fresh rounds until the template's
sequential test decides whether the challenger beats the incumbent.

    python3 tq/compare.py --challenger src/tester.py \\
        --incumbent tests/testers/fixed_order.py --state compare.json [--seed S]
        [--log results.tsv --description TEXT --sample-result RESULT.json]
        [--instance-timeout SECONDS] [--test mean] [--alpha 0.05] [--beta 0.05]
        [--delta 0.005] [--max-comparisons 5000]
        [--test sign [--delta 0.1] [--draw-ceiling 0.85] [--draw-alpha 0.01]
                     [--min-sample 30] [--max-decisive N]]

Comparison k plays animal k - 1 of the whole pool in an order drawn with the
seed: a fresh random one unless given, and the public sets' seed is refused.
By default (`--test mean`, arh_grader/compare/betting.py in the SDK) each
round gives d, the incumbent's round score minus the challenger's (below 0
the challenger gains), a round past its deadline scoring 0; the betting
e-processes accept when the challenger is better on average and reject
when it does not gain `--delta`, each error at most alpha (beta) at any
stopping time. `--test sign` is Wald's test on wins, losses and draws
(arh_grader/compare/sprt.py). Neither tester plays in this process: each has a tq
worker of its own (arh_grader.contender), frozen while the other plays,
and its calls are counted by the oracle served here under this problem's
policy, as in a local run. A challenger whose saved bits over its rounds
reach 20 (an honest tester does so with probability at most 2**-20) is
rejected there and then as suspect; one past its deadline on 3 rounds in a
row is rejected (`timeouts: ...`), and one that has played the whole pool
without a decision too (`pool: ...`). The decision goes to stdout as `key:
value` lines, with W/L/D beside either test and `score_difference`: the
mean over rounds of the challenger's score minus the incumbent's (above 0,
the challenger is better) with its 99% confidence sequence, valid at any
stopping time. A tester still playing a round at the deadline
(autoresearch.toml's instance_timeout_s, or --instance-timeout) loses that
comparison, scoring 0, and `timeouts` counts them.

The state file is the SDK's (arh_grader/compare/state.py, with this
problem's entries: [challenger, incumbent, animal], each tester's [calls,
found] or null past its deadline): locked while a run uses it and written
atomically after every comparison, so a killed run started again with the
same command goes on where it stopped. It is taken up only with the
settings, seed and tester files it was started with, after a few of its
comparisons are played again with the same calls. With --log, each decision
appends a row to a results file, group testing's columns
(arh_grader/compare/log.py): its `relative_tests` holds the sample's
`mean_score` (from --sample-result, a tq/local.py result.json), and its
status is `keep` only for an accepted challenger, not suspect, whose sample
run is valid, not suspect and not tampered, with no file outside src/
changed and the log changed by nothing else during the run.

Exit status: 0 once decided, 1 when a tester fails (an exception, a bad
call), 2 for bad usage or a state file that cannot be used, 130 after Ctrl-C
and 143 after SIGTERM (both keep the state file).
"""

import argparse
import contextlib
import os
import secrets
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPOSITORY = os.path.normpath(os.path.join(PROJECT, os.pardir, os.pardir))
ROOT_GRADER = os.path.join(REPOSITORY, "grader")
sys.path[:0] = [p for p in (ROOT_GRADER, PROJECT) if p not in sys.path]   # the SDK's grader/, tq

from arh_grader import engine, integrity, options, stopping  # noqa: E402
from arh_grader.compare import log as compare_log  # noqa: E402  (the SDK's results file)
from arh_grader.compare import settings as test_settings  # noqa: E402  (--test and its settings)
from arh_grader.compare import sprt  # noqa: E402  (the SDK's sign test)
from arh_grader.compare import state as compare_state  # noqa: E402  (the SDK's state file)
from arh_grader.compare.log import UsageError  # noqa: E402
from arh_grader.compare.state import ROLES  # noqa: E402
from arh_grader.contender import Contender, TesterChanged, sha256_of  # noqa: E402

from tq import sets  # noqa: E402
from tq.comparison import (PROBLEM, Rules, TesterError, difference, log_decision,  # noqa: E402
                           order_of, outcome, read_sample_result, round_score,
                           summary_lines, verdict, wld)

WORKER = PROBLEM.WORKER
EDITABLE = (os.path.join(PROJECT, "src"),)     # autoresearch.toml's [project] editable
PUBLIC_SEEDS = {sets.PUBLIC_SEED: "the seed of the public sets (sample/dev.jsonl, "
                                  "sample/test.jsonl)"}


def play_round(contender, index, animal, *, timeout):
    """The tester's [calls, found] on `animal`, or None when it ran past
    `timeout` seconds; TesterError when it failed otherwise."""
    session, failure = contender.run(index, {"animal": animal}, timeout=timeout)
    if failure is not None:
        if failure.kind == "timeout":
            return None
        raise TesterError("comparison %d (animal %d): the %s failed: %s: %s"
                          % (index + 1, animal, contender.role, failure.kind, failure.message))
    return [session.tests, bool(session.ended_by_answer)]


def compare(saved, record, contenders, *, state, timeout, stream=None):
    """Play rounds until the verdict is not `continue`, saving the state
    `saved` after each."""
    stream = sys.stderr if stream is None else stream     # at the call: redirectable
    order, comparisons = order_of(saved["seed"]), saved["comparisons"]
    while verdict(record, comparisons)[0] == sprt.CONTINUE:
        index = len(comparisons)
        plays = [play_round(contenders[role], index, order[index], timeout=timeout)
                 for role in ROLES]
        entry = plays + [order[index]]
        with stopping.deferred():           # saved and reported, or neither
            Rules.feed(record, entry)
            comparisons.append(entry)
            saved["record"] = record.to_dict()
            saved["next_comparison"] = record.comparisons + 1
            compare_state.save(state, saved)
            shown = ["timeout" if p is None else "%.2f" % round_score(p) for p in plays]
            stream.write("comparison: %d animal: %d challenger: %s incumbent: %s outcome: %s "
                         "d: %.4f W/L/D: %s %s\n"
                         % (index + 1, order[index], *shown, outcome(*plays),
                            difference(entry), wld(comparisons), compare_log.progress(record)))
            stream.flush()


def replay(state, saved, contenders, *, timeout, stream=None):
    """Play a few saved comparisons again (compare_state.replay_choice);
    UsageError unless both testers play them as the file says."""
    stream = sys.stderr if stream is None else stream     # at the call: redirectable
    chosen = compare_state.replay_choice(saved["comparisons"])
    for index in chosen:
        entry = saved["comparisons"][index]
        for k, role in enumerate(ROLES):
            try:
                now = play_round(contenders[role], index, entry[2], timeout=timeout)
            except TesterError as e:
                now = str(e)
            if now != entry[k]:
                raise UsageError("%s: comparison %d does not come out again: the %s plays %s "
                                 "now, the file says %s. The file was changed, or a tester "
                                 "is not deterministic; start a new state file"
                                 % (state, index + 1, role, now, entry[k]))
    if chosen:
        stream.write("compare: comparisons %s of %s ran again with the same calls\n"
                     % (", ".join(str(i + 1) for i in chosen), state))


def take_up(args, saved, settings, record, contenders, *, testers, timeout, sample):
    """Run a checked state (or a new one when `saved` is None) to its
    decision: the exit status."""
    log_before = compare_log.fingerprint(args.log)
    outputs = [os.path.dirname(os.path.abspath(p))
               for p in (args.state, args.log, args.sample_result) if p]
    base = integrity.baseline(REPOSITORY, editable=EDITABLE, outputs=outputs)
    if saved is None:
        seed = args.seed if args.seed is not None else secrets.token_hex(16)
        saved, record = compare_state.new(settings, seed, testers), settings.record()

    def finish(failed=False, log=True):
        """Say what is tampered, then write the log's row (with --log)."""
        tampered = integrity.changes(base)
        if tampered:
            print("tampered: %s\n%s" % (", ".join(tampered), integrity.WARNING))
        if args.log and log:
            for line in log_decision(args, record, saved["comparisons"], sample=sample,
                                     failed=failed, log_before=log_before, tampered=tampered):
                print(line)

    try:
        if saved["comparisons"]:
            replay(args.state, saved, contenders, timeout=timeout)
        if verdict(record, saved["comparisons"])[0] != sprt.CONTINUE:
            sys.stderr.write("compare: %s had decided already%s\n"
                             % (args.state, "; nothing logged" if args.log else ""))
            finish(log=False)
        else:
            if record.comparisons:
                sys.stderr.write("compare: resuming %s at comparison %d, W/L/D %s\n"
                                 % (args.state, record.comparisons + 1,
                                    wld(saved["comparisons"])))
            compare(saved, record, contenders, state=args.state, timeout=timeout)
            finish()
    except (TesterError, TesterChanged) as e:
        print("error: %s" % e)
        print("comparisons: %d" % record.comparisons)
        finish(failed=True)
        return 1
    print("\n".join(summary_lines(record, saved["comparisons"], state=args.state)))
    return 0


def run(args):
    """The command after its options are checked: the exit status."""
    try:
        settings = test_settings.settings_of(args)
    except ValueError as e:             # the test modules' SettingsError too
        raise UsageError(str(e)) from None
    if args.seed in PUBLIC_SEEDS:
        raise UsageError("--seed %r is %s: its order is public, and a tester may know it; "
                         "give another seed, or none for a fresh random one"
                         % (args.seed, PUBLIC_SEEDS[args.seed]))
    for option, path in (("--state", args.state), ("--log", args.log)):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise UsageError("%s %r is not in an existing folder" % (option, path))
    sample = None if args.sample_result is None else read_sample_result(args.sample_result)
    run_settings = PROBLEM.settings().replace(instance_timeout_s=args.instance_timeout)
    timeout = run_settings.instance_timeout_s
    testers = {role: sha256_of(getattr(args, role)) for role in ROLES}
    with compare_state.Lock(args.state):
        saved = compare_state.load(args.state)
        record = None
        if saved is not None:
            settings, record = compare_state.check(args.state, saved, settings=settings,
                                                   seed=args.seed, testers=testers,
                                                   rules=Rules)
        with engine.serving(settings=run_settings) as oracle, contextlib.ExitStack() as stack:
            contenders = {role: stack.enter_context(Contender(
                getattr(args, role), role=role, problem=PROBLEM,
                oracle=oracle, private=(args.state, args.log, args.sample_result),
                start_timeout=run_settings.worker_start_timeout_s))
                for role in ROLES}
            return take_up(args, saved, settings, record, contenders, testers=testers,
                           timeout=timeout, sample=sample)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--challenger", required=True, help="the tester file that challenges")
    parser.add_argument("--incumbent", required=True, help="the tester file to beat")
    parser.add_argument("--state", required=True,
                        help="the state file: created if missing, resumed if present")
    parser.add_argument("--seed", help="the rounds' order (any string; default: a random one)")
    parser.add_argument("--instance-timeout", type=options.positive(float), metavar="SECONDS",
                        help="each tester's deadline on a round (default: autoresearch.toml)")
    parser.add_argument("--log", metavar="FILE", help="append this run's decision to FILE (TSV)")
    parser.add_argument("--description", help="the log row's description of the change")
    parser.add_argument("--sample-result", metavar="RESULT",
                        help="a tq/local.py result.json whose mean_score and status go in "
                             "the log row")
    test_settings.add_options(parser)
    args = parser.parse_args(argv)
    for option, path in (("--challenger", args.challenger), ("--incumbent", args.incumbent)):
        if not os.path.isfile(path):
            parser.error("%s %r is not a file" % (option, path))
    with stopping.handled():
        return guarded(args)


def guarded(args):
    """run(args), and the one line and exit status of a stop."""
    try:
        return run(args)
    except (UsageError, sprt.StateError) as e:
        sys.stderr.write("compare: %s\n" % e)
        return 2
    except stopping.Stopped as stop:
        name, status = stopping.SIGNALS[stop.signum]
        sys.stderr.write(compare_state.stopped_line(name, args.state) + "\n")
        return status


if __name__ == "__main__":
    sys.exit(main())
