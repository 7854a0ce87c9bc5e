"""What a comparison (commands/compare.py) prints when it has decided, and
the row it adds to a results file (TSV) with --log.

    lines = log.summary_lines(record, comparisons, state=path, mmi=0.02, caps=caps)
    log.log_row("results.tsv", {"commit": "a1b2c3d", ...})

The score difference is challenger minus incumbent, per instance, of tests
over baseline: below zero the challenger makes fewer tests. A tester past
its deadline scores the cap's tests over the baseline (state.
difference), as in the mean test's decision. Its interval is the 99%
confidence sequence of betting.py on the differences clipped to
[-1, 1], valid at whatever comparison the run stopped; the mean shown is
theirs too. A row's total_gain and reference are total.py's. Entries
that are not counts with a baseline (another problem's rules) come with
their score differences and outcomes (`scores`, `outcomes`), and a problem
with no MMI gives mmi None.
"""

import hashlib
import json
import os
import subprocess

from . import betting, sprt
from ..options import UsageError  # noqa: F401  (the SDK's one error of usage: exit status 2)
from .state import outcome
from .state import scores as scores_of

LOG_FIELDS = ("commit", "decision", "comparisons", "score_difference", "relative_tests",
              "status", "total_gain", "reference", "description")


VERDICTS = ("suspect", "timeouts", "pool")    # the reasons a row's decision names


def wld(record, comparisons=None, *, outcomes=None):
    """W/L/D of a sign record, or of `outcomes` (the comparisons' WIN, LOSS
    or DRAW), or of count entries `comparisons` (either test)."""
    if outcomes is None and comparisons is None:
        return "%d/%d/%d" % (record.wins, record.losses, record.draws)
    found = [outcome(*entry[:2]) for entry in comparisons] if outcomes is None else outcomes
    return "%d/%d/%d" % tuple(found.count(k) for k in (sprt.WIN, sprt.LOSS, sprt.DRAW))


def bounds(settings):
    return "%.3f/%.3f" % (settings.lower, settings.upper)


def difference(comparisons, caps=None):
    """(mean, low, high) of the score differences (state.scores),
    low and high the 99% confidence sequence (betting.confidence_sequence);
    None when there is none."""
    return betting.confidence_sequence(scores_of(comparisons, caps))


def below_mmi(record, found, mmi):
    """True when a challenger accepted by the sign test lowers the mean
    score by less than the MMI (`found`, the score differences' `difference`).
    The mean test decides on the mean itself, down to its delta, so it has
    no such rule; nor has a problem with no MMI (`mmi` None)."""
    if mmi is None or isinstance(record, betting.MeanRecord) \
            or record.decision != sprt.ACCEPT:
        return False
    return found is None or -found[0] < mmi


def test_lines(record):
    """The lines of the test's own figures."""
    settings = record.settings
    if isinstance(record, betting.MeanRecord):
        return ["test: mean", "e_values: accept %.3g of %g, reject %.3g of %g"
                % (record.e_accept, 1 / settings.alpha, record.e_reject, 1 / settings.beta),
                "delta: %g" % settings.delta, "max_comparisons: %d" % settings.max_comparisons]
    fixed = settings.fixed_sample
    return ["test: sign", "llr: %.3f" % record.llr, "bounds: %s" % bounds(settings),
            "decisive: %d" % record.decisive, "fixed_sample: %d" % fixed,
            "of_fixed_sample: %s" % ("%.2f" % (record.decisive / fixed)
                                     if record.reason in (sprt.UPPER, sprt.LOWER) else "-")]


def progress(record):
    """The test's figures on a comparison's progress line."""
    if isinstance(record, betting.MeanRecord):
        return "e_accept: %.3g e_reject: %.3g bounds: %g/%g" % (
            record.e_accept, record.e_reject, 1 / record.settings.alpha,
            1 / record.settings.beta)
    return "llr: %.3f bounds: %s" % (record.llr, bounds(record.settings))


def summary_lines(record, comparisons, *, state, mmi, verdict=None, caps=None, scores=None,
                  outcomes=None):
    """The decision's `key: value` lines; `verdict` (decision, reason)
    overrides the record's (a suspect challenger is rejected); `caps` each
    comparison's cap, for a tester past its deadline. Another problem's
    entries come with their `scores` (the score differences, challenger
    minus incumbent) and `outcomes`; with `mmi` None, no MMI is shown."""
    decision, reason = verdict or (record.decision, record.reason)
    values = scores_of(comparisons, caps) if scores is None else scores
    found = betting.confidence_sequence(values)
    if decision == sprt.ACCEPT and below_mmi(record, found, mmi):
        decision += (" (below the MMI: the mean score falls by %.4f, less than %g)"
                     % (-found[0] if found else 0.0, mmi))
    late = [sum(entry[k] is None for entry in comparisons) for k in (0, 1)]
    return (["decision: %s" % decision, "reason: %s" % reason,
             "comparisons: %d" % record.comparisons,
             "W/L/D: %s" % wld(record, comparisons, outcomes=outcomes)]
            + test_lines(record)
            + ["score_difference: %s" % betting.text(values),
               "timeouts: challenger %d, incumbent %d" % tuple(late)]
            + ([] if mmi is None else ["mmi: %g" % mmi]) + ["state: %s" % state])


def commit_of(path):
    """`git rev-parse --short HEAD` in the folder of `path`, or "-"."""
    try:
        done = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(path)) or ".",
                               "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return "-"
    return (done.stdout.strip() or "-") if done.returncode == 0 else "-"


