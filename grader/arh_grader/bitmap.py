"""A picture as RGB pixels, and the PNG file that holds it, standard
library only (zlib and struct): what raster.py draws an SVG picture on.

    canvas = bitmap.Bitmap(200, 100)                  # white
    coverage = bitmap.segment(10, 90, 190, 10, width=1.5)
    canvas.paint(coverage, (0x1f, 0x77, 0xb4), alpha=0.9)
    canvas.paint(bitmap.text(100, 50, "n = 64", face=glyphs.face("6x13"),
                             anchor="middle"), (0x22, 0x22, 0x22))
    data = canvas.png()                               # bytes of a PNG file

A shape is first a coverage, {(column, row): how much of that pixel it
covers, 0 to 1}, and then painted: each pixel blended toward the colour by
its coverage times `alpha`. A pixel (column, row) is the unit square whose
corner is (column, row), so its centre is (column + 0.5, row + 0.5), as in
SVG. Edges are anti-aliased by the distance from a pixel's centre to the
shape, except lines along an axis, which fill whole pixels (round(width)
of them, at least one) so that frames and grid lines stay sharp. Text is
drawn in the bitmap faces of glyphs.py, whole pixels unless turned by an
angle that is not a multiple of 90 degrees (then each pixel's coverage is
sampled 3 x 3 times). Only floats and integers are used, in a fixed order,
so the same calls give the same bytes. Nothing runs at import.

The PNG is 8-bit RGB (colour type 2), not interlaced, every row with
filter type 0 (none), the image data in one IDAT chunk compressed by
zlib at level 9; each chunk ends with the CRC-32 of its type and data.
"""

import math
import struct
import zlib

from . import glyphs

SIGNATURE = b"\x89PNG\r\n\x1a\n"
WHITE = (255, 255, 255)
SAMPLES = 3                 # per side of a pixel, for text turned by an odd angle
BOOST = 2.0                 # such text's coverage times this: 1 px strokes stay dark


