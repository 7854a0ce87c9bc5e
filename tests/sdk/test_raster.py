"""The PNG of a plot (arh_grader/raster.py on bitmap.py and glyphs.py),
read back with zlib and struct (support.read_png): a valid file as large as
the SVG, each mark at the pixel the SVG's axes give it in its colour, the
frame on its edges, each label the glyphs of its words in its box (the y
axis's turned a quarter), the style sheet's rules over attributes as in a
browser, any text drawable, the same bytes for the same plot, and what it
cannot draw named."""

import math
import unittest
import xml.etree.ElementTree as ET

import support
from arh_grader import bitmap, glyphs, raster, svg

NS = {"s": "http://www.w3.org/2000/svg"}
WHITE, INK, FRAME = (255, 255, 255), (0x22, 0x22, 0x22), (0x44, 0x44, 0x44)
BLUE, RED, GREY, PURPLE = "#1f77b4", "#d62728", "#8c8c8c", "#9467bd"


def rgb(colour):
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


def plot_of(marks=True, **options):
    """A toy plot: guesses against the hidden number, one of each kind of mark."""
    plot = svg.Plot(title=["Guesses per hidden number", "the toy problem"],
                    subtitle=["one run, by hand"], x_label="hidden number",
                    y_label="guesses", **options)
    if marks:
        plot.line([(1, 2), (6, 3)], colour=RED, css="path", dash="3 3")
    plot.scatter([(1, 2), (5, 7)], colour=BLUE, label="dots", css="dot", opacity=1.0)
    if marks:
        plot.scatter([(3.5, 4.5)], colour=GREY, hollow=True, label="rings", css="ring",
                     opacity=1.0)
        plot.scatter([(8, 1)], colour=PURPLE, shape="cross", label="crosses", css="cross",
                     opacity=1.0)
        plot.error_bars([(6, 3, 2, 4)], colour=RED, label="kept", css="bar")
        plot.note("a note")
    return plot


def read(case, plot):
    """(the SVG's root, the PNG's rows) of `plot`."""
    width, height, rows = support.read_png(case, plot.render_png())
    case.assertEqual((width, height), (plot.width, plot.height))
    return ET.fromstring(plot.render()), rows


def axes(root):
    """(sx, sy, (x, y, width, height)): value -> px as the SVG's frame maps it."""
    rect = root.find(".//s:rect[@class='frame']", NS)
    x, y, width, height = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
    x0, x1 = map(float, rect.get("data-x-range").split())
    y0, y1 = map(float, rect.get("data-y-range").split())
    return (lambda v: x + (v - x0) / (x1 - x0) * width,
            lambda v: y + height - (v - y0) / (y1 - y0) * height, (x, y, width, height))


def ink(words, x, y, face, anchor="start"):
    """The pixels `words` inks in `face`, its baseline at y, anchored at x:
    the glyphs' set bits, worked out here from the face's rows."""
    words = glyphs.spell(words)
    left = math.floor(x - {"start": 0, "middle": 0.5, "end": 1}[anchor] * len(words) * face.width
                      + 0.5)
    top = math.floor(y + 0.5) - face.ascent
    return {(left + k * face.width + column, top + row)
            for k, char in enumerate(words) for row, bits in enumerate(face.glyphs[char])
            for column in range(face.width) if bits >> (face.width - 1 - column) & 1}


class FileTest(unittest.TestCase):
    def test_the_file_is_an_rgb_png_as_large_as_the_svg(self):
        for size in ((900, 600), (640, 420)):
            with self.subTest(size=size):
                width, height, rows = support.read_png(self, plot_of(
                    width=size[0], height=size[1]).render_png())
                self.assertEqual((width, height, len(rows), len(rows[0])), size + size[::-1])

    def test_the_encoder_writes_the_pixels_given(self):
        data = bitmap.encode(3, 2, bytes(range(18)))
        self.assertEqual(support.read_png(self, data)[2],
                         [[(0, 1, 2), (3, 4, 5), (6, 7, 8)], [(9, 10, 11), (12, 13, 14),
                                                              (15, 16, 17)]])
        with self.assertRaises(ValueError):
            bitmap.encode(3, 2, bytes(17))

    def test_the_same_plot_gives_the_same_bytes(self):
        self.assertEqual(plot_of().render_png(), plot_of().render_png())
        self.assertNotEqual(plot_of().render_png(), plot_of(marks=False).render_png())

    def test_the_png_goes_beside_the_svg(self):
        self.assertEqual(raster.beside("result/result.svg"), "result/result.png")
        self.assertEqual(raster.beside(".loop/gap"), ".loop/gap.png")
        with self.assertRaises(ValueError):
            raster.beside("result/result.png")


