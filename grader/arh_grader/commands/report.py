"""A problem's report command (report.py's docstring says what it prints):
its options, the report's lines on stdout, the picture with --svg FILE
(and the same picture as PNG beside it, raster.py: FILE's name ending
.png), exit status 2 and a message on stderr for a file it cannot use.

    sys.exit(report.main(PROBLEM, doc=__doc__))    # a problem's grader/report.py
"""

import argparse
import os
import sys

from .. import options, picture, raster
from ..report import (TOP, ReportError, against_lines, comparison, group_rows, load_result,
                     pair, passed, report_lines)


def main(problem, argv=None, *, doc=None):
    """A problem's report command, `doc`'s first paragraph its help's first
    line; its exit status."""
    parser = argparse.ArgumentParser(description=(doc or __doc__).split("\n\n")[0])
    made_by = os.path.relpath(os.path.join(problem.COMMANDS, "local.py"), problem.ROOT)
    parser.add_argument("result", help="a result.json (%s writes one)" % made_by)
    parser.add_argument("--against", metavar="OTHER.json",
                        help="a result of the same set to compare with, instance by instance")
    parser.add_argument("--svg", metavar="FILE",
                        help="write the picture here, and as PNG beside it (its name ending .png)")
    parser.add_argument("--top", type=options.positive(int), default=TOP, metavar="N",
                        help="instances listed under %s and lost_most (default %d)"
                             % (problem.ROWS, TOP))
    args = parser.parse_args(argv)
    try:
        result = load_result(args.result, problem=problem)
        lines = report_lines(result, args.result, problem=problem, top=args.top)
        pairs = None
        if args.against is not None:
            other = load_result(args.against, problem=problem)
            pairs = pair(result, other, paths=(args.result, args.against), problem=problem)
            lines += against_lines(pairs, args.against, problem=problem, top=args.top)
        if args.svg is not None:
            items = passed(result)
            text = picture.draw(items, problem=problem, rows=group_rows(items, problem=problem),
                                source=args.result, pairs=pairs, against=args.against,
                                figures=comparison(pairs, problem=problem) if pairs else None)
            try:
                png_path = raster.beside(args.svg)
            except ValueError as e:
                raise ReportError(str(e)) from None
            for path, mode, data in ((args.svg, "w", text), (png_path, "wb", raster.png(text))):
                try:
                    with open(path, mode, **{"encoding": "utf-8"} if mode == "w" else {}) as f:
                        f.write(data)
                except OSError as e:
                    raise ReportError("cannot write %r: %s" % (path, e.strerror or e)) from None
            lines += ["svg: %s" % args.svg, "png: %s" % png_path]
    except ReportError as e:
        sys.stderr.write("report: %s\n" % e)
        return 2
    print("\n".join(lines))
    return 0
