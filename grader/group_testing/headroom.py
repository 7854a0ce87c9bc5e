"""The headroom: what testers score on a 500-instance set against the
information floor, and how much of it is left to win against the MMI
(docs/scoring.md, "Headroom").

    python3 grader/headroom.py

Each tester's tests are counted in process with fit.count_tests (the
testers are deterministic and pure, so no oracle or worker is needed), and
each score's floor is twice the ideal bootstrap's standard error
(arh_grader.stats: the limit grader/mmi.py's resamples estimate); the
command hands in the MMI.
"""

import importlib.util
import os
import statistics

from arh_grader import stats

from . import fit, instances, problem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = "group-testing-500"        # the set: instances.draw(COUNT, SEED)
COUNT = 500                       # instances
TESTERS = (                       # (name, file, from the project's root)
    ("binary splitting", "tests/testers/splitting.py"),
    ("calibration", "grader/group_testing/calibration.py"),
    ("informed", "tests/testers/informed.py"),
    ("posterior", "tests/testers/posterior.py"),
    ("strongest", "tests/testers/strongest.py"),
)
FLOOR = "information floor"       # the last row: mean of surprise / baseline


def load_find(path):
    """The `find` of a tester file, loaded as a module of its own."""
    name = "headroom_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.find


def measure(items, *, testers=TESTERS):
    """[(name, relative_tests, floor)] for each tester, then the information
    floor's row, on `items`."""
    rows = []
    for name, path in testers:
        got = fit.scores(load_find(path), items)
        rows.append((name, statistics.fmean(got), 2 * stats.ideal_bootstrap_se(got)))
    floor = [problem.surprise(it["priors"], it["defectives"]) / it["baseline"]
             for it in items]
    rows.append((FLOOR, statistics.fmean(floor), 2 * stats.ideal_bootstrap_se(floor)))
    return rows


def table(rows, *, mmi_value):
    """The rows as a Markdown table's lines: each score, its floor, and how
    far below the calibration tester it is, in MMIs."""
    calibration = dict((r[0], r[1]) for r in rows)["calibration"]
    lines = ["| tester | relative_tests | its floor (2 SE) | below calibration | in MMIs |",
             "|---|---|---|---|---|"]
    for name, score, floor in rows:
        gain = calibration - score
        lines.append("| %s | %.4f | %.3f | %+.4f | %+.1f |"
                     % (name, score, floor, gain, gain / mmi_value))
    return lines