class MarksTest(unittest.TestCase):
    def test_each_mark_lands_where_the_axes_map_it_in_its_colour(self):
        root, rows = read(self, plot_of())
        sx, sy, _ = axes(root)
        for name, (x, y), colour in (("dot", (1, 2), BLUE), ("dot", (5, 7), BLUE),
                                     ("cross", (8, 1), PURPLE), ("bar's square", (6, 3), RED)):
            with self.subTest(mark=name, at=(x, y)):
                self.assertEqual(rows[math.floor(sy(y))][math.floor(sx(x))], rgb(colour))
        with self.subTest(mark="ring"):
            cx, cy = sx(3.5), sy(4.5)
            self.assertEqual(rows[math.floor(cy)][math.floor(cx)], WHITE)
            ring = rows[math.floor(cy)][math.floor(cx) + 2:math.floor(cx) + 8]
            darkest = min(ring)     # the ring's edges are anti-aliased: its middle is darkest
            self.assertEqual(len(set(darkest)), 1, ring)    # a grey
            self.assertLessEqual(darkest[0], 170, ring)
        with self.subTest(mark="the bar's caps"):
            for value in (2, 4):
                self.assertEqual(rows[math.floor(sy(value))][math.floor(sx(6)) + 4], rgb(RED))

    def test_the_frame_is_on_its_edges_and_the_grid_inside(self):
        root, rows = read(self, plot_of(marks=False))
        _, sy, (x, y, width, height) = axes(root)
        left, top, right, bottom = (math.floor(v) for v in (x, y, x + width, y + height))
        for row in range(top, bottom + 1):
            with self.subTest(row=row):
                self.assertEqual((rows[row][left], rows[row][right]), (FRAME, FRAME))
        for column in range(left, right + 1):
            with self.subTest(column=column):
                self.assertEqual((rows[top][column], rows[bottom][column]), (FRAME, FRAME))
        grid = root.findall(".//s:line[@class='grid']", NS)[0]
        self.assertEqual(rows[math.floor(float(grid.get("y1")))][left + 5], (0xE8, 0xE8, 0xE8))
        self.assertEqual(rows[top - 1][left + 5], WHITE)

    def test_a_class_rule_wins_over_the_colour_given_as_in_a_browser(self):
        for css, colour in (("across", FRAME), ("zero-line", rgb("#999999"))):
            with self.subTest(css=css):
                plot = plot_of(marks=False)
                plot.across(3.0, css=css, colour="#999999")
                root, rows = read(self, plot)
                sx, sy, _ = axes(root)
                self.assertEqual(rows[math.floor(sy(3.0))][math.floor(sx(3))], colour)


