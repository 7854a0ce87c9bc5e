"""Pairs of real testers and their per-instance score differences: the
realistic differences the comparison's characteristics are simulated on
(grader/betting_table.py, tests/test_betting.py).

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

import os
import types

from . import problem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = "betting-pairs"       # the instances the pools are computed on
COUNT = 1000                 # instances a pool holds, by default
SPLITTING = os.path.join(ROOT, "tests", "testers", "splitting.py")
with open(SPLITTING, encoding="utf-8") as _f:
    _HONEST = _f.read().replace("def find(", "def honest(")

with open(os.path.join(ROOT, "tests", "testers", "posterior.py"), encoding="utf-8") as _f:
    _POSTERIOR = _f.read().replace("def find(", "def posterior(")

# the strongest tester's pools by posterior when n < 86 (about 5% of
# instances), binary splitting otherwise: a large gain there, a draw
# everywhere else
ALONE = _POSTERIOR + "\n\n" + _HONEST + """

def find(n, priors, test):
    if n < 86:
        return posterior(n, priors, test)
    return honest(n, priors, test)
"""

# binary splitting that skips its first test (every instance has a defective,
# so it is positive) on nine instances in ten, and wastes 10 tests before
# splitting on the tenth (n a multiple of 10): a sure small win 90% of the
# time, a larger loss the rest
NINETY = _HONEST + """

def find(n, priors, test):
    if n % 10 == 0:
        for _ in range(10):
            test([0])
        return honest(n, priors, test)
    first = [True]

    def skip_first(pool):
        if first[0]:
            first[0] = False
            return True
        return test(pool)

    return honest(n, priors, skip_first)
"""

PAIRS = (                    # (name, challenger, incumbent): a file from ROOT or a source
    ("posterior vs informed", "tests/testers/posterior.py", "tests/testers/informed.py"),
    ("informed vs calibration", "tests/testers/informed.py",
     "grader/group_testing/calibration.py"),
    ("calibration vs splitting", "grader/group_testing/calibration.py",
     "tests/testers/splitting.py"),
    ("5% fix vs splitting", ALONE, "tests/testers/splitting.py"),
)


def load(tester):
    """The `find` of a tester: a path from ROOT, or a tester's source."""
    if "\n" not in tester:
        with open(os.path.join(ROOT, tester), encoding="utf-8") as f:
            tester = f.read()
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