def log_row(path, row):
    """Append `row` (a dict of LOG_FIELDS, "-" for one left out) to the TSV
    file `path`, after a header line when the file is new or empty."""
    cells = [" ".join(str(row.get(k, "-")).split()) or "-" for k in LOG_FIELDS]
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", encoding="utf-8") as f:
        if new:
            f.write("\t".join(LOG_FIELDS) + "\n")
        f.write("\t".join(cells) + "\n")


def fingerprint(path):
    """(size, SHA-256) of the file at `path`; None when there is none."""
    if path is None or not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        data = f.read()
    return len(data), hashlib.sha256(data).hexdigest()


def not_kept(sample):
    """Why a sample result forbids `keep`: a list of words, empty when none."""
    if not sample:
        return []
    why = []
    if sample["status"] != "valid":
        why.append("invalid")
    if sample.get("suspect"):
        why.append("suspect")
    if sample.get("tampered"):
        why.append("tampered")
    if sample.get("walls_missing"):
        why.append("without walls (%s)" % ", ".join(sample["walls_missing"]))
    return why


def log_decision(args, record, comparisons, *, mmi, sample, failed=False, verdict=None,
                 log_before=None, caps=None, tampered=(), total=None, scores=None,
                 walls_missing=()):
    """Append the --log row of this run's decision (or of its failure); the
    warning lines to print (none when all is well). `verdict` (decision,
    reason) overrides the record's; `log_before` is the log's fingerprint
    when the run began: a log changed since by anything but this command
    gets no `keep`, nor does a run during which `tampered` files (outside
    src/, integrity.changes) differed from the committed ones, nor one
    whose contenders went without `walls_missing` (the walls the kernel
    refused them, sandbox.missing's words), nor one whose sample result
    names walls missing (its run's tester could read the set). `total`
    gives the row's total_gain and reference cells ("-" without it);
    `scores` and `mmi` as summary_lines takes them."""
    found = betting.confidence_sequence(scores_of(comparisons, caps) if scores is None
                                        else scores)
    decision = (verdict or (record.decision, record.reason))[0]
    warnings = []
    changed = fingerprint(args.log) != log_before
    if changed:
        warnings.append("warning: %s changed during this run, and not by compare.py: rows "
                        "in it may be forged; this run's row says discard at most"
                        % args.log)
    if failed:
        decision, status = "error", "crash"
    else:
        low = decision == sprt.ACCEPT and below_mmi(record, found, mmi)
        flags = not_kept(sample)
        said = list(flags)
        if tampered:                 # files outside src/ differ: another grader ran
            flags.append("tampered grader")
        if walls_missing:            # a tester could reach what a wall keeps from it
            flags.append("walls missing")
        for word in VERDICTS:        # a verdict's reason starts with one of them
            if verdict is not None and verdict[1].startswith(word):
                decision += "_" + word
        decision += "_below_mmi" if low else ""
        if "invalid" in flags:
            status = "crash"
        elif decision == sprt.ACCEPT and not flags and not changed:
            status = "keep"
        else:
            status = "discard"
        if said and decision.startswith(sprt.ACCEPT):
            warnings.append("warning: not kept: the sample result given is %s"
                            % " and ".join(said))
        if tampered and decision.startswith(sprt.ACCEPT):
            warnings.append("warning: not kept: files outside src/ differ from the committed "
                            "ones, so the grader that decided is not the committed one")
        if walls_missing and decision.startswith(sprt.ACCEPT):
            warnings.append("warning: not kept: the testers ran without walls the kernel "
                            "refused (%s), so either could have read the seed or changed "
                            "the other's count" % ", ".join(walls_missing))
    diff = "-" if found is None else "%.4f [%s]" % (
        found[0], "-" if found[1] is None else "%.4f, %.4f" % found[1:])
    log_row(args.log, {"commit": commit_of(args.challenger), "decision": decision,
                       "comparisons": record.comparisons, "score_difference": diff,
                       "relative_tests": "-" if sample is None or sample["relative_tests"]
                       is None else sample["relative_tests"],
                       "status": status, "description": args.description or "-",
                       **(total or {})})
    return warnings


def check_header(path):
    """UsageError unless the TSV file `path` is missing, empty, or starts
    with the header of LOG_FIELDS: a results file of an older compare.py
    (fewer columns) is not appended to."""
    if path is None or not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    with open(path, encoding="utf-8", errors="replace") as f:
        first = f.readline().rstrip("\n")
    if first != "\t".join(LOG_FIELDS):
        raise UsageError("--log %r starts with the header %r, not compare.py's %r: rename it "
                         "(its rows stay readable) and give a new file, which gets the header "
                         "by itself" % (path, first, "\t".join(LOG_FIELDS)))


def read_sample_result(path, *, key="relative_tests", command="grader/local.py"):
    """{"status", "relative_tests", "tampered", "suspect", "kind",
    "walls_missing"} of a result.json of `command`: "relative_tests" its
    `key` (the problem's SCORE_NAME), "tampered" the files it names as
    tampered and "walls_missing" the walls its worker went without ([] for
    either key it lacks), "suspect" its `suspect` (False when absent);
    UsageError naming it."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        tampered = data.get("tampered") or []
        walls = data.get("walls_missing") or []
        for name, value in (("tampered", tampered), ("walls_missing", walls)):
            if not isinstance(value, list):
                raise TypeError("its %s is %r, not a list" % (name, value))
        return {"status": data["status"], "relative_tests": data[key],
                "tampered": list(tampered), "suspect": bool(data.get("suspect")),
                "kind": data.get("kind"), "walls_missing": [str(w) for w in walls]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise UsageError("--sample-result %r is not a result.json of %s: %s"
                         % (path, command, e)) from None
