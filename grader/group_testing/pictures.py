"""Group testing's two pictures for the loop, drawn with arh_grader/svg.py:

    result = pictures.read_result("result/result.json")
    text, lines = pictures.gap_picture(result, source="result/result.json")
    rows = pictures.read_log(".loop/results.tsv")
    text, lines = pictures.history_picture(rows, source=".loop/results.tsv")

The gap: one circle per instance that passed (class "instance", its
data-index and data-family), across its n, up its tests minus its surprise:
the bits a tester still spends above the information the instance holds,
what is left to win there. A line marks zero.

The history: each row of the loop's results.tsv in order across. A kept
row (status keep) is a square at the estimated total of the kept versions
with its interval as a bar: the row's `total_gain` when the log has that
column, else the sum of the kept rows' score_difference means (the
interval: the sums of their lows and highs). A discarded row is a faint
circle, a crashed one a faint cross: at its own total_gain when the log
has one, else at the total so far plus its own mean difference. Below 0
is fewer tests than the reference (the log's `reference`, binary
splitting by default) or than the first incumbent. Columns are read by
their header's names, in any order.

Each function returns (SVG text, the `key: value` lines to print); a file
that cannot be used raises PictureError, whose message names it with %r.
"""

import json
import re

from arh_grader import svg

COLOURS = {"uniform": "#1f77b4", "two-tier": "#e6550d", "log-normal": "#2ca02c"}
SPARE = ("#9467bd", "#8c564b", "#e377c2", "#17becf")
ITEM_KEYS = {"index": (int,), "n": (int,), "family": (str,), "tests": (int,),
             "surprise": (int, float)}
KEPT, FAINT, CRASHED = "#d62728", "#8c8c8c", "#9467bd"
INTERVAL = re.compile(r"^(\S+)\s*\[\s*(?:(\S+)\s*,\s*(\S+)\s*|-)\]$")


class PictureError(Exception):
    """A file that cannot be drawn, named with %r in the message."""


def _number(value):
    return type(value) in (int, float) and value == value and abs(value) != float("inf")


def read_result(path):
    """A result.json of grader/local.py, with at least one instance that has
    the fields the gap needs; PictureError naming `path` otherwise."""
    try:
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
    except OSError as e:
        raise PictureError("cannot read %r: %s" % (path, e.strerror or e)) from None
    except ValueError as e:
        raise PictureError("%r is not JSON: %s" % (path, e)) from None
    if type(result) is not dict or type(result.get("items")) is not list:
        raise PictureError("%r is not a result.json: it has no 'items' list" % path)
    if not result["items"]:
        raise PictureError("%r has no items: a run that graded no instance has nothing "
                           "to draw" % path)
    for position, item in enumerate(result["items"]):
        if type(item) is not dict:
            raise PictureError("%r: items[%d] is %r, not an object" % (path, position, item))
        if "kind" in item:           # the instance a failed run failed on
            continue
        for key, kinds in ITEM_KEYS.items():
            if type(item.get(key)) not in kinds or key == "surprise" and not _number(item[key]):
                raise PictureError("%r: items[%d][%r] is %r" % (path, position, key,
                                                                item.get(key)))
    if all("kind" in item for item in result["items"]):
        raise PictureError("%r has no instance that passed" % path)
    for key in ("relative_tests", "information_floor"):
        if not _number(result.get(key)):
            raise PictureError("%r: its %r is %r" % (path, key, result.get(key)))
    return result


def family_colours(families):
    """{family: colour}: group testing's own, then spare ones."""
    spare = iter(SPARE * (1 + len(families)))
    return {f: COLOURS.get(f) or next(spare) for f in families}


def families_of(items):
    """The families of `items`: the known ones in their order, then the others sorted."""
    found = {item["family"] for item in items}
    return [f for f in COLOURS if f in found] + sorted(found - set(COLOURS))


def bits_left(item):
    """An instance's tests minus its surprise, in bits."""
    return item["tests"] - item["surprise"]


