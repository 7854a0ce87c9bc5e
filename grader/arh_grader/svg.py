"""A small plot drawn as SVG text, standard library only, which knows no
problem: points, error bars, lines across, axes with round ticks, a title
and a legend. Any browser opens what it writes.

    plot = svg.Plot(title="what it shows", subtitle=["figures", "source"],
                    x_label="n", y_label="bits")
    plot.scatter([(64, 3.5), (300, -1.0)], colour="#1f77b4", label="uniform (2)",
                 css="instance", tips=["instance 0", "instance 1"],
                 data=[{"index": 0}, {"index": 1}])
    plot.error_bars([(1, -0.02, -0.03, -0.01)], colour="#d62728", label="kept")
    plot.across(0.0, label="zero", css="zero-line")
    text = plot.render()
    data = plot.render_png()        # the same picture as PNG bytes (raster.py)

The plot area is the element `<rect class="frame">`; its attributes
data-x-range and data-y-range hold the ranges the axes map onto it, so that
a value v lies at `y + height - (v - low) / (high - low) * height` (and the
same across), rounded as `number` rounds (the ranges are written as Python's
repr of the floats used). Every figure is formatted with a fixed number of
decimals and elements come in the order they were added, so the same calls
give the same bytes. Text is escaped (xml.sax.saxutils). Nothing here reads
or writes a file. render() is the one description of the picture:
render_png() draws that text again on pixels (raster.py), for a reader who
opens PNG but not SVG.
"""

import math
from xml.sax.saxutils import escape, quoteattr

from . import raster

FONT = 12                   # px, ordinary text
CHAR = 0.62                 # a character's width over the font size, about, in sans-serif
STYLE = """
text { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 12px; fill: #222; }
.title { font-size: 16px; font-weight: bold; }
.title-more { font-size: 14px; }
.subtitle { font-size: 12px; fill: #555; }
.axis-label { font-size: 13px; }
.tick { font-size: 11px; fill: #555; }
.legend-heading { font-size: 12px; font-weight: bold; }
.grid { stroke: #e8e8e8; stroke-width: 1; }
.frame { stroke: #444; stroke-width: 1; fill: none; }
.across { stroke: #444; stroke-width: 1.2; }
"""


def number(value):
    """A coordinate or a tick's text: at most 2 decimals, no trailing zeros."""
    text = "%.2f" % value
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text in ("-0", "") else text


def nice_step(span, count=8):
    """A round step (1, 2 or 5 times a power of ten) giving about `count`
    steps over `span` > 0."""
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    return next(k * power for k in (1, 2, 5, 10) if k * power >= raw * (1 - 1e-9))


def nice_range(values, *, pad=0.05, count=8):
    """(low, high, step): the span of `values` widened by `pad` of it on
    each side (bounds of 6 significant digits), and a round tick step."""
    low, high = min(values), max(values)
    width = high - low or max(abs(high), 1.0)
    low = float("%.6g" % (low - pad * width))
    high = float("%.6g" % (high + pad * width))
    return low, high, nice_step(high - low, count)


def tick_text(value, step):
    """A tick's words: as many decimals as `step` needs."""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    text = "%.*f" % (decimals, value)
    return "0" if float(text) == 0 else text


def tick_values(low, high, step):
    """The multiples of `step` from `low` to `high`, inclusive."""
    first = math.ceil(low / step - 1e-9)
    return [round(k * step, 10) for k in range(first, math.floor(high / step + 1e-9) + 1)]


def text_width(words, size=FONT):
    """About how wide `words` is drawn, in px."""
    return len(words) * size * CHAR


def attributes(values):
    """`key="value"` pairs: a trailing _ dropped, other _ as -, floats by `number`."""
    return " ".join("%s=%s" % (key.rstrip("_").replace("_", "-"),
                               quoteattr(number(v) if isinstance(v, float) else str(v)))
                    for key, v in values.items() if v is not None)


def cross(x, y, r):
    """The path of an x of half-width r centred on (x, y)."""
    return "M%s %sL%s %sM%s %sL%s %s" % tuple(number(v) for v in (
        x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r))


