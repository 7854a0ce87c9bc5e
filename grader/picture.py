"""Two pictures of the loop, as SVG that any browser opens, and as PNG.

    python3 grader/picture.py gap [--result result/result.json] [--out .loop/gap.svg]
    python3 grader/picture.py history [--log .loop/results.tsv] [--out .loop/history.svg]

gap: each instance of a result, across its n, up its tests minus its
surprise (the bits left to win there), coloured by family, with zero
marked. history: each row of the loop's results.tsv in order, the kept
versions' estimated total with its interval (the log's total_gain, else
the sum of the kept rows' score_difference) and the discarded and crashed
rows faint. The drawing is group_testing/pictures.py's, on arh_grader/svg.py.
Beside the SVG, the same picture as PNG (arh_grader/raster.py), its name
ending .png in place of .svg (.loop/gap.png), for a reader who opens PNG only.

Prints `wrote: PATH` (the SVG), `png: PATH` and `key: value` lines on
stdout. Exit status 0; 2 on bad usage or a file that cannot be drawn (a
missing file, a result with no items, a results.tsv without the columns
needed), named on stderr.
"""

import argparse
import os
import sys

from arh_grader import raster
from arh_grader.report import display_path
from group_testing import pictures

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULTS = {"result": os.path.join(ROOT, "result", "result.json"),
            "log": os.path.join(ROOT, ".loop", "results.tsv"),
            "gap": os.path.join(ROOT, ".loop", "gap.svg"),
            "history": os.path.join(ROOT, ".loop", "history.svg")}


def parser():
    found = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    picture = found.add_subparsers(dest="picture", required=True, metavar="{gap,history}")
    gap = picture.add_parser("gap", help="tests minus surprise per instance of a result")
    gap.add_argument("--result", default=DEFAULTS["result"], metavar="RESULT.json",
                     help="a result.json of grader/local.py (default: result/result.json)")
    gap.add_argument("--out", default=DEFAULTS["gap"], metavar="FILE.svg",
                     help="where to write the picture, its PNG beside it "
                          "(default: .loop/gap.svg)")
    history = picture.add_parser("history", help="the loop's results.tsv, row by row")
    history.add_argument("--log", default=DEFAULTS["log"], metavar="RESULTS.tsv",
                         help="the loop's log (default: .loop/results.tsv)")
    history.add_argument("--out", default=DEFAULTS["history"], metavar="FILE.svg",
                         help="where to write the picture, its PNG beside it "
                              "(default: .loop/history.svg)")
    return found


def write(path, data):
    """Write `data` (text, or bytes) to `path`, making its folder;
    PictureError naming it."""
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if isinstance(data, bytes):
            with open(path, "wb") as f:
                f.write(data)
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(data)
    except OSError as e:
        raise pictures.PictureError("cannot write %r: %s" % (path, e.strerror or e)) from None


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        try:
            png_path = raster.beside(args.out)
        except ValueError as e:
            raise pictures.PictureError(str(e)) from None
        if args.picture == "gap":
            source = display_path(args.result)
            text, lines = pictures.gap_picture(pictures.read_result(args.result),
                                               source=source)
        else:
            source = display_path(args.log)
            text, lines = pictures.history_picture(pictures.read_log(args.log), source=source)
        write(args.out, text)
        write(png_path, raster.png(text))
    except pictures.PictureError as e:
        sys.stderr.write("picture: %s\n" % e)
        return 2
    print("\n".join(["wrote: %s" % display_path(args.out), "png: %s" % display_path(png_path)]
                    + lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
