"""The PNG of an SVG picture that svg.py or picture.py wrote, standard
library only: the same document drawn again on pixels (bitmap.py), for a
reader that opens PNG but not SVG.

    text = plot.render()            # svg.Plot, or picture.draw(...)
    data = raster.png(text)         # bytes of a PNG file, as wide and high as the SVG
    raster.beside("result/result.svg")          # "result/result.png": where it goes

There is one description of a picture, its SVG text; this module reads it
(xml.etree.ElementTree) and draws what it says, so the PNG cannot drift
from the SVG. It knows the part of SVG that those modules write: <svg>,
<g>, <rect>, <line>, <polyline>, <circle>, <path> of M and L commands,
and <text>, turned by transform="rotate(angle cx cy)" at most; <title>
(a hover text) and <style> draw nothing. Colours and lines come from
presentation attributes (fill, stroke, stroke-width, stroke-dasharray,
opacity, fill-opacity, font-size, font-weight, text-anchor...) and from
the <style> element's rules, whose selectors are a tag (`text`) or a
class (`.grid`): as in a browser, a rule wins over an attribute, a class
over a tag and a later rule over an earlier one, and a <g>'s fill, stroke
and font are its children's unless they say otherwise.

Text is drawn in glyphs.py's fixed faces: bold text in 7x13B, text of 13
px and more in 7x13, smaller text in 6x13; a character they lack is
spelled as glyphs.spell says. A glyph is narrower than a sans-serif
letter of the same size, so text never runs further than in the SVG.

Anything else (another element, attribute, transform or path command, a
colour that is not #rgb, #rrggbb or a few names) raises ValueError
naming it: when svg.py learns to draw something new, this module must
learn it too, and the tests that draw every kind of mark fail until then.
Nothing runs at import; the same text gives the same bytes.
"""

import math
import os
import re
import xml.etree.ElementTree as ET

from . import bitmap, glyphs

NS = "{http://www.w3.org/2000/svg}"
DEFAULTS = {"fill": "#000000", "stroke": "none", "stroke-width": "1", "font-size": "16px",
            "font-weight": "normal", "text-anchor": "start", "stroke-dasharray": "none",
            "fill-opacity": "1", "stroke-opacity": "1", "opacity": "1"}
INHERITED = set(DEFAULTS) - {"opacity"}
IGNORED = {"font-family", "class", "id"}    # read by nothing here (class: by the rules)
GEOMETRY = {"svg": {"width", "height", "viewBox", "version"}, "g": set(),
            "rect": {"x", "y", "width", "height"}, "line": {"x1", "y1", "x2", "y2"},
            "circle": {"cx", "cy", "r"}, "polyline": {"points"}, "path": {"d"},
            "text": {"x", "y", "transform"}}
SILENT = {"title", "style", "desc"}         # elements that draw nothing
NAMES = {"white": "#ffffff", "black": "#000000", "red": "#ff0000", "none": "none"}
ROTATE = re.compile(r"^\s*rotate\(\s*([-\d.e+]+)(?:[\s,]+([-\d.e+]+)[\s,]+([-\d.e+]+))?\s*\)\s*$")
PATH = re.compile(r"([MLml])\s*([-\d.e+]+)[\s,]+([-\d.e+]+)\s*")


def png(text):
    """The bytes of a PNG file of the SVG document `text`."""
    return render(text).png()


def beside(path):
    """Where the PNG of the SVG file `path` goes: the same name, ending
    .png in place of its extension; ValueError when that is `path` itself."""
    found = os.path.splitext(path)[0] + ".png"
    if os.path.normcase(found) == os.path.normcase(path):
        raise ValueError("%r names the SVG, and its PNG would take its place: "
                         "name a .svg file" % path)
    return found


