"""Twenty questions' comparison, its problem's part: the rounds' order, an
entry's outcome and score difference, the entries' rules for the
SDK's state file (arh_grader/compare/state.py), the verdict, the summary,
and the row it adds to a results file (arh_grader/compare/log.py's columns and
writer). tq/compare.py runs the comparison.

An entry is [challenger, incumbent, animal], each tester's [calls, found],
or null for a tester past its deadline, which scores 0.
"""

import functools
import json
import types

from arh_grader.compare import betting  # the SDK's mean test
from arh_grader.compare import log as compare_log  # the SDK's results file
from arh_grader.compare import sprt  # the SDK's sign test
from arh_grader.compare import state as compare_state  # the SDK's state file
from arh_grader.compare.log import UsageError

from tq import data, score, sets
from tq.plugin import PROBLEM  # noqa: F401  (the whole pool: a comparison plays it all)


class TesterError(Exception):
    """A tester that failed a round otherwise than by its deadline."""


@functools.lru_cache(maxsize=8)
def order_of(seed):
    """The animals in the order comparisons play them with `seed`."""
    return sets.ordered("compare/%s" % seed, range(data.ANIMALS))


def round_score(play):
    """The score of a tester's [calls, found], None (past its deadline) 0."""
    return 0.0 if play is None else score.round_score(play[1], play[0])


def outcome(challenger, incumbent):
    """The challenger's outcome from both testers' plays: the higher score
    wins, a round past its deadline loses (two such rounds draw)."""
    if challenger is None or incumbent is None:
        return sprt.DRAW if challenger is incumbent else \
            sprt.LOSS if challenger is None else sprt.WIN
    mine, theirs = round_score(challenger), round_score(incumbent)
    return sprt.WIN if mine > theirs else sprt.LOSS if mine < theirs else sprt.DRAW


def difference(entry):
    """The mean test's d of an entry: the incumbent's score minus the
    challenger's (d below 0 is the challenger's gain)."""
    return round_score(entry[1]) - round_score(entry[0])


class Rules:
    """This problem's entries for compare_state.check and tally."""

    @staticmethod
    def bad_entry(seed, index, entry):
        def is_play(x):
            return (type(x) is list and len(x) == 2 and type(x[0]) is int
                    and type(x[1]) is bool and x[1] <= x[0] <= score.BUDGET)
        if type(entry) is not list or len(entry) != 3 \
                or not all(x is None or is_play(x) for x in entry[:2]):
            return ("it must be [challenger, incumbent, animal], each tester's [calls, found] "
                    "(0..%d calls) or null" % score.BUDGET)
        order = order_of(seed)
        if index >= len(order) or entry[2] != order[index]:
            return ("it is not round %d of the seed %r, whose animal is %s" % (
                index, seed, order[index] if index < len(order) else "none"))
        return None

    @staticmethod
    def feed(record, entry):
        return record.add(outcome(*entry[:2]) if isinstance(record, sprt.WinRecord)
                          else difference(entry))


def wld(comparisons):
    found = [outcome(*entry[:2]) for entry in comparisons]
    return "%d/%d/%d" % tuple(found.count(k) for k in (sprt.WIN, sprt.LOSS, sprt.DRAW))


def gains(comparisons):
    """Each round's challenger score minus the incumbent's."""
    return [-difference(entry) for entry in comparisons]


def verdict(record, comparisons):
    """(decision, reason): the record's, unless the challenger is suspect,
    passed its deadline 3 times in a row, or played the whole pool."""
    entries = [PROBLEM.entry(k, None, types.SimpleNamespace(
        ended_by_answer=e[0][1], tests=e[0][0], digest=None))
        for k, e in enumerate(comparisons) if e[0] is not None]
    found = PROBLEM.summary(entries)
    if found["suspect"]:
        return sprt.REJECT, ("suspect: the challenger saved %.1f bits below the information "
                             "its rounds hold" % found["saved_bits"])
    late = compare_state.late_in_a_row(comparisons)
    if record.decision == sprt.CONTINUE and late >= compare_state.TIMEOUTS_IN_A_ROW:
        return sprt.REJECT, ("timeouts: the challenger passed its deadline on %d "
                             "comparisons in a row" % late)
    if record.decision == sprt.CONTINUE and len(comparisons) >= data.ANIMALS:
        return sprt.REJECT, "pool: all %d animals played, and no decision" % data.ANIMALS
    return record.decision, record.reason


def read_sample_result(path):
    """{"status", "relative_tests" (its mean_score), "tampered", "suspect"}
    of a tq/local.py result.json, as compare_log.not_kept reads it."""
    try:
        with open(path, encoding="utf-8") as f:
            found = json.load(f)
        if not isinstance(found.get("tampered") or [], list):
            raise TypeError("its tampered is %r, not a list" % (found["tampered"],))
        return {"status": found["status"], "relative_tests": found["mean_score"],
                "tampered": list(found.get("tampered") or []),
                "suspect": bool(found.get("suspect"))}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise UsageError("--sample-result %r is not a result.json of tq/local.py: %s"
                         % (path, e)) from None


def log_decision(args, record, comparisons, *, sample, failed, log_before, tampered):
    """Append this run's row to --log (compare_log's columns and writer);
    the warning lines to print."""
    decision, reason = verdict(record, comparisons)
    changed = compare_log.fingerprint(args.log) != log_before
    warnings = (["warning: %s changed during this run, and not by compare.py: rows in it may "
                 "be forged; this run's row says discard at most" % args.log]
                if changed else [])
    if failed:
        decision, status = "error", "crash"
    else:
        flags = compare_log.not_kept(sample)
        for word in ("suspect", "timeouts", "pool"):
            decision += "_" + word if reason.startswith(word + ":") else ""
        status = ("crash" if "invalid" in flags else "keep"
                  if decision == sprt.ACCEPT and not flags and not tampered and not changed
                  else "discard")
        if decision == sprt.ACCEPT and flags:
            warnings.append("warning: not kept: the sample result given is %s"
                            % " and ".join(flags))
        if decision == sprt.ACCEPT and tampered:
            warnings.append("warning: not kept: files outside src/ differ from the committed "
                            "ones, so the grader that decided is not the committed one")
    found = betting.confidence_sequence(gains(comparisons))
    compare_log.log_row(args.log, {
        "commit": compare_log.commit_of(args.challenger), "decision": decision,
        "comparisons": record.comparisons, "status": status,
        "score_difference": "-" if found is None else "%.4f [%s]" % (
            found[0], "-" if found[1] is None else "%.4f, %.4f" % found[1:]),
        "relative_tests": sample["relative_tests"] if sample else "-",
        "description": args.description or "-"})
    return warnings


def summary_lines(record, comparisons, *, state):
    decision, reason = verdict(record, comparisons)
    return (["decision: %s" % decision, "reason: %s" % reason,
             "comparisons: %d" % record.comparisons, "W/L/D: %s" % wld(comparisons)]
            + compare_log.test_lines(record)
            + ["score_difference: %s" % betting.text(gains(comparisons)),
               "timeouts: challenger %d, incumbent %d"
               % tuple(sum(e[k] is None for e in comparisons) for k in (0, 1)),
               "state: %s" % state])