def gap_picture(result, *, source):
    """The gap picture of a result (read_result's) and its lines."""
    items = [item for item in result["items"] if "kind" not in item]
    families = families_of(items)
    colour = family_colours(families)
    left = [bits_left(item) for item in items]
    plot = svg.Plot(
        title=["Bits left to win on each instance: its tests minus its surprise",
               "relative_tests %.4f, information_floor %.4f, gap %.4f" % (
                   result["relative_tests"], result["information_floor"],
                   result["relative_tests"] - result["information_floor"])],
        subtitle=["%s: %d instances, status %s; above 0: tests spent beyond the "
                  "information the instance holds" % (source, len(items),
                                                      result.get("status", "-"))],
        x_label="n, the instance's items", y_label="tests minus surprise (bits)",
        y_include=[0.0])
    plot.across(0.0, label="zero: tests = surprise", css="zero-line")
    for family in families:
        mine = [(item, b) for item, b in zip(items, left) if item["family"] == family]
        plot.scatter([(item["n"], b) for item, b in mine], colour=colour[family],
                     label="%s (%d): mean %.1f bits" % (family, len(mine),
                                                       sum(b for _, b in mine) / len(mine)),
                     css="instance",
                     tips=["instance %d (%s, n = %d): %d tests, surprise %.2f bits, "
                           "%.2f bits left" % (item["index"], family, item["n"],
                                               item["tests"], item["surprise"], b)
                           for item, b in mine],
                     data=[{"index": item["index"], "family": family} for item, _ in mine])
    plot.note("one circle an instance;")
    plot.note("hover for its figures")
    worst = max(zip(left, items), key=lambda pair: (pair[0], -pair[1]["index"]))
    lines = ["instances: %d" % len(items),
             "families: %s" % ", ".join("%s %d" % (f, sum(i["family"] == f for i in items))
                                        for f in families),
             "relative_tests: %s" % result["relative_tests"],
             "information_floor: %s" % result["information_floor"],
             "bits_left_mean: %.2f" % (sum(left) / len(left)),
             "most_bits_left: instance %d (%s, n = %d): %.2f" % (
                 worst[1]["index"], worst[1]["family"], worst[1]["n"], worst[0])]
    return plot.render(), lines


