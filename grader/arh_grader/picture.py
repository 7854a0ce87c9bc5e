"""The picture of a result for report.py: hand-written SVG, standard
library only, that any browser opens.

    text = picture.draw(items, problem=PROBLEM, source="result.json",
                        rows=report.group_rows(items, problem=PROBLEM))

The top panel has one circle (class "instance") per instance: across, its
bound (problem.bound: group testing's information floor); up, its score, on
the same scale. A dashed diagonal marks score = bound, so the distance of a
circle from it, on the losing side, is what is left to win there; a dotted
line marks problem.REFERENCE's score (group testing: 1.0, binary splitting).
Circles are coloured by problem.GROUP (one colour when the problem has none), and
hovering over one shows problem.describe's words. When the bound barely
varies (twenty questions), problem.ACROSS gives the across-axis instead (the
round's index), and each instance's bound is a dash centred on its circle.

Given `pairs` (report.pair) and `figures` (report.comparison), a second
panel has one circle (class "difference") per compared instance: across,
its bound (or problem.ACROSS) again; up, its score minus the other result's.

Nothing here reads or writes a file; `draw` returns the text, and fails
only as the problem's functions do.
"""

import math
from xml.sax.saxutils import escape, quoteattr

WIDTH = 800                 # px, the whole picture
LEFT, PLOT = 80, 440        # px: the panels' left edge and the top panel's side
LEGEND = LEFT + PLOT + 40   # px: the legend's left edge
TOP = 80                    # px: the top panel's upper edge, below the title
GAP = 100                   # px between the panels, the lower one's axis labels included
DIFF_HEIGHT = 240           # px: the lower panel's height
BOTTOM = 70                 # px below the last panel, for its axis labels
RADIUS = 4.5                # px: an instance's circle
ONE_COLOUR = "#1f77b4"       # every circle's when the problem does not group
SPARE_COLOURS = ("#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
STYLE = """
text { font-family: sans-serif; font-size: 12px; fill: #222; }
.title { font-size: 16px; font-weight: bold; }
.subtitle { font-size: 12px; fill: #555; }
.axis-label { font-size: 13px; }
.tick { font-size: 11px; fill: #555; }
.grid { stroke: #e4e4e4; stroke-width: 1; }
.axis { stroke: #444; stroke-width: 1; fill: none; }
.floor-line { stroke: #444; stroke-width: 1.2; stroke-dasharray: 6 4; }
.baseline-line { stroke: #999; stroke-width: 1.2; stroke-dasharray: 2 3; }
.zero-line { stroke: #444; stroke-width: 1.2; }
.instance, .difference { stroke: #fff; stroke-width: 0.8; fill-opacity: 0.85; }
"""


def colours(groups, own):
    """{group: colour}: its `own` colour, or the next spare one."""
    spare = iter(SPARE_COLOURS * (1 + len(groups)))
    return {g: own.get(g) or next(spare) for g in groups}


def nice_step(span, count=8):
    """A round tick step (1, 2 or 5 times a power of ten) giving about
    `count` ticks over `span` > 0."""
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    return next(k * power for k in (1, 2, 5, 10) if k * power >= raw)


def span(values):
    """(low, high): round bounds a little beyond `values`, low not below 0."""
    low, high = min(values), max(values)
    margin = max(high - low, 0.1) * 0.04
    step = nice_step(high - low + 2 * margin)
    return (max(0.0, math.floor((low - margin) / step) * step),
            math.ceil((high + margin) / step) * step)


def ticks(low, high, step):
    """The multiples of `step` from `low` to `high`, inclusive."""
    first = math.ceil(low / step - 1e-9)
    return [round(k * step, 10) for k in range(first, math.floor(high / step + 1e-9) + 1)]


def _number(x):
    return ("%.3f" % x).rstrip("0").rstrip(".") if x else "0"


class Canvas:
    """SVG elements in order; each coordinate rounded to 0.1 px."""

    def __init__(self):
        self.parts = []

    def add(self, tag, body=None, **attributes):
        text = " ".join("%s=%s" % (key.rstrip("_").replace("_", "-"),
                                   quoteattr(_format(value)))
                        for key, value in attributes.items())
        if body is None:
            self.parts.append("<%s %s/>" % (tag, text))
        else:
            self.parts.append("<%s %s>%s</%s>" % (tag, text, body, tag))

    def text(self, x, y, words, **attributes):
        self.add("text", escape(words), x=x, y=y, **attributes)


def _format(value):
    return "%.1f" % value if isinstance(value, float) else str(value)


def axes(canvas, *, box, x_range, y_range, x_label, y_label):
    """A panel's grid, ticks, frame and labels; its (x, y) scale functions."""
    left, top, width, height = box
    (x0, x1), (y0, y1) = x_range, y_range

    def sx(x):
        return left + (x - x0) / (x1 - x0) * width

    def sy(y):
        return top + height - (y - y0) / (y1 - y0) * height

    for x in ticks(x0, x1, nice_step(x1 - x0)):
        canvas.add("line", class_="grid", x1=sx(x), y1=float(top), x2=sx(x), y2=float(top + height))
        canvas.text(sx(x), top + height + 16, _number(x), class_="tick", text_anchor="middle")
    for y in ticks(y0, y1, nice_step(y1 - y0)):
        canvas.add("line", class_="grid", x1=float(left), y1=sy(y), x2=float(left + width), y2=sy(y))
        canvas.text(left - 8, sy(y) + 4, _number(y), class_="tick", text_anchor="end")
    canvas.add("rect", class_="axis", x=float(left), y=float(top), width=float(width),
               height=float(height))
    canvas.text(left + width / 2, top + height + 38, x_label, class_="axis-label",
                text_anchor="middle")
    canvas.text(left - 52, top + height / 2, y_label, class_="axis-label",
                text_anchor="middle",
                transform="rotate(-90 %.1f %.1f)" % (left - 52, top + height / 2))
    return sx, sy


def _tooltip(problem, item, extra=""):
    return "<title>%s</title>" % escape(problem.describe(item) + extra)


def _fill(problem, colour, item, default):
    return ONE_COLOUR if problem.GROUP is None else colour.get(item[problem.GROUP], default)


def draw(items, *, problem, rows, source, pairs=None, figures=None, against=None):
    """The SVG text: `items` the instances that passed, `rows` their
    report.group_rows, `source` the result's name; with `pairs`,
    `figures` and `against` (the other result's name), the difference panel."""
    colour = colours([row[0] for row in rows if row[0] != "all"], problem.COLOURS)
    bounds = [problem.bound(i) for i in items]
    scores = [i[problem.SCORE] for i in items]
    low, high = span(bounds + scores + ([problem.REFERENCE[0]] if problem.REFERENCE else [])
                     or [0.0])
    xs, x_range, x_label = bounds, (low, high), problem.AXES[0]
    if problem.ACROSS is not None:
        x_label, where = problem.ACROSS
        xs = [where(i) for i in items]
        x_range = span(xs or [0.0])
    height = TOP + PLOT + BOTTOM + (GAP + DIFF_HEIGHT if pairs else 0)
    canvas = Canvas()
    if rows:
        _, count, score, least, gap = rows[-1]
        title = "%s %.4f, %s %.4f, gap %.4f (%d instances)" % (
            problem.SCORE_NAME, score, problem.BOUND_NAME.replace("_", " "), least, gap, count)
    else:
        title = "no instance passed"
    canvas.text(LEFT, 28, title, class_="title")
    canvas.text(LEFT, 48, source, class_="subtitle")
    sx, sy = axes(canvas, box=(LEFT, TOP, PLOT, PLOT), x_range=x_range,
                  y_range=(low, high), x_label=x_label, y_label=problem.AXES[1])
    if problem.ACROSS is None:
        canvas.add("line", class_="floor-line", x1=sx(low), y1=sy(low), x2=sx(high),
                   y2=sy(high))
    else:                   # each instance's bound, a dash above or below its circle
        for x, y in zip(xs, bounds):
            canvas.add("line", class_="floor-line", x1=sx(x) - RADIUS, y1=sy(y),
                       x2=sx(x) + RADIUS, y2=sy(y))
    if problem.REFERENCE:
        level = problem.REFERENCE[0]
        canvas.add("line", class_="baseline-line", x1=sx(x_range[0]), y1=sy(level),
                   x2=sx(x_range[1]), y2=sy(level))
    for item, x, y in zip(items, xs, scores):
        group = {} if problem.GROUP is None else {"data_" + problem.GROUP: item[problem.GROUP]}
        canvas.add("circle", _tooltip(problem, item), class_="instance", cx=sx(x), cy=sy(y),
                   r=RADIUS, fill=_fill(problem, colour, item, None),
                   data_index=item["index"], **group)
    legend(canvas, problem, rows, colour)
    if pairs:
        difference_panel(canvas, problem, pairs, figures, against, colour, x_range, x_label)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d">\n<style>%s</style>\n'
            '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>\n%s\n</svg>\n'
            % (WIDTH, height, WIDTH, height, STYLE, WIDTH, height, "\n".join(canvas.parts)))