class TextTest(unittest.TestCase):
    def check_label(self, rows, element, face):
        """Every pixel the label's glyphs ink is its colour, the rest of its box white."""
        anchor = element.get("text-anchor", "start")
        expected = ink(element.text, float(element.get("x")), float(element.get("y")), face,
                       anchor)
        self.assertTrue(expected)
        grey = {"tick", "subtitle"} & set(element.get("class", "").split())
        colour = (0x55, 0x55, 0x55) if grey else INK
        columns = [x for x, _ in expected]
        top = math.floor(float(element.get("y")) + 0.5) - face.ascent
        for row in range(top, top + face.height):
            for column in range(min(columns), max(columns) + 1):
                want = colour if (column, row) in expected else WHITE
                if rows[row][column] != want:
                    self.fail("%r: pixel %s is %s, not %s" % (element.text, (column, row),
                                                              rows[row][column], want))

    def test_each_label_is_its_glyphs_in_its_box(self):
        root, rows = read(self, plot_of())
        texts = root.findall(".//s:text", NS)
        chosen = {"title": ("title", "7x13B"), "subtitle": ("subtitle", "6x13"),
                  "a y tick, ending at its x": ("tick y-tick", "6x13"),
                  "an x tick, centred": ("tick x-tick", "6x13"),
                  "the x axis's label": ("axis-label", "7x13"),
                  "a legend entry": ("legend-entry", "6x13")}
        for what, (css, face) in chosen.items():
            element = next(t for t in texts if t.get("class") == css
                           and t.get("transform") is None)
            with self.subTest(label=what, text=element.text):
                self.check_label(rows, element, glyphs.face(face))

    def test_the_y_axis_label_is_turned_a_quarter(self):
        root, rows = read(self, plot_of())
        label = next(t for t in root.findall(".//s:text[@class='axis-label']", NS)
                     if t.get("transform"))
        cx, cy = (float(v) for v in label.get("transform")[len("rotate(-90 "):-1].split())
        upright = ink(label.text, float(label.get("x")), float(label.get("y")),
                      glyphs.face("7x13"), "middle")
        turned = {(math.floor(cx + (y + 0.5 - cy)), math.floor(cy - (x + 0.5 - cx)))
                  for x, y in upright}
        found = {(x, y) for y, row in enumerate(rows) for x, pixel in enumerate(row[:25])
                 if pixel != WHITE}
        self.assertEqual(found, turned)
        self.assertGreater(max(y for _, y in found) - min(y for _, y in found),
                           max(x for x, _ in found) - min(x for x, _ in found))

    def test_any_text_can_be_drawn(self):
        words = "\u00b5s \u2212 1 \u2265 2 \u2248 \u221e, e\u0301t\u00e9, \u4e2d \U0001f600"
        self.assertEqual(glyphs.spell(words), "\u00b5s \u2212 1 \u2265 2 ~ inf, \u00e9t\u00e9, ? ?")
        plot = svg.Plot(title=words, x_label="\u0394t (\u00b5s)", y_label="\u2265 0",
                        subtitle=["tab\there"])
        plot.scatter([(0, 0)], colour=BLUE, label=words)
        root, rows = read(self, plot)
        self.check_label(rows, root.find(".//s:text[@class='title']", NS),
                         glyphs.face("7x13B"))

    def test_every_face_has_every_character_in_its_cell(self):
        for name, width in (("6x13", 6), ("7x13", 7), ("7x13B", 7)):
            face = glyphs.face(name)
            with self.subTest(face=name):
                self.assertEqual((face.width, face.height, face.ascent), (width, 13, 11))
                self.assertEqual(set(face.glyphs), set(glyphs.CHARS))
                self.assertTrue(set(map(chr, range(32, 127))) <= set(face.glyphs))
                for char, rows in face.glyphs.items():
                    self.assertEqual(len(rows), 13, char)
                    self.assertTrue(all(0 <= bits < 1 << width for bits in rows), char)
                    self.assertEqual(any(rows), char != " ", char)


class RefusedTest(unittest.TestCase):
    def svg_of(self, body, style=""):
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">'
                '<style>%s</style>%s</svg>' % (style, body))

    def test_what_it_cannot_draw_is_named(self):
        for body, style, named in (
                ('<ellipse cx="5" cy="5" rx="2" ry="1"/>', "", "ellipse"),
                ('<path d="M1 1C2 2 3 3 4 4" fill="none" stroke="#000"/>', "", "M1 1C2 2 3 3 4 4"),
                ('<line x1="0" y1="0" x2="5" y2="5" marker-end="url(#a)"/>', "", "marker-end"),
                ('<rect x="0" y="0" width="5" height="5" fill="rebeccapurple"/>', "",
                 "rebeccapurple"),
                ('<rect x="0" y="0" width="5" height="5" transform="scale(2)"/>', "", "scale"),
                ('<text x="1" y="9">a<tspan>b</tspan></text>', "", "tspan"),
                ("", "g > line { stroke: red; }", "g > line"),
                ("", ".grid { filter: blur(1px); }", "filter")):
            with self.subTest(named=named):
                with self.assertRaises(ValueError) as caught:
                    raster.png(self.svg_of(body, style))
                self.assertIn(named, str(caught.exception))

    def test_what_draws_nothing_is_passed_over(self):
        data = raster.png(self.svg_of('<title>t</title><desc>d</desc>'
                                      '<line x1="0" y1="5" x2="20" y2="5" stroke="#000">'
                                      '<title>a tip</title></line>'))
        rows = support.read_png(self, data)[2]
        self.assertEqual(rows[5], [(0, 0, 0)] * 20)
        self.assertEqual(rows[4], [WHITE] * 20)


if __name__ == "__main__":
    unittest.main()
