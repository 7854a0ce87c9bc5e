"""Pairs of real testers and their per-instance score differences: the
realistic differences the comparison's characteristics are simulated on
(grader/betting_table.py, tests/group_testing/test_betting.py).

    pools = pairs.pools(count=1000)          # {pair name: [d, ...]}
    pairs.differences(find_a, find_b, items) # challenger's score - incumbent's

A difference is the challenger's tests / baseline minus the incumbent's on
one instance of a set drawn with SEED (neither the sample's seed nor the
500 set's): zero on a draw, often zero, with tails. The testers are
deterministic and pure, so their tests are counted in process by a plain
function, no oracle or worker. Besides the testers of tests/testers/ and
the calibration tester, two built to fool a sign test: ALONE, the fix on
about 5% of instances that draws everywhere else, and NINETY, a tester
that wins nine instances in ten by one test and is worse in the mean.
"""

import importlib.util
import os
import types

from . import problem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = "betting-pairs"       # the instances the pools are computed on
COUNT = 1000                 # instances a pool holds, by default
SPLITTING = os.path.join(ROOT, "grader", "group_testing", "splitting.py")   # the baseline's
CALIBRATION = "grader/group_testing/calibration.py"
POSTERIOR = "tests/testers/posterior.py"


def embedded(name, path):
    """Tester source that makes the tester file `path` (from ROOT) a module
    `name` of the tester, run from the file's own text: so a tester of one
    file may play others, each unchanged and in a namespace of its own."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    return "%s = types.ModuleType(%r)\nexec(compile(%r, %r, \"exec\"), %s.__dict__)\n" % (
        name, name, text, path, name)


# the strongest tester's pools by posterior when n < 86 (about 5% of
# instances), binary splitting (the calibration tester's split on all
# items, as the baseline is counted) otherwise: a large gain there, a draw
# everywhere else
ALONE = "import types\n\n" + embedded("posterior", POSTERIOR) + embedded(
    "calibration", CALIBRATION) + """

def find(n, priors, test):
    if n < 86:
        return posterior.find(n, priors, test)
    return sorted(calibration.split(range(n), test))
"""

# binary splitting that skips its first test (every instance has a defective,
# so it is positive) on nine instances in ten, and wastes 10 tests before
# splitting on the tenth (n a multiple of 10): a sure small win 90% of the
# time, a larger loss the rest
NINETY = "import types\n\n" + embedded("calibration", CALIBRATION) + """

def find(n, priors, test):
    if n % 10 == 0:
        for _ in range(10):
            test([0])
        return sorted(calibration.split(range(n), test))
    first = [True]

    def skip_first(pool):
        if first[0]:
            first[0] = False
            return True
        return test(pool)

    return sorted(calibration.split(range(n), skip_first))
"""

PAIRS = (                    # (name, challenger, incumbent): a file from ROOT or a source
    ("posterior vs informed", POSTERIOR, "tests/testers/informed.py"),
    ("informed vs calibration", "tests/testers/informed.py", CALIBRATION),
    ("calibration vs splitting", CALIBRATION, SPLITTING),
    ("5% fix vs splitting", ALONE, SPLITTING),
)


def load(tester):
    """The `find` of a tester: a path from ROOT, loaded as a module of its
    own (which may read the files beside it), or a tester's source."""
    if "\n" not in tester:
        spec = importlib.util.spec_from_file_location("pair_tester", os.path.join(ROOT, tester))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.find
    module = types.ModuleType("pair_tester")
    exec(compile(tester, "<pair tester>", "exec"), module.__dict__)
    return module.find


def tests_of(find, instance):
    """The tests `find` makes on `instance`; ValueError on a wrong answer."""
    truth, count = set(instance["defectives"]), 0

    def test(pool):
        nonlocal count
        count += 1
        return not truth.isdisjoint(pool)

    if find(instance["n"], instance["priors"], test) != instance["defectives"]:
        raise ValueError("the tester's answer is not the defectives")
    if count > problem.cap(instance["n"]):
        raise ValueError("the tester passed the cap")
    return count


def differences(challenger, incumbent, items):
    """Each instance's challenger score minus the incumbent's (finds)."""
    return [(tests_of(challenger, it) - tests_of(incumbent, it)) / it["baseline"]
            for it in items]


def pools(*, count=COUNT, pairs=PAIRS):
    """{name: differences} of each pair on `count` instances of SEED."""
    from . import instances          # the instances' settings, read when asked
    items = instances.draw(count, SEED)
    return {name: differences(load(a), load(b), items) for name, a, b in pairs}
