"""Where a tester wins and loses, for any problem: a result.json read
instance by instance against each instance's bound, and against another
result of the same set. A problem describes its report with a Report;
its report command is main() with it.

    SPEC = report.Report(score_name="mean_score", bound_name="bound", ...)

    def main(argv=None):         # the problem's report command
        return report.main(argv, spec=SPEC, description="...", made_by="tq/local.py")

main prints `key: value` lines: the result's `status`, `kind` and
`instances` (before them a `warning` when the result names files as
`tampered`, integrity.py); the run's mean score (spec.score_name), mean bound
(spec.bound_name) and `gap`, what is left to win between the two; with a
spec.group, a table by group (rows starting with the group's key); then
the instances furthest from their bound on the losing side (rows starting
with spec.rows). With --against OTHER: `W/L/D` (a win is a better score),
`mean_difference` (the mean of this result's score minus OTHER's) with its
95% interval, Student's t on the paired differences, and the instances that
lost most (`lost_most:`). With --svg FILE: the picture (picture.py).

It fails with exit status 2 and a message on stderr, naming the file and
what is wrong, when a file cannot be read or written, is not a result.json
(an item lacks one of spec.fields, has a value of another type, or one of
spec.positive not above 0), or is a result of another set than the one it
is compared with (an instance of the same index differs in spec.same_set,
or none passed in both). A failed run's instances that passed are
reported; the one that failed is left out. Nothing runs at import.
"""

import argparse
import dataclasses
import json
import math
import os
import re
import statistics
import sys

from . import options, picture

TOP = 10                 # instances listed under spec.rows and under lost_most
CONFIDENCE = 0.95        # of the interval on the mean difference
NUMBER = (int, float)    # the types of a number in an item (not bool)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Report:
    """How a problem's result.json is reported. A column is (header, a %
    format for its values, its value): an item key, or a function of the
    item. Every key the report reads (the columns', same_set, count, group,
    positive, score) must be one of `fields`, which load_result checks."""
    score_name: str         # the run's mean score, as result.json names it ("relative_tests")
    bound_name: str         # the run's mean bound, likewise ("information_floor")
    bound_short: str        # an instance's bound in the picture ("floor")
    bound: object           # item -> its bound, a floor or a ceiling of its score
    lower_is_better: bool   # of the score: the bound a floor when True, a ceiling when False
    fields: dict            # key -> the types an item's value must have
    same_set: tuple         # keys equal in two results' instance of the same index
    count: str              # the item's count ("tests"), shown beside the other result's
    labels: tuple           # columns naming an instance, listed first in every row
    figures: tuple          # columns listed after the labels under `rows`
    rows: str               # the key of the rows of the instances furthest from their bound
    describe: object        # item -> its words in the picture
    axes: tuple             # the picture's (across, up) labels: the bound, the score
    win: tuple              # what a win and a loss have ("fewer tests", "more tests")
    reference: tuple = None  # (score, words): a line across the picture, or None
    across: tuple = None    # (label, item -> x): the picture's across-axis, if not the bound
    group: str = None       # the key grouping instances ("family"), or None
    groups: tuple = ()      # the groups in their order; others follow, sorted
    colours: dict = dataclasses.field(default_factory=dict)   # group -> its colour
    positive: tuple = ()    # keys whose values must be above 0
    score: str = "score"    # the item key of its score
    digits: int = 6         # decimals of the figures, as result.json rounds them


class ReportError(Exception):
    """A file that cannot be reported on; the message names it and why."""