def legend(canvas, problem, rows, colour):
    """The groups with their figures, and what the lines mean."""
    y = TOP + 6
    heading = "score / %s" % problem.BOUND_SHORT
    canvas.text(LEGEND, y, heading if problem.GROUP is None
                else "%s: %s" % (problem.GROUP, heading),
                class_="axis-label")
    for name, count, score, low, _ in rows:
        y += 38
        if name != "all":
            canvas.add("circle", cx=float(LEGEND + 6), cy=float(y - 4), r=RADIUS + 1,
                       fill=colour[name])
        canvas.text(LEGEND + 18, y, "%s (%d)" % (name, count))
        canvas.text(LEGEND + 18, y + 15, "%.4f / %.4f" % (score, low), class_="tick")
    y += 14
    lines = [("floor-line", "score = %s" % problem.BOUND_SHORT if problem.ACROSS is None
              else "its %s" % problem.BOUND_SHORT)]
    if problem.REFERENCE:
        lines.append(("baseline-line", problem.REFERENCE[1]))
    for style, words in lines:
        y += 24
        canvas.add("line", class_=style, x1=float(LEGEND), y1=float(y - 4),
                   x2=float(LEGEND + 28), y2=float(y - 4))
        canvas.text(LEGEND + 36, y, words)
    canvas.text(LEGEND, y + 30, "%s the %s:" % ("above" if problem.LOWER_IS_BETTER else "below",
                                               "diagonal" if problem.ACROSS is None else "dash"),
                class_="tick")
    canvas.text(LEGEND, y + 45, "%s left to win" % problem.COUNT, class_="tick")


