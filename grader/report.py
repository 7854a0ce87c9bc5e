"""Where a tester wins and loses: a result.json read instance by instance.

    python3 grader/report.py result/result.json
    python3 grader/report.py result/result.json --against before/result.json
    python3 grader/report.py result/result.json --svg result/result.svg

Prints `key: value` lines on stdout. The run's `relative_tests`,
`information_floor` and `gap` (the one minus the other: what is left to
win); then a table whose rows start `family: NAME` (instances, score,
floor and gap of each family, and of `all`); then the instances furthest
above their floor, rows starting `above_floor:`, where an instance's floor
is its surprise over its baseline and `bits` is its tests minus its
surprise. The figures are those of result.json, rounded as it rounds them.

With --against OTHER, a result of the same set (the same instances, by
index), each instance is compared: a win has fewer tests than in OTHER, a
loss more, a draw as many. It prints `W/L/D`, `mean_difference` (the mean
of this result's score minus OTHER's: below 0 is better) and its 95%
interval, Student's t on the paired differences, and the instances that
lost most, rows starting `lost_most:`.

With --svg FILE it writes a picture (grader/picture.py) that any browser
opens: each instance's score against its floor, coloured by family, and
with --against each instance's difference as well.

Exit status 0; 2 when a file cannot be read, is not a result.json, or is a
result of another set than the one it is compared with: the message on
stderr names the file and what is wrong with it. A failed run's instances
that passed are reported; the one that failed is left out.
"""

import argparse
import json
import math
import os
import statistics
import sys

import grade
import picture
from group_testing import plugin, problem

TOP = 10                 # instances listed under above_floor and under lost_most
CONFIDENCE = 0.95        # of the interval on the mean difference
NUMBER = (int, float)
FIELDS = {"index": (int,), "family": (str,), "n": (int,), "tests": (int,),
          "baseline": (int,), "score": NUMBER, "surprise": NUMBER}
SAME_SET = ("family", "n", "baseline", "surprise")   # an instance's fingerprint
SCRIPT = os.path.abspath(__file__)


class ReportError(Exception):
    """A file that cannot be reported on; the message names it and why."""


def load_result(path):
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
                              % (path, position, problem.short(item)))
        for key, kinds in FIELDS.items():
            if type(item.get(key)) not in kinds:
                raise ReportError("%r is not a result.json: items[%d][%r] is %s"
                                  % (path, position, key, problem.short(item.get(key))))
        if item["baseline"] < 1:
            raise ReportError("%r is not a result.json: items[%d]['baseline'] is %r"
                              % (path, position, item["baseline"]))
    return result


def passed(result):
    """The instances of a result that passed: all but a failed one."""
    return [item for item in result["items"] if "kind" not in item]


def floor(item):
    """An instance's information floor: its surprise over its baseline."""
    return item["surprise"] / item["baseline"]


def _round(x):
    return round(x, plugin.DIGITS)


def family_rows(items):
    """[(family, instances, relative_tests, information_floor, gap)], one a
    family in problem.FAMILIES's order (others after), then "all"."""
    names = [f for f in problem.FAMILIES if any(i["family"] == f for i in items)]
    names += sorted({i["family"] for i in items} - set(names))
    rows = []
    for name, mine in [(f, [i for i in items if i["family"] == f]) for f in names] + \
            [("all", items)]:
        if mine:
            score = _round(statistics.fmean(i["score"] for i in mine))
            low = _round(statistics.fmean(floor(i) for i in mine))
            rows.append((name, len(mine), score, low, _round(score - low)))
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


def pair(result, other, *, paths):
    """[(item, other's item)] of the instances that passed in both, by
    index; ReportError if they are of different sets."""
    mine = {item["index"]: item for item in result["items"]}
    every = {item["index"]: item for item in other["items"]}
    theirs = {item["index"]: item for item in passed(other)}
    for index in sorted(mine.keys() & every.keys()):
        a, b = mine[index], every[index]
        if any(a[key] != b[key] for key in SAME_SET):
            raise ReportError("%r and %r are results of different sets: instance %d is %s "
                              "in one and %s in the other" % (
                                  paths[0], paths[1], index,
                                  _fingerprint(a), _fingerprint(b)))
    pairs = [(item, theirs[item["index"]]) for item in passed(result)
             if item["index"] in theirs]
    if not pairs:
        raise ReportError("%r and %r have no instance that passed in both"
                          % (paths[0], paths[1]))
    return pairs


def _fingerprint(item):
    return ", ".join("%s=%r" % (key, item[key]) for key in SAME_SET)