def render(text):
    """A bitmap.Bitmap of the SVG document `text`, as wide and high as it says."""
    root = ET.fromstring(text)
    if root.tag != NS + "svg":
        raise ValueError("raster draws an <svg> document, not <%s>" % root.tag)
    canvas = bitmap.Bitmap(_length(root.get("width")), _length(root.get("height")))
    rules = parse_rules("".join(e.text or "" for e in root.iter(NS + "style")))
    _draw(canvas, root, dict(DEFAULTS), rules, 1.0)
    return canvas


def parse_rules(css):
    """[(selector kind, name, {property: value})] of a style sheet, in the
    order they apply: tag rules, then class rules, each in the sheet's order."""
    found = []
    for order, block in enumerate(css.split("}")):
        if not block.strip():
            continue
        selectors, brace, body = block.partition("{")
        if not brace:
            raise ValueError("raster cannot read the style rule %r" % block.strip())
        declared = {}
        for declaration in body.split(";"):
            name, _, value = declaration.partition(":")
            if name.strip():
                declared[_property(name.strip())] = value.strip()
        for selector in selectors.split(","):
            selector = selector.strip()
            if re.fullmatch(r"[a-z]+", selector):
                found.append((0, order, "tag", selector, declared))
            elif re.fullmatch(r"\.[A-Za-z][\w-]*", selector):
                found.append((1, order, "class", selector[1:], declared))
            else:
                raise ValueError("raster cannot match the selector %r" % selector)
    return [rule[2:] for rule in sorted(found, key=lambda rule: rule[:2])]


def _property(name):
    if name not in DEFAULTS and name not in IGNORED:
        raise ValueError("raster cannot draw the property %r" % name)
    return name


def _length(value):
    return float((value or "0").strip().removesuffix("px"))