class Plot:
    """One plot area with its axes, title and legend (to the right)."""

    def __init__(self, *, title, x_label, y_label, subtitle=(), width=900, height=600,
                 x_include=(), y_include=()):
        self.title = [title] if isinstance(title, str) else list(title)
        self.subtitle = list(subtitle)
        self.x_label, self.y_label = x_label, y_label
        self.width, self.height = width, height
        self.x_include, self.y_include = list(x_include), list(y_include)
        self.layers = []            # (kind, options), drawn in order
        self.legend = []            # (kind, colour, label, css)
        self.notes = []             # lines of small text under the legend
        self.x_labels = None        # [(x, text)]: ticks of their own across
        self.xs, self.ys = [], []

    def _key(self, kind, colour, label, css):
        if label is not None:
            self.legend.append((kind, colour, label, css))

    def scatter(self, points, *, colour, label=None, css="point", radius=4.5, tips=None,
                data=None, hollow=False, opacity=0.9, shape="circle"):
        """A circle (class `css`; shape "cross": an x, a path) at each (x, y);
        `tips` each one's hover text, `data` each one's {name: value},
        written as data-name attributes; `hollow`: a ring."""
        points = [(float(x), float(y)) for x, y in points]
        self.xs += [x for x, _ in points]
        self.ys += [y for _, y in points]
        self.layers.append(("scatter", dict(points=points, colour=colour, css=css,
                                            radius=radius, tips=tips, data=data,
                                            hollow=hollow, opacity=opacity, shape=shape)))
        self._key("cross" if shape == "cross" else "hollow" if hollow else "dot", colour,
                  label, css)

    def error_bars(self, bars, *, colour, label=None, css="estimate", tips=None, data=None):
        """At each (x, y, low, high) a filled square at y and a capped bar
        from low to high (none where low or high is None)."""
        bars = [(float(x), float(y), None if lo is None else float(lo),
                 None if hi is None else float(hi)) for x, y, lo, hi in bars]
        self.xs += [b[0] for b in bars]
        self.ys += [v for b in bars for v in b[1:] if v is not None]
        self.layers.append(("bars", dict(bars=bars, colour=colour, css=css, tips=tips,
                                         data=data)))
        self._key("bar", colour, label, css)

    def line(self, points, *, colour, label=None, css="line", dash=None, thickness=1.5):
        """A polyline through the (x, y) points, in order."""
        points = [(float(x), float(y)) for x, y in points]
        self.xs += [x for x, _ in points]
        self.ys += [y for _, y in points]
        self.layers.append(("line", dict(points=points, colour=colour, css=css, dash=dash,
                                         thickness=thickness)))
        self._key("line", colour, label, css)

    def across(self, y, *, label=None, css="across", colour="#444", dash=None):
        """A line across the whole plot area at height y."""
        self.ys.append(float(y))
        self.layers.append(("across", dict(y=float(y), css=css, colour=colour, dash=dash)))
        self._key("line", colour, label, css)

    def note(self, words):
        """A line of small text under the legend."""
        self.notes.append(words)

    def label_x(self, labels):
        """Ticks of their own across: [(x, text)], drawn slanted where they
        would crowd, and thinned (the first ones given win) where still too many."""
        self.x_labels = [(float(x), text) for x, text in labels]

    # the drawing

    def _layout(self):
        legend = [label for _, _, label, _ in self.legend] + self.notes
        legend_width = max([text_width(w) for w in legend] + [0]) + (40 if legend else 0)
        ys = self.ys + self.y_include or [0.0]
        y_low, y_high, y_step = nice_range(ys)
        tick_width = max(text_width(tick_text(v, y_step), 11)
                         for v in tick_values(y_low, y_high, y_step))
        left = 30 + tick_width + 20
        top = 24 + 20 * len(self.title) + 18 * len(self.subtitle) + 16
        slanted = self._slanted()
        bottom = 62 + (max(text_width(t, 11) for _, t in self.x_labels) * 0.7 if slanted
                       else 0)
        right = self.width - 20 - legend_width
        return left, top, right - left, self.height - bottom - top, (y_low, y_high, y_step)

    def _slanted(self):
        if not self.x_labels:
            return False
        widest = max(text_width(t, 11) for _, t in self.x_labels)
        return widest + 8 > self.width * 0.7 / max(len(self.x_labels), 1)

    def render(self):
        """The SVG text, a whole document."""
        left, top, width, height, (y_low, y_high, y_step) = self._layout()
        xs = self.xs + self.x_include + [x for x, _ in self.x_labels or []] or [0.0]
        if self.x_labels:
            x_low, x_high = min(xs) - 0.5, max(xs) + 0.5
            x_step = None
        else:
            x_low, x_high, x_step = nice_range(xs)

        def sx(x):
            return left + (x - x_low) / (x_high - x_low) * width

        def sy(y):
            return top + height - (y - y_low) / (y_high - y_low) * height

        parts = []

        def add(tag, body=None, **values):
            if body is None:
                parts.append("<%s %s/>" % (tag, attributes(values)))
            else:
                parts.append("<%s %s>%s</%s>" % (tag, attributes(values), body, tag))

        def text(x, y, words, **values):
            add("text", escape(words), x=float(x), y=float(y), **values)

        for k, line in enumerate(self.title):
            text(left, 26 + 20 * k, line, class_="title" if k == 0 else "title title-more")
        for k, line in enumerate(self.subtitle):
            text(left, 26 + 20 * len(self.title) + 18 * k, line, class_="subtitle")
        for v in tick_values(y_low, y_high, y_step):
            add("line", class_="grid", x1=float(left), y1=sy(v), x2=float(left + width),
                y2=sy(v))
            text(left - 8, sy(v) + 4, tick_text(v, y_step), class_="tick y-tick",
                 text_anchor="end")
        if x_step is not None:
            for v in tick_values(x_low, x_high, x_step):
                add("line", class_="grid", x1=sx(v), y1=float(top), x2=sx(v),
                    y2=float(top + height))
                text(sx(v), top + height + 16, tick_text(v, x_step), class_="tick x-tick",
                     text_anchor="middle")
        else:
            self._draw_x_labels(add, text, sx, top + height)
        add("rect", class_="frame", x=float(left), y=float(top), width=float(width),
            height=float(height), data_x_range="%r %r" % (x_low, x_high),
            data_y_range="%r %r" % (y_low, y_high))
        text(left + width / 2, self.height - 14, self.x_label, class_="axis-label",
             text_anchor="middle")
        text(18, top + height / 2, self.y_label, class_="axis-label", text_anchor="middle",
             transform="rotate(-90 18 %s)" % number(top + height / 2))
        for kind, o in self.layers:
            getattr(self, "_draw_" + kind)(add, sx, sy, left, width, **o)
        self._draw_legend(add, text, left + width + 24, top)
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                'viewBox="0 0 %d %d">\n<style>%s</style>\n'
                '<title>%s</title>\n'
                '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>\n%s\n</svg>\n'
                % (self.width, self.height, self.width, self.height, STYLE,
                   escape(" ".join(self.title)), self.width, self.height, "\n".join(parts)))

    def render_png(self):
        """The bytes of a PNG file of the same picture: render()'s text drawn
        by raster.py, as wide and high."""
        return raster.png(self.render())

    def _draw_x_labels(self, add, text, sx, base):
        slanted = self._slanted()
        room = 15 if slanted else max(text_width(t, 11) for _, t in self.x_labels) + 10
        chosen = []
        for x, words in self.x_labels:
            if all(abs(sx(x) - sx(other)) >= room for other, _ in chosen):
                chosen.append((x, words))
        for x, words in sorted(chosen):
            add("line", class_="grid", x1=sx(x), y1=float(base), x2=sx(x), y2=float(base + 5))
            if slanted:
                text(sx(x) + 4, base + 14, words, class_="tick x-tick", text_anchor="end",
                     transform="rotate(-40 %s %s)" % (number(sx(x) + 4), number(base + 14)))
            else:
                text(sx(x), base + 16, words, class_="tick x-tick", text_anchor="middle")

    @staticmethod
    def _draw_scatter(add, sx, sy, left, width, *, points, colour, css, radius, tips, data,
                      hollow, opacity, shape):
        for k, (x, y) in enumerate(points):
            extra = {"data_" + key: value for key, value in (data[k] if data else {}).items()}
            tip = "<title>%s</title>" % escape(tips[k]) if tips else None
            if shape == "cross":
                add("path", tip, class_=css, d=cross(sx(x), sy(y), radius), fill="none",
                    stroke=colour, stroke_width="2", opacity=number(opacity), **extra)
                continue
            paint = dict(fill="none", stroke=colour, stroke_width="1.5") if hollow else dict(
                fill=colour, stroke="#ffffff", stroke_width="0.8")
            add("circle", tip, class_=css, cx=sx(x), cy=sy(y), r=float(radius),
                opacity=number(opacity), **paint, **extra)

    @staticmethod
    def _draw_bars(add, sx, sy, left, width, *, bars, colour, css, tips, data):
        for k, (x, y, low, high) in enumerate(bars):
            extra = {"data_" + key: value for key, value in (data[k] if data else {}).items()}
            parts = []
            if low is not None and high is not None:
                for x1, y1, x2, y2 in ((sx(x), sy(low), sx(x), sy(high)),
                                       (sx(x) - 5, sy(low), sx(x) + 5, sy(low)),
                                       (sx(x) - 5, sy(high), sx(x) + 5, sy(high))):
                    parts.append("<line %s/>" % attributes(dict(x1=x1, y1=y1, x2=x2, y2=y2)))
            parts.append("<rect %s/>" % attributes(dict(x=sx(x) - 4, y=sy(y) - 4, width=8.0,
                                                        height=8.0, fill=colour)))
            if tips:
                parts.append("<title>%s</title>" % escape(tips[k]))
            add("g", "".join(parts), class_=css, stroke=colour, stroke_width="1.5",
                data_x=repr(x), data_y=repr(y), **extra)

    @staticmethod
    def _draw_line(add, sx, sy, left, width, *, points, colour, css, dash, thickness):
        add("polyline", class_=css, fill="none", stroke=colour,
            stroke_width=number(thickness), stroke_dasharray=dash,
            points=" ".join("%s,%s" % (number(sx(x)), number(sy(y))) for x, y in points))

    @staticmethod
    def _draw_across(add, sx, sy, left, width, *, y, css, colour, dash):
        add("line", class_=css, x1=float(left), y1=sy(y), x2=float(left + width), y2=sy(y),
            stroke=colour, stroke_dasharray=dash, data_y=repr(y))

    def _draw_legend(self, add, text, x, y):
        for kind, colour, label, css in self.legend:
            y += 22
            middle = y - 4
            if kind == "dot":
                add("circle", cx=float(x + 10), cy=float(middle), r=5.0, fill=colour)
            elif kind == "hollow":
                add("circle", cx=float(x + 10), cy=float(middle), r=5.0, fill="none",
                    stroke=colour, stroke_width="1.5")
            elif kind == "cross":
                add("path", d=cross(x + 10.0, float(middle), 4.5), fill="none", stroke=colour,
                    stroke_width="2")
            elif kind == "bar":
                add("line", x1=float(x + 10), y1=float(middle - 8), x2=float(x + 10),
                    y2=float(middle + 8), stroke=colour, stroke_width="1.5")
                add("rect", x=float(x + 6), y=float(middle - 4), width=8.0, height=8.0,
                    fill=colour)
            else:
                add("line", x1=float(x), y1=float(middle), x2=float(x + 20), y2=float(middle),
                    stroke=colour, stroke_width="1.5")
            text(x + 28, y, label, class_="legend-entry", data_for=css)
        y += 10
        for words in self.notes:
            y += 16
            text(x, y, words, class_="tick note")