def read_log(path):
    """The rows of a loop's results.tsv as dicts by header name, in order;
    PictureError naming `path` when it cannot be read, lacks the columns
    the history needs (commit, status, and score_difference or total_gain)
    or has no row."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f if line.strip()]
    except OSError as e:
        raise PictureError("cannot read %r: %s" % (path, e.strerror or e)) from None
    except ValueError as e:
        raise PictureError("%r is not text: %s" % (path, e)) from None
    if not lines:
        raise PictureError("%r is empty: it needs a header line and rows" % path)
    header = lines[0].split("\t")
    missing = ["no column %r" % name for name in ("commit", "status") if name not in header]
    if "score_difference" not in header and "total_gain" not in header:
        missing.append("neither 'score_difference' nor 'total_gain'")
    if missing:
        raise PictureError("%r has %s (its header: %r)" % (path, " and ".join(missing),
                                                            lines[0]))
    if len(lines) == 1:
        raise PictureError("%r has a header but no rows yet" % path)
    rows = []
    for number, line in enumerate(lines[1:], 2):
        cells = line.split("\t")
        if len(cells) != len(header):
            raise PictureError("%r line %d has %d cells, its header %d: %r"
                               % (path, number, len(cells), len(header), line))
        row = dict(zip(header, cells))
        for name in ("score_difference", "total_gain"):
            if name in row:
                row[name] = interval(row[name], where="%r line %d, %s" % (path, number, name))
        rows.append(row)
    return rows


def interval(cell, *, where):
    """(mean, low, high) of a "mean [low, high]" cell (low and high None for
    "mean [-]"); None for "-"; PictureError naming the cell otherwise."""
    cell = cell.strip()
    if cell in ("-", ""):
        return None
    found = INTERVAL.match(cell)
    try:
        if found is None:
            raise ValueError
        values = [None if v is None else float(v) for v in found.groups()]
    except ValueError:
        raise PictureError("%s is %r, not \"mean [low, high]\"" % (where, cell)) from None
    return tuple(values)


def totals(rows):
    """Per row: (total, low, high) of the kept versions so far, or None
    before any; and the words saying where the totals come from."""
    if any(row.get("total_gain") is not None for row in rows if row["status"] == "keep"):
        found, last = [], None
        for row in rows:
            if row["status"] == "keep" and row.get("total_gain") is not None:
                last = row["total_gain"]
            found.append(last)
        return found, "total_gain"
    found, total, low, high, kept = [], 0.0, 0.0, 0.0, False
    for row in rows:
        diff = row.get("score_difference")
        if row["status"] == "keep" and diff is not None:
            kept = True
            total += diff[0]
            low = None if low is None or diff[1] is None else low + diff[1]
            high = None if high is None or diff[2] is None else high + diff[2]
        found.append((total, low, high) if kept else None)
    return found, "cumulative kept score_difference"


def history_picture(rows, *, source):
    """The history picture of read_log's rows and its lines."""
    running, basis = totals(rows)
    kept, faint, crashed, tips = [], [], [], {}
    for k, (row, total) in enumerate(zip(rows, running), 1):
        status, diff = row["status"], row.get("score_difference")
        tips[k] = "%d %s %s (%s): %s" % (k, row["commit"], status, row.get("decision", "-"),
                                         row.get("description", "-"))
        if diff is not None:
            tips[k] += "; score_difference %+.4f" % diff[0]
        if status == "keep" and total is not None and (
                basis != "total_gain" or row.get("total_gain") is not None):
            kept.append((k, total))
        else:
            before = running[k - 2] if k > 1 and running[k - 2] else (0.0, None, None)
            if basis == "total_gain":
                own = row.get("total_gain")
                level = before[0] if own is None else own[0]
            else:
                level = before[0] + (0.0 if diff is None else diff[0])
            (crashed if status == "crash" else faint).append((k, level))
    y_name = "total_gain" if basis == "total_gain" else "cumulative score_difference"
    references = sorted({row["reference"] for row in rows
                         if row.get("reference", "-") != "-"})
    against = ("the reference%s %s" % ("s" * (len(references) > 1), ", ".join(references))
               if basis == "total_gain" and references else
               "the reference" if basis == "total_gain" else "the first incumbent")
    plot = svg.Plot(
        title=["The loop's history: the kept versions' estimated total",
               "from %s" % ("the log's total_gain" if basis == "total_gain"
                            else "the cumulative score_difference of the kept rows")],
        subtitle=["%d rows: %d kept, %d discarded, %d crashed; bars: %s" % (
                      len(rows), len(kept), len(faint), len(crashed),
                      "each kept row's interval" if basis == "total_gain"
                      else "sums of the kept rows' lows and highs"),
                  "%s; below 0: fewer tests than %s" % (source, against)],
        x_label="experiment (row of results.tsv) and its commit",
        y_label=y_name, y_include=[0.0])
    plot.across(0.0, label="zero", css="zero-line", colour="#999", dash="4 3")
    if kept:
        plot.line([(k, t[0]) for k, t in kept],
                  colour=KEPT, css="kept-path", dash="3 3", thickness=1.0)
        plot.error_bars([(k, t[0], t[1], t[2]) for k, t in kept], colour=KEPT,
                        label="kept (%d): total and interval" % len(kept), css="kept",
                        tips=[tips[k] for k, _ in kept],
                        data=[{"row": k, "commit": rows[k - 1]["commit"]} for k, _ in kept])
    for points, colour, label, css in ((faint, FAINT, "discarded", "discarded"),
                                       (crashed, CRASHED, "crashed", "crashed")):
        if points:
            plot.scatter(points, colour=colour, hollow=True, opacity=0.7, css=css,
                         shape="cross" if css == "crashed" else "circle",
                         label="%s (%d)" % (label, len(points)),
                         tips=[tips[k] for k, _ in points],
                         data=[{"row": k, "commit": rows[k - 1]["commit"]}
                               for k, _ in points])
    if basis == "total_gain":
        plot.note("faint: the row's own total_gain")
        plot.note("(the total so far without one)")
    else:
        plot.note("faint: the total so far plus")
        plot.note("the row's own mean difference")
    keep_rows = {k for k, _ in kept}
    plot.label_x(sorted(((k, "%d %s" % (k, row["commit"])) for k, row in enumerate(rows, 1)),
                        key=lambda pair: (pair[0] not in keep_rows, pair[0])))
    last = next((t for t in reversed(running) if t is not None), None)
    lines = ["rows: %d" % len(rows), "kept: %d" % len(kept), "discarded: %d" % len(faint),
             "crashed: %d" % len(crashed), "total_from: %s" % basis,
             "total: %s" % ("-" if last is None else "%.4f [%s]" % (
                 last[0], "-" if last[1] is None or last[2] is None
                 else "%.4f, %.4f" % last[1:]))]
    return plot.render(), lines