def colour(value):
    """(r, g, b) of "#rgb", "#rrggbb" or a name of NAMES; None for "none"."""
    value = NAMES.get(value.strip().lower(), value.strip().lower())
    if value == "none":
        return None
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        return tuple(int(digit * 2, 16) for digit in value[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        return tuple(int(value[k:k + 2], 16) for k in (1, 3, 5))
    raise ValueError("raster cannot paint the colour %r" % value)


def style_of(element, tag, inherited, rules):
    """The element's properties: its parent's inherited ones, then its own
    attributes, then the rules that match its tag or one of its classes."""
    style = {name: inherited[name] for name in INHERITED}
    style["opacity"] = DEFAULTS["opacity"]
    for name, value in element.attrib.items():
        if name in DEFAULTS:
            style[name] = value
        elif name not in GEOMETRY[tag] and name not in IGNORED and not name.startswith(
                "data-"):
            raise ValueError("raster cannot draw the attribute %s=%r of <%s>"
                             % (name, value, tag))
    classes = (element.get("class") or "").split()
    for kind, name, declared in rules:
        if (kind == "tag" and name == tag) or (kind == "class" and name in classes):
            style.update((key, value) for key, value in declared.items() if key in DEFAULTS)
    return style


def _draw(canvas, element, inherited, rules, opacity):
    if not element.tag.startswith(NS):
        raise ValueError("raster cannot draw <%s>, outside SVG's namespace" % element.tag)
    tag = element.tag[len(NS):]
    if tag in SILENT:
        return
    if tag not in GEOMETRY:
        raise ValueError("raster cannot draw <%s>" % tag)
    style = style_of(element, tag, inherited, rules)
    opacity *= float(style["opacity"])
    if tag in ("svg", "g"):
        for child in element:
            _draw(canvas, child, style, rules, opacity)
        return
    if element.get("transform") is not None and tag != "text":
        raise ValueError("raster turns only text, not <%s transform=%r>"
                         % (tag, element.get("transform")))
    number = lambda name: _length(element.get(name))  # noqa: E731
    fill, outline = {}, {}
    width = float(style["stroke-width"])
    if tag == "text":
        _text(canvas, element, style, opacity)
        return
    if tag == "rect":
        x, y, w, h = (number(name) for name in ("x", "y", "width", "height"))
        if colour(style["fill"]) is not None:
            canvas.fill_box(x, y, w, h, colour(style["fill"]),
                            alpha=opacity * float(style["fill-opacity"]))
        for edge in ((x, y, x + w, y), (x + w, y, x + w, y + h), (x, y + h, x + w, y + h),
                     (x, y, x, y + h)):
            bitmap.merge(outline, bitmap.segment(*edge, width=width, extend=width / 2))
    elif tag == "circle":
        cx, cy, r = number("cx"), number("cy"), number("r")
        fill = bitmap.disk(cx, cy, r)
        outline = bitmap.ring(cx, cy, r, width=width)
    elif tag == "line":
        outline = _strokes([[(number("x1"), number("y1")), (number("x2"), number("y2"))]],
                           style)
    elif tag == "polyline":
        values = [float(v) for v in element.get("points", "").replace(",", " ").split()]
        fill = {} if colour(style["fill"]) is None else _refuse(tag, "a filled polyline")
        outline = _strokes([list(zip(values[::2], values[1::2]))], style)
    else:
        fill = {} if colour(style["fill"]) is None else _refuse(tag, "a filled path")
        outline = _strokes(_path(element.get("d", "")), style)
    paint = colour(style["fill"])
    if paint is not None and fill:
        canvas.paint(fill, paint, alpha=opacity * float(style["fill-opacity"]))
    paint = colour(style["stroke"])
    if paint is not None and width > 0:
        canvas.paint(outline, paint, alpha=opacity * float(style["stroke-opacity"]))


def _refuse(tag, what):
    raise ValueError("raster cannot draw %s (<%s>)" % (what, tag))


def _path(d):
    """The polylines of a path of absolute M and L commands."""
    lines, at, d = [], 0, d.strip()
    for found in PATH.finditer(d):
        if found.start() != at or found.group(1) not in "ML":
            break
        at = found.end()
        point = (float(found.group(2)), float(found.group(3)))
        if found.group(1) == "M" or not lines:
            lines.append([point])
        else:
            lines[-1].append(point)
    if at != len(d):
        raise ValueError("raster draws paths of absolute M and L only, not %r" % d)
    return lines


def _strokes(polylines, style):
    width = float(style["stroke-width"])
    dash = style["stroke-dasharray"].strip()
    pattern = [] if dash == "none" else [float(v) for v in dash.replace(",", " ").split()]
    found = {}
    for points in polylines:
        for piece in bitmap.dashed(points, pattern):
            bitmap.merge(found, bitmap.segment(*piece, width=width))
    return found


def face_of(style):
    """The glyphs.Face that text of this style is drawn in."""
    if style["font-weight"].strip() in ("bold", "bolder", "600", "700", "800", "900"):
        return glyphs.face("7x13B")
    return glyphs.face("7x13" if _length(style["font-size"]) >= 13 else "6x13")


def _text(canvas, element, style, opacity):
    if len(element):
        raise ValueError("raster draws plain <text>, not one holding <%s>"
                         % element[0].tag.removeprefix(NS))
    x, y = _length(element.get("x")), _length(element.get("y"))
    angle, about = 0.0, None
    if element.get("transform") is not None:
        turn = ROTATE.match(element.get("transform"))
        if turn is None:
            raise ValueError("raster turns text by rotate(...) only, not %r"
                             % element.get("transform"))
        angle = float(turn.group(1))
        about = (float(turn.group(2)), float(turn.group(3))) if turn.group(2) else (0.0, 0.0)
    anchor = style["text-anchor"].strip()
    if anchor not in ("start", "middle", "end"):
        raise ValueError("raster cannot anchor text at %r" % anchor)
    paint = colour(style["fill"])
    if paint is not None:
        canvas.paint(bitmap.text(x, y, element.text or "", face=face_of(style), anchor=anchor,
                                 angle=angle, about=about),
                     paint, alpha=opacity * float(style["fill-opacity"]))