def comparison(pairs):
    """W/L/D, the mean score difference and its interval, from (mine, theirs) pairs."""
    differences = [a["score"] - b["score"] for a, b in pairs]
    wins = sum(a["tests"] < b["tests"] for a, b in pairs)
    losses = sum(a["tests"] > b["tests"] for a, b in pairs)
    mean = statistics.fmean(differences)
    figures = {"compared": len(pairs), "W/L/D": "%d/%d/%d" % (wins, losses,
                                                              len(pairs) - wins - losses),
               "mean_difference": _round(mean), "mean_difference_ci95": None,
               "interval": "none (one instance)"}
    if len(pairs) > 1:
        half = t_quantile((1 + CONFIDENCE) / 2, len(pairs) - 1) * \
            statistics.stdev(differences) / math.sqrt(len(pairs))
        figures["mean_difference_ci95"] = [_round(mean - half), _round(mean + half)]
        figures["interval"] = ("Student's t, %d degrees of freedom, on the paired "
                               "differences" % (len(pairs) - 1))
    return figures


def report_lines(result, path, *, top=TOP):
    """The report of one result, as lines."""
    items = passed(result)
    lines = ["result: %s" % path, "status: %s" % result["status"],
             "kind: %s" % (result.get("kind") or "none")]
    if result.get("message"):
        lines.append("message: %s" % str(result["message"]).split("\n")[0])
    lines.append("instances: %d" % len(items))
    rows = family_rows(items)
    if not rows:
        return lines
    _, _, score, low, gap = rows[-1]
    lines += ["relative_tests: %s" % score, "information_floor: %s" % low, "gap: %s" % gap]
    lines.append("family: %-10s %9s %14s %17s %9s" % ("family", "instances", "relative_tests",
                                                     "information_floor", "gap"))
    for name, count, score, low, gap in rows:
        lines.append("family: %-10s %9d %14.6f %17.6f %+9.6f" % (name, count, score, low, gap))
    lines.append("above_floor: %5s %-10s %3s %5s %8s %8s %8s %9s %7s" % (
        "index", "family", "n", "tests", "baseline", "score", "floor", "gap", "bits"))
    for item in sorted(items, key=lambda i: (floor(i) - i["score"], i["index"]))[:top]:
        lines.append("above_floor: %5d %-10s %3d %5d %8d %8.6f %8.6f %+9.6f %+7.1f" % (
            item["index"], item["family"], item["n"], item["tests"], item["baseline"],
            item["score"], floor(item), item["score"] - floor(item),
            item["tests"] - item["surprise"]))
    return lines


def against_lines(pairs, path, *, top=TOP):
    """The comparison of the (mine, theirs) pairs with the result at `path`, as lines."""
    lines = ["against: %s" % path]
    for key, value in comparison(pairs).items():
        lines.append("%s: %s" % (key, value if isinstance(value, str) else json.dumps(value)))
    lines.append("lost_most: %5s %-10s %3s %5s %13s %8s %13s %10s" % (
        "index", "family", "n", "tests", "against_tests", "score", "against_score",
        "difference"))
    lost = sorted((p for p in pairs if p[0]["tests"] > p[1]["tests"]),
                  key=lambda p: (p[1]["score"] - p[0]["score"], p[0]["index"]))
    for mine, theirs in lost[:top]:
        lines.append("lost_most: %5d %-10s %3d %5d %13d %8.6f %13.6f %+10.6f" % (
            mine["index"], mine["family"], mine["n"], mine["tests"], theirs["tests"],
            mine["score"], theirs["score"], mine["score"] - theirs["score"]))
    return lines


def display_path(path):
    """`path` relative to the current folder when it lies inside it, else as given."""
    absolute, here = os.path.abspath(path), os.getcwd()
    if absolute.startswith(os.path.join(here, "")):
        return os.path.relpath(absolute, here)
    return path


def command_for(result_path):
    """The command that reports on a result and draws it beside it."""
    picture_path = os.path.join(os.path.dirname(result_path), "result.svg")
    return "python3 %s %s --svg %s" % (display_path(SCRIPT), display_path(result_path),
                                       display_path(picture_path))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="a result.json (grader/local.py writes one)")
    parser.add_argument("--against", metavar="OTHER.json",
                        help="a result of the same set to compare with, instance by instance")
    parser.add_argument("--svg", metavar="FILE", help="write the picture here")
    parser.add_argument("--top", type=grade.positive(int), default=TOP, metavar="N",
                        help="instances listed under above_floor and lost_most "
                             "(default %d)" % TOP)
    args = parser.parse_args(argv)
    try:
        result = load_result(args.result)
        lines = report_lines(result, args.result, top=args.top)
        pairs = None
        if args.against is not None:
            other = load_result(args.against)
            pairs = pair(result, other, paths=(args.result, args.against))
            lines += against_lines(pairs, args.against, top=args.top)
        if args.svg is not None:
            items = passed(result)
            text = picture.draw(items, rows=family_rows(items), source=args.result,
                                pairs=pairs, against=args.against,
                                figures=comparison(pairs) if pairs else None)
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


if __name__ == "__main__":
    sys.exit(main())
