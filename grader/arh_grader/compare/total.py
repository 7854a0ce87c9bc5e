"""The total of a grader/compare.py run: the challenger against a fixed
reference, and what is left to win, over the same comparisons.

    total.total_gain(comparisons, caps)          # (mean, low, high) or None
    total.left_to_win(comparisons, caps, floors)
    total.clears_mmi(found, mmi)                 # YES, NO or NOT_YET
    total.lines(comparisons, caps=caps, floors=floors, mmi=0.02)

The sequential test decides on one step, challenger against incumbent; the
platform asks whether the sum of the steps beats its own incumbent by the
MMI. The total gain is, per comparison, the challenger's score (tests /
baseline; the cap's tests past the deadline) minus the reference's: binary
splitting's, exactly 1 on every instance since the baseline is its tests,
unless --reference names a tester file (the platform's incumbent), which
then runs on the same instances (the fourth value of a state's entry).
Below zero the challenger makes fewer tests. It clears the MMI when the
whole interval is below -mmi, cannot when the whole interval is above it,
and is undecided otherwise. What is left to win is the challenger's score
minus the instance's information floor (its surprise over its baseline):
no tester does better on average by more than a few thousandths
(docs/scoring.md, "What it bounds, exactly"), so no change to the challenger
can gain more than about that. Each interval is the 99% confidence sequence of
betting.confidence_sequence, on the values clipped to [-1, 1], valid at
whatever comparison the run stopped.
"""

from . import betting

SPLITTING = "binary splitting"      # the default reference, and its name in results.tsv
YES, NO, NOT_YET = "yes", "no", "not yet"


def score(count, baseline, cap):
    """Tests over baseline; a tester past its deadline (None) scores the cap."""
    return (cap if count is None else count) / baseline


def gains(comparisons, caps=None):
    """Each entry's challenger score minus the reference's (1 without a
    reference tester); an entry with a timeout is left out when `caps` is
    None."""
    found = []
    for k, entry in enumerate(comparisons):
        counts = [entry[0]] + list(entry[3:])
        if caps is None and None in counts:
            continue
        cap = caps[k] if caps else None
        reference = score(entry[3], entry[2], cap) if len(entry) > 3 else 1.0
        found.append(score(entry[0], entry[2], cap) - reference)
    return found


def total_gain(comparisons, caps=None):
    """(mean, low, high) of `gains`, or None when there is none."""
    return betting.confidence_sequence(gains(comparisons, caps))


def left_to_win(comparisons, caps, floors):
    """(mean, low, high) of the challenger's score minus each instance's
    information floor (`floors`, by entry), or None."""
    return betting.confidence_sequence([score(entry[0], entry[2], caps[k]) - floors[k]
                                        for k, entry in enumerate(comparisons)])


def cell(found):
    """"MEAN [LOW, HIGH]" (results.tsv's form), or "-"."""
    return "-" if found is None else "%.4f [%.4f, %.4f]" % found


def clears_mmi(found, mmi):
    """YES when the whole interval of a total gain is below -mmi, NO when it
    is all above, NOT_YET otherwise (or with no comparison)."""
    if found is None:
        return NOT_YET
    if found[2] < -mmi:
        return YES
    return NO if found[1] > -mmi else NOT_YET


def lines(comparisons, *, caps, floors, mmi, reference=None):
    """The summary's `key: value` lines of the total; `reference` the
    reference tester's path, None for binary splitting."""
    total, left = total_gain(comparisons, caps), left_to_win(comparisons, caps, floors)
    against = "binary splitting" if reference is None else "the reference %s" % reference
    says = {YES: "yes (the whole interval is below -%g: a gain the platform counts)",
            NO: "no (the whole interval is above -%g: this total does not beat the "
                "reference by the MMI)",
            NOT_YET: "not yet (the interval holds -%g)" if total else
                     "not yet (no comparison, so no total to set against -%g)"}
    out = ["total_gain: %s against %s (99%% confidence sequence, %d comparisons)"
           % (cell(total), against, len(comparisons)),
           "clears_mmi: %s" % (says[clears_mmi(total, mmi)] % mmi),
           "left_to_win: %s above the information floor (99%% confidence sequence)"
           % cell(left)]
    if left is not None and left[2] < mmi:
        out.append("left_vs_mmi: the whole gap left is below the MMI (%g): no further gain "
                   "over this challenger can count as a new incumbent by itself on the "
                   "platform" % mmi)
    elif left is not None and left[1] > mmi:
        out.append("left_vs_mmi: the gap left is above the MMI (%g): a tester nearer the "
                   "floor can still clear it" % mmi)
    else:
        out.append("left_vs_mmi: not yet known whether the gap left is below the MMI (%g)"
                   % mmi)
    if reference is not None:
        out.append("reference: %s, past the deadline on %d comparisons"
                   % (reference, sum(entry[3] is None for entry in comparisons)))
    return out
