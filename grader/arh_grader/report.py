"""Where a tester wins and loses, for any problem: a result.json read
instance by instance against each instance's bound, and against another
result of the same set. The problem (a problem.Problem) describes its
report itself: its score (SCORE, SCORE_NAME, DIGITS), its bound (bound,
BOUND_NAME, LOWER_IS_BETTER) and the report's layout (FIELDS, LABELS,
FIGURES, ROWS...). Its report command is commands/report.py's main,
handed the problem.

    sys.exit(commands.report.main(PROBLEM))     # the problem's report command

The command prints `key: value` lines: the result's `status`, `kind` and
`instances` (before them a `warning` when the result names files as
`tampered`, integrity.py); the run's mean score (problem.SCORE_NAME), mean bound
(problem.BOUND_NAME) and `gap`, what is left to win between the two; with a
problem.GROUP, a table by group (rows starting with the group's key); then
the instances furthest from their bound on the losing side (rows starting
with problem.ROWS). With --against OTHER: `W/L/D` (a win is a better score),
`mean_difference` (the mean of this result's score minus OTHER's) with its
95% interval, Student's t on the paired differences, and the instances that
lost most (`lost_most:`). With --svg FILE: the picture (picture.py).

It fails with exit status 2 and a message on stderr, naming the file and
what is wrong, when a file cannot be read or written, is not a result.json
(an item lacks one of problem.FIELDS, has a value of another type, or one of
problem.POSITIVE not above 0), or is a result of another set than the one it
is compared with (an instance of the same index differs in problem.SAME_SET,
or none passed in both). A failed run's instances that passed are
reported; the one that failed is left out. Nothing runs at import.
"""

import json
import math
import os
import re
import statistics

from .problem import NUMBER  # noqa: F401  (the types of a number in an item, not bool)

TOP = 10                 # instances listed under problem.ROWS and under lost_most
CONFIDENCE = 0.95        # of the interval on the mean difference


class ReportError(Exception):
    """A file that cannot be reported on; the message names it and why."""