def chunk(kind, data):
    """One PNG chunk: length, type, data and the CRC-32 of type and data."""
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def encode(width, height, pixels):
    """The bytes of a PNG file of `pixels`: width * height * 3 bytes, RGB,
    row after row from the top."""
    if len(pixels) != width * height * 3:
        raise ValueError("%d bytes for %d x %d RGB pixels" % (len(pixels), width, height))
    stride = width * 3
    raw = b"".join(b"\x00" + bytes(pixels[row * stride:(row + 1) * stride])
                   for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


class Bitmap:
    """`width` x `height` RGB pixels, all `background` at first."""

    def __init__(self, width, height, *, background=WHITE):
        self.width, self.height = int(width), int(height)
        self.pixels = bytearray(bytes(background) * (self.width * self.height))

    def paint(self, coverage, colour, *, alpha=1.0):
        """Blend each pixel of `coverage` toward `colour` (r, g, b) by its
        coverage times `alpha`; pixels outside the bitmap are left out."""
        pixels, width, height = self.pixels, self.width, self.height
        for (x, y), part in sorted(coverage.items()):
            weight = min(part, 1.0) * alpha
            if weight <= 0 or not (0 <= x < width and 0 <= y < height):
                continue
            at = 3 * (y * width + x)
            for k in range(3):
                pixels[at + k] = int(pixels[at + k] + (colour[k] - pixels[at + k]) * weight
                                     + 0.5)

    def fill_box(self, x, y, width, height, colour, *, alpha=1.0):
        """Paint a filled rectangle: box's coverage, its whole pixels at once."""
        left, right = max(0, math.ceil(x)), min(self.width, math.floor(x + width))
        top, bottom = max(0, math.ceil(y)), min(self.height, math.floor(y + height))
        if alpha < 1 or right <= left or bottom <= top:
            self.paint(box(x, y, width, height), colour, alpha=alpha)
            return
        run = bytes(colour) * (right - left)
        for row in range(top, bottom):
            self.pixels[3 * (row * self.width + left):3 * (row * self.width + right)] = run
        self.paint(box(x, y, width, height, hole=(left, top, right, bottom)), colour,
                   alpha=alpha)

    def pixel(self, x, y):
        """The (r, g, b) at column x, row y."""
        at = 3 * (y * self.width + x)
        return tuple(self.pixels[at:at + 3])

    def png(self):
        """The bytes of the PNG file of this bitmap."""
        return encode(self.width, self.height, self.pixels)


def merge(coverage, more):
    """`coverage` with `more` laid over it: each pixel's larger part."""
    for key, part in more.items():
        if part > coverage.get(key, 0.0):
            coverage[key] = part
    return coverage


def _clamp(value):
    return 0.0 if value < 0 else 1.0 if value > 1 else value


def _pixels_within(low, high):
    """The columns (or rows) whose centres lie in [low, high], at least one."""
    first, last = math.ceil(low - 0.5 - 1e-9), math.floor(high - 0.5 + 1e-9)
    return range(first, max(first, last) + 1)


def segment(x1, y1, x2, y2, *, width=1.0, extend=0.0):
    """The coverage of a line from (x1, y1) to (x2, y2), `width` px thick;
    along an axis, whole pixels, longer by `extend` at each end (a rectangle's
    edge takes half its width, so that corners meet)."""
    if y1 == y2 or x1 == x2:
        thick = max(1, int(width + 0.5))
        across = (y1 if y1 == y2 else x1) - thick / 2
        band = range(math.floor(across + 0.5), math.floor(across + 0.5) + thick)
        if y1 == y2:
            along = _pixels_within(min(x1, x2) - extend, max(x1, x2) + extend)
            return {(x, y): 1.0 for x in along for y in band}
        along = _pixels_within(min(y1, y2) - extend, max(y1, y2) + extend)
        return {(x, y): 1.0 for x in band for y in along}
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    half, found = width / 2, {}
    reach = half + 1.5
    for x in range(math.floor(min(x1, x2) - reach), math.floor(max(x1, x2) + reach) + 1):
        for y in range(math.floor(min(y1, y2) - reach), math.floor(max(y1, y2) + reach) + 1):
            px, py = x + 0.5, y + 0.5
            # the line's band is narrow: skip, cheaply, what lies far from it
            if abs((px - x1) * dy - (py - y1) * dx) > reach * math.sqrt(length2):
                continue
            t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length2))
            distance = math.hypot(px - (x1 + t * dx), py - (y1 + t * dy))
            part = _clamp(min(half + 0.5 - distance, width))
            if part > 0:
                found[(x, y)] = part
    return found


def dashed(points, pattern):
    """The pieces [(x1, y1, x2, y2)] of the polyline through `points` that
    the dash `pattern` (lengths on, off, on...) draws; every piece when it is empty."""
    pieces = list(zip(points, points[1:]))
    if not pattern or sum(pattern) <= 0:
        return [(a[0], a[1], b[0], b[1]) for a, b in pieces]
    pattern = list(pattern) * (2 if len(pattern) % 2 else 1)
    found, index, left = [], 0, pattern[0]
    for (ax, ay), (bx, by) in pieces:
        length, done = math.hypot(bx - ax, by - ay), 0.0
        while length - done > 1e-9:
            step = min(left, length - done)
            if index % 2 == 0:
                start, end = done / length, (done + step) / length
                found.append((ax + (bx - ax) * start, ay + (by - ay) * start,
                              ax + (bx - ax) * end, ay + (by - ay) * end))
            done += step
            left -= step
            if left <= 1e-9:
                index = (index + 1) % len(pattern)
                left = pattern[index]
    return found


def disk(cx, cy, r):
    """The coverage of a filled circle."""
    found = {}
    for x in range(math.floor(cx - r - 1), math.floor(cx + r + 1) + 1):
        for y in range(math.floor(cy - r - 1), math.floor(cy + r + 1) + 1):
            part = _clamp(r + 0.5 - math.hypot(x + 0.5 - cx, y + 0.5 - cy))
            if part > 0:
                found[(x, y)] = part
    return found