def difference_panel(canvas, problem, pairs, figures, against, colour, x_range, x_label):
    """Each compared instance's score minus the other result's."""
    top = TOP + PLOT + GAP
    differences = [a[problem.SCORE] - b[problem.SCORE] for a, b in pairs]
    reach = max([abs(d) for d in differences] + [0.01]) * 1.05
    step = nice_step(2 * reach)
    reach = math.ceil(reach / step) * step
    interval = figures["mean_difference_ci95"]
    canvas.text(LEFT, top - 44, "against %s" % against, class_="axis-label")
    canvas.text(LEFT, top - 26, "W/L/D %s (a win: %s), mean difference %+.4f%s"
                % (figures["W/L/D"], problem.WIN[0], figures["mean_difference"],
                   ", 95%% interval [%+.4f, %+.4f]" % tuple(interval) if interval else ""),
                class_="subtitle")
    sx, sy = axes(canvas, box=(LEFT, top, PLOT, DIFF_HEIGHT), x_range=x_range,
                  y_range=(-reach, reach), x_label=x_label,
                  y_label="score minus the other's")
    canvas.add("line", class_="zero-line", x1=sx(x_range[0]), y1=sy(0.0), x2=sx(x_range[1]),
               y2=sy(0.0))
    for (mine, theirs), d in zip(pairs, differences):
        canvas.add("circle", _tooltip(problem, mine, "; other result %d %s, difference %+.4f"
                                      % (theirs[problem.COUNT], problem.COUNT, d)),
                   class_="difference", cx=sx(problem.bound(mine) if problem.ACROSS is None
                                              else problem.ACROSS[1](mine)), cy=sy(d),
                   r=RADIUS, fill=_fill(problem, colour, mine, SPARE_COLOURS[-1]),
                   data_index=mine["index"])
    above, below = problem.WIN if not problem.LOWER_IS_BETTER else problem.WIN[::-1]
    canvas.text(LEGEND, top + 14, "above 0: %s" % above, class_="tick")
    canvas.text(LEGEND, top + 29, "than the other result", class_="tick")
    canvas.text(LEGEND, top + DIFF_HEIGHT - 22, "below 0: %s" % below, class_="tick")
    canvas.text(LEGEND, top + DIFF_HEIGHT - 7, "than the other result", class_="tick")