def short(value, limit=60):
    """repr(value), cut to `limit` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def load_result(path, *, problem):
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
        for key, kinds in problem.FIELDS.items():
            if type(item.get(key)) not in kinds:
                raise ReportError("%r is not a result.json: items[%d][%r] is %s"
                                  % (path, position, key, short(item.get(key))))
        for key in problem.POSITIVE:
            if not item[key] > 0:
                raise ReportError("%r is not a result.json: items[%d][%r] is %r"
                                  % (path, position, key, item[key]))
    return result


def passed(result):
    """The instances of a result that passed: all but a failed one."""
    return [item for item in result["items"] if "kind" not in item]


def gap(problem, score, bound):
    """What is left to win from `score` to `bound`: above 0 on the losing side."""
    return score - bound if problem.LOWER_IS_BETTER else bound - score


def group_rows(items, *, problem):
    """[(group, instances, mean score, mean bound, gap)], one a group in
    problem.GROUPS's order (others after, sorted) when the problem groups, then
    "all"; rounded as result.json rounds. [] for no item."""
    names = []
    if problem.GROUP is not None:
        names = [g for g in problem.GROUPS if any(i[problem.GROUP] == g for i in items)]
        names += sorted({i[problem.GROUP] for i in items} - set(names))
    rows = []
    for name, mine in [(g, [i for i in items if i[problem.GROUP] == g]) for g in names] + \
            [("all", items)]:
        if mine:
            score = round(statistics.fmean(i[problem.SCORE] for i in mine), problem.DIGITS)
            bound = round(statistics.fmean(problem.bound(i) for i in mine), problem.DIGITS)
            rows.append((name, len(mine), score, bound,
                         round(gap(problem, score, bound), problem.DIGITS)))
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


def pair(result, other, *, paths, problem):
    """[(item, other's item)] of the instances that passed in both, by
    index; ReportError if they are of different sets."""
    mine = {item["index"]: item for item in result["items"]}
    every = {item["index"]: item for item in other["items"]}
    theirs = {item["index"]: item for item in passed(other)}
    for index in sorted(mine.keys() & every.keys()):
        a, b = mine[index], every[index]
        if any(a[key] != b[key] for key in problem.SAME_SET):
            raise ReportError("%r and %r are results of different sets: instance %d is %s "
                              "in one and %s in the other" % (
                                  paths[0], paths[1], index,
                                  _fingerprint(a, problem), _fingerprint(b, problem)))
    pairs = [(item, theirs[item["index"]]) for item in passed(result)
             if item["index"] in theirs]
    if not pairs:
        raise ReportError("%r and %r have no instance that passed in both"
                          % (paths[0], paths[1]))
    return pairs


def _fingerprint(item, problem):
    return ", ".join("%s=%r" % (key, item[key]) for key in problem.SAME_SET)


def loss(problem, mine, theirs):
    """How much worse `mine` scored than `theirs`: above 0 for a loss."""
    return gap(problem, mine[problem.SCORE], theirs[problem.SCORE])


def comparison(pairs, *, problem):
    """W/L/D, the mean score difference and its interval, from (mine, theirs) pairs."""
    digits = problem.DIGITS
    differences = [a[problem.SCORE] - b[problem.SCORE] for a, b in pairs]
    wins = sum(loss(problem, a, b) < 0 for a, b in pairs)
    losses = sum(loss(problem, a, b) > 0 for a, b in pairs)
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


def report_lines(result, path, *, problem, top=TOP):
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
    rows = group_rows(items, problem=problem)
    if not rows:
        return lines
    _, _, score, bound, left = rows[-1]
    lines += ["%s: %s" % (problem.SCORE_NAME, score), "%s: %s" % (problem.BOUND_NAME, bound),
              "gap: %s" % left]
    if problem.GROUP is not None:
        width = (len(problem.SCORE_NAME), len(problem.BOUND_NAME))
        lines.append("%s: %-10s %9s %*s %*s %9s" % (problem.GROUP, problem.GROUP, "instances",
                                                    width[0], problem.SCORE_NAME,
                                                    width[1], problem.BOUND_NAME, "gap"))
        for name, count, score, bound, left in rows:
            lines.append("%s: %-10s %9d %*.6f %*.6f %+9.6f" % (
                problem.GROUP, name, count, width[0], score, width[1], bound, left))
    columns = [(header, form) for header, form, _ in problem.LABELS + problem.FIGURES]
    chosen = sorted(items, key=lambda i: (-gap(problem, i[problem.SCORE], problem.bound(i)),
                                          i["index"]))[:top]
    return lines + _table(problem.ROWS, columns,
                          [[_value(item, value) for _, _, value in problem.LABELS + problem.FIGURES]
                           for item in chosen])


def against_lines(pairs, path, *, problem, top=TOP):
    """The comparison of the (mine, theirs) pairs with the result at `path`, as lines."""
    lines = ["against: %s" % path]
    for key, value in comparison(pairs, problem=problem).items():
        lines.append("%s: %s" % (key, value if isinstance(value, str) else json.dumps(value)))
    count, against = problem.COUNT, "against_" + problem.COUNT
    columns = [(header, form) for header, form, _ in problem.LABELS] + [
        (count, "%%%dd" % len(count)), (against, "%%%dd" % len(against)),
        ("score", "%8.6f"), ("against_score", "%13.6f"), ("difference", "%+10.6f")]
    lost = sorted((p for p in pairs if loss(problem, *p) > 0),
                  key=lambda p: (-loss(problem, *p), p[0]["index"]))
    return lines + _table("lost_most", columns, [
        [_value(mine, value) for _, _, value in problem.LABELS] + [
            mine[count], theirs[count], mine[problem.SCORE], theirs[problem.SCORE],
            mine[problem.SCORE] - theirs[problem.SCORE]] for mine, theirs in lost[:top]])


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