def ring(cx, cy, r, *, width):
    """The coverage of a circle's outline, `width` px thick, centred on radius r."""
    found, reach = {}, r + width / 2 + 1
    for x in range(math.floor(cx - reach), math.floor(cx + reach) + 1):
        for y in range(math.floor(cy - reach), math.floor(cy + reach) + 1):
            distance = abs(math.hypot(x + 0.5 - cx, y + 0.5 - cy) - r)
            part = _clamp(min(width / 2 + 0.5 - distance, width))
            if part > 0:
                found[(x, y)] = part
    return found


def box(x, y, width, height, *, hole=None):
    """The coverage of a filled rectangle: each pixel's share of its area;
    without the pixels of `hole` (left, top, right, bottom), if given."""
    found, rows = {}, range(math.floor(y), math.ceil(y + height))
    left, top, right, bottom = hole or (0, 0, 0, 0)
    around = [row for row in rows if not top <= row < bottom] if hole else rows
    for column in range(math.floor(x), math.ceil(x + width)):
        across = min(column + 1, x + width) - max(column, x)
        for row in (around if left <= column < right else rows):
            part = across * (min(row + 1, y + height) - max(row, y))
            if part > 0:
                found[(column, row)] = part
    return found


def text_width(words, face):
    """How wide `words` is drawn in `face`, in px."""
    return len(glyphs.spell(words)) * face.width


def text(x, y, words, *, face, anchor="start", angle=0.0, about=None):
    """The coverage of `words` in `face` (a glyphs.Face) with its baseline
    at y, starting, centred or ending at x as `anchor` ("start", "middle",
    "end") says; turned by `angle` degrees (clockwise, as SVG's rotate)
    about the point `about` (default (x, y))."""
    words = glyphs.spell(words)
    shift = {"start": 0, "middle": len(words) * face.width / 2,
             "end": len(words) * face.width}[anchor]
    left, top = math.floor(x - shift + 0.5), math.floor(y + 0.5) - face.ascent
    ink = [(left + k * face.width + column, top + row)
           for k, char in enumerate(words)
           for row, bits in enumerate(face.glyphs[char]) if bits
           for column in range(face.width) if bits >> (face.width - 1 - column) & 1]
    if angle % 360 == 0:
        return {point: 1.0 for point in ink}
    cx, cy = about if about is not None else (x, y)
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    if angle % 90 == 0:             # a quarter turn: pixel to pixel, still sharp
        cos, sin = round(cos), round(sin)
        return {(math.floor(cx + (px + 0.5 - cx) * cos - (py + 0.5 - cy) * sin),
                 math.floor(cy + (px + 0.5 - cx) * sin + (py + 0.5 - cy) * cos)): 1.0
                for px, py in ink}
    inked, found = set(ink), {}
    corners = [(cx + (px - cx) * cos - (py - cy) * sin, cy + (px - cx) * sin + (py - cy) * cos)
               for px, py in ((left, top), (left + len(words) * face.width, top),
                              (left, top + face.height),
                              (left + len(words) * face.width, top + face.height))]
    for column in range(math.floor(min(c[0] for c in corners)),
                        math.ceil(max(c[0] for c in corners))):
        for row in range(math.floor(min(c[1] for c in corners)),
                         math.ceil(max(c[1] for c in corners))):
            hits = 0
            for i in range(SAMPLES):
                for j in range(SAMPLES):
                    qx = column + (i + 0.5) / SAMPLES - cx
                    qy = row + (j + 0.5) / SAMPLES - cy
                    hits += (math.floor(cx + qx * cos + qy * sin),
                             math.floor(cy - qx * sin + qy * cos)) in inked
            if hits:
                found[(column, row)] = min(1.0, hits * BOOST / SAMPLES ** 2)
    return found