def short(value, limit=60):
    """repr(value), cut to `limit` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def load_result(path, *, spec):
    """The result.json at `path`, its items checked; ReportError if the file
    cannot be read, is not JSON, or is not a result."""
    try:
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
    except OSError as e:
        raise ReportError("cannot read %r: %s" % (path, e.strerror or e)) from None
    except ValueError as e:
        raise ReportError("%r is not JSON: %s" % (path, e)) from None
    if type(result) is not dict or type(result.get("items")) is not list \
            or "status" not in result:
        raise ReportError("%r is not a result.json: it needs 'status' and an 'items' list"
                          % path)
    for position, item in enumerate(result["items"]):
        if type(item) is not dict:
            raise ReportError("%r is not a result.json: items[%d] is %s"
                              % (path, position, short(item)))
        for key, kinds in spec.fields.items():
            if type(item.get(key)) not in kinds:
                raise ReportError("%r is not a result.json: items[%d][%r] is %s"
                                  % (path, position, key, short(item.get(key))))
        for key in spec.positive:
            if not item[key] > 0:
                raise ReportError("%r is not a result.json: items[%d][%r] is %r"
                                  % (path, position, key, item[key]))
    return result


def passed(result):
    """The instances of a result that passed: all but a failed one."""
    return [item for item in result["items"] if "kind" not in item]


def gap(spec, score, bound):
    """What is left to win from `score` to `bound`: above 0 on the losing side."""
    return score - bound if spec.lower_is_better else bound - score


def group_rows(items, *, spec):
    """[(group, instances, mean score, mean bound, gap)], one a group in
    spec.groups's order (others after, sorted) when the spec groups, then
    "all"; rounded as result.json rounds. [] for no item."""
    names = []
    if spec.group is not None:
        names = [g for g in spec.groups if any(i[spec.group] == g for i in items)]
        names += sorted({i[spec.group] for i in items} - set(names))
    rows = []
    for name, mine in [(g, [i for i in items if i[spec.group] == g]) for g in names] + \
            [("all", items)]:
        if mine:
            score = round(statistics.fmean(i[spec.score] for i in mine), spec.digits)
            bound = round(statistics.fmean(spec.bound(i) for i in mine), spec.digits)
            rows.append((name, len(mine), score, bound,
                         round(gap(spec, score, bound), spec.digits)))
    return rows


def t_quantile(p, df):
    """The p quantile (p > 0.5) of Student's t with `df` >= 1 degrees of
    freedom: the exact distribution for whole df (Abramowitz and Stegun
    26.7.3-4), inverted by bisection."""
    def central(theta):                  # P(|T| <= sqrt(df) tan theta)
        s, c2 = math.sin(theta), math.cos(theta) ** 2
        if df % 2:
            term, total = math.cos(theta), 0.0
            for j in range(1, (df - 1) // 2 + 1):
                total += term
                term *= c2 * 2 * j / (2 * j + 1)
            return 2 / math.pi * (theta + s * total)
        term, total = 1.0, 0.0
        for j in range(1, df // 2 + 1):
            total += term
            term *= c2 * (2 * j - 1) / (2 * j)
        return s * total

    low, high = 0.0, math.pi / 2
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if central(mid) < 2 * p - 1 else (low, mid)
    return math.sqrt(df) * math.tan((low + high) / 2)


def pair(result, other, *, paths, spec):
    """[(item, other's item)] of the instances that passed in both, by
    index; ReportError if they are of different sets."""
    mine = {item["index"]: item for item in result["items"]}
    every = {item["index"]: item for item in other["items"]}
    theirs = {item["index"]: item for item in passed(other)}
    for index in sorted(mine.keys() & every.keys()):
        a, b = mine[index], every[index]
        if any(a[key] != b[key] for key in spec.same_set):
            raise ReportError("%r and %r are results of different sets: instance %d is %s "
                              "in one and %s in the other" % (
                                  paths[0], paths[1], index,
                                  _fingerprint(a, spec), _fingerprint(b, spec)))
    pairs = [(item, theirs[item["index"]]) for item in passed(result)
             if item["index"] in theirs]
    if not pairs:
        raise ReportError("%r and %r have no instance that passed in both"
                          % (paths[0], paths[1]))
    return pairs


def _fingerprint(item, spec):
    return ", ".join("%s=%r" % (key, item[key]) for key in spec.same_set)


def loss(spec, mine, theirs):
    """How much worse `mine` scored than `theirs`: above 0 for a loss."""
    return gap(spec, mine[spec.score], theirs[spec.score])


def comparison(pairs, *, spec):
    """W/L/D, the mean score difference and its interval, from (mine, theirs) pairs."""
    digits = spec.digits
    differences = [a[spec.score] - b[spec.score] for a, b in pairs]
    wins = sum(loss(spec, a, b) < 0 for a, b in pairs)
    losses = sum(loss(spec, a, b) > 0 for a, b in pairs)
    mean = statistics.fmean(differences)
    figures = {"compared": len(pairs), "W/L/D": "%d/%d/%d" % (wins, losses,
                                                              len(pairs) - wins - losses),
               "mean_difference": round(mean, digits), "mean_difference_ci95": None,
               "interval": "none (one instance)"}
    if len(pairs) > 1:
        half = t_quantile((1 + CONFIDENCE) / 2, len(pairs) - 1) * \
            statistics.stdev(differences) / math.sqrt(len(pairs))
        figures["mean_difference_ci95"] = [round(mean - half, digits),
                                           round(mean + half, digits)]
        figures["interval"] = ("Student's t, %d degrees of freedom, on the paired "
                               "differences" % (len(pairs) - 1))
    return figures


def _header(form):
    """A value's % format made its header's: the same width, as text."""
    return re.sub(r"%(-?)\+?(\d*)(?:\.\d+)?[a-z]", r"%\1\2s", form)


def _table(key, columns, values):
    """`key:` rows: the columns' header, then one row a tuple of `values`."""
    lines = ["%s: %s" % (key, " ".join(_header(form) % header for header, form in columns))]
    for row in values:
        lines.append("%s: %s" % (key, " ".join(form % value
                                               for (_, form), value in zip(columns, row))))
    return lines


def _value(item, value):
    return item[value] if isinstance(value, str) else value(item)


def report_lines(result, path, *, spec, top=TOP):
    """The report of one result, as lines."""
    items = passed(result)
    lines = ["result: %s" % path, "status: %s" % result["status"],
             "kind: %s" % (result.get("kind") or "none")]
    if result.get("message"):
        lines.append("message: %s" % str(result["message"]).split("\n")[0])
    if result.get("tampered"):
        lines.append("warning: files outside the editable folders had changed when this "
                     "result was made (tampered: %s); it cannot be trusted"
                     % ", ".join(str(path) for path in result["tampered"]))
    lines.append("instances: %d" % len(items))
    rows = group_rows(items, spec=spec)
    if not rows:
        return lines
    _, _, score, bound, left = rows[-1]
    lines += ["%s: %s" % (spec.score_name, score), "%s: %s" % (spec.bound_name, bound),
              "gap: %s" % left]
    if spec.group is not None:
        width = (len(spec.score_name), len(spec.bound_name))
        lines.append("%s: %-10s %9s %*s %*s %9s" % (spec.group, spec.group, "instances",
                                                    width[0], spec.score_name,
                                                    width[1], spec.bound_name, "gap"))
        for name, count, score, bound, left in rows:
            lines.append("%s: %-10s %9d %*.6f %*.6f %+9.6f" % (
                spec.group, name, count, width[0], score, width[1], bound, left))
    columns = [(header, form) for header, form, _ in spec.labels + spec.figures]
    chosen = sorted(items, key=lambda i: (-gap(spec, i[spec.score], spec.bound(i)),
                                          i["index"]))[:top]
    return lines + _table(spec.rows, columns,
                          [[_value(item, value) for _, _, value in spec.labels + spec.figures]
                           for item in chosen])


def against_lines(pairs, path, *, spec, top=TOP):
    """The comparison of the (mine, theirs) pairs with the result at `path`, as lines."""
    lines = ["against: %s" % path]
    for key, value in comparison(pairs, spec=spec).items():
        lines.append("%s: %s" % (key, value if isinstance(value, str) else json.dumps(value)))
    count, against = spec.count, "against_" + spec.count
    columns = [(header, form) for header, form, _ in spec.labels] + [
        (count, "%%%dd" % len(count)), (against, "%%%dd" % len(against)),
        ("score", "%8.6f"), ("against_score", "%13.6f"), ("difference", "%+10.6f")]
    lost = sorted((p for p in pairs if loss(spec, *p) > 0),
                  key=lambda p: (-loss(spec, *p), p[0]["index"]))
    return lines + _table("lost_most", columns, [
        [_value(mine, value) for _, _, value in spec.labels] + [
            mine[count], theirs[count], mine[spec.score], theirs[spec.score],
            mine[spec.score] - theirs[spec.score]] for mine, theirs in lost[:top]])


def display_path(path):
    """`path` relative to the current folder when it lies inside it, else as given."""
    absolute, here = os.path.abspath(path), os.getcwd()
    if absolute.startswith(os.path.join(here, "")):
        return os.path.relpath(absolute, here)
    return path


def command_for(result_path, *, script):
    """The command that reports on a result with the report command at
    `script` and draws it beside the result."""
    picture_path = os.path.join(os.path.dirname(result_path), "result.svg")
    return "python3 %s %s --svg %s" % (display_path(script), display_path(result_path),
                                       display_path(picture_path))


def main(argv=None, *, spec, description, made_by):
    """A problem's report command: `description` its help's first line,
    `made_by` the command that writes a result.json. Its exit status."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("result", help="a result.json (%s writes one)" % made_by)
    parser.add_argument("--against", metavar="OTHER.json",
                        help="a result of the same set to compare with, instance by instance")
    parser.add_argument("--svg", metavar="FILE", help="write the picture here")
    parser.add_argument("--top", type=options.positive(int), default=TOP, metavar="N",
                        help="instances listed under %s and lost_most (default %d)"
                             % (spec.rows, TOP))
    args = parser.parse_args(argv)
    try:
        result = load_result(args.result, spec=spec)
        lines = report_lines(result, args.result, spec=spec, top=args.top)
        pairs = None
        if args.against is not None:
            other = load_result(args.against, spec=spec)
            pairs = pair(result, other, paths=(args.result, args.against), spec=spec)
            lines += against_lines(pairs, args.against, spec=spec, top=args.top)
        if args.svg is not None:
            items = passed(result)
            text = picture.draw(items, spec=spec, rows=group_rows(items, spec=spec),
                                source=args.result, pairs=pairs, against=args.against,
                                figures=comparison(pairs, spec=spec) if pairs else None)
            try:
                with open(args.svg, "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError as e:
                raise ReportError("cannot write %r: %s" % (args.svg, e.strerror or e)) from None
            lines.append("svg: %s" % args.svg)
    except ReportError as e:
        sys.stderr.write("report: %s\n" % e)
        return 2
    print("\n".join(lines))
    return 0
