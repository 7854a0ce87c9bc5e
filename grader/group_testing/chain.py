"""The chain of kept gains: the loop of PROGRAM.md ("The experiment
loop"), started from binary splitting, keeps each step of a chain of real
testers, and the last one ends within CLOSE of the information floor on
the headroom's 500-instance set.

    python3 grader/chain.py               # SEEDS seeds, the chain's table
    python3 grader/chain.py --seeds 3

For each step (challenger, incumbent) and each seed, the decision of
grader/compare.py's mean test is simulated on the real testers' real
counts: both testers are deterministic and pure, so their tests on the
instances of a fresh seeded stream (instances.draw_instance(seed, i),
i = 0, 1, ...) are counted in process by a plain function, as pairs.py
does, and each instance's difference (challenger's tests / baseline minus
the incumbent's) goes to betting.MeanRecord with its default settings
(alpha = beta = 0.05, delta = 0.005) until it decides. Each seed's stream
is "chain/SEED/STEP". The command hands in the betting module (the
SDK's arh_grader.compare.betting).
"""

import statistics

from . import fit, headroom, instances, pairs, problem

STEPS = (                  # (challenger, incumbent), each a file from the project's root
    ("grader/group_testing/calibration.py", "tests/testers/splitting.py"),
    ("tests/testers/informed.py", "grader/group_testing/calibration.py"),
    ("tests/testers/strongest.py", "tests/testers/informed.py"),
)
SEEDS = 10                 # seeds the chain is run on, "0" .. "9"
CLOSE = 0.01               # the last tester's score above the floor that counts as close
LIMIT = 5000               # instances a step may draw (betting's max_comparisons)


def name(path):
    """A tester's short name: its file's, without the folder and .py."""
    return path.rsplit("/", 1)[-1][:-3]


def step(betting, challenger, incumbent, stream, *, limit=LIMIT):
    """The mean test on one step: (record, differences) after feeding the
    differences of the stream's instances until the test decides."""
    record, values = betting.MeanRecord(), []
    for index in range(limit):
        item = instances.draw_instance(stream, index)
        d = (pairs.tests_of(challenger, item) - pairs.tests_of(incumbent, item)) / item["baseline"]
        values.append(d)
        if record.add(d) != betting.CONTINUE:
            break
    return record, values


def run(betting, *, seeds=SEEDS, steps=STEPS):
    """[(seed, [(challenger, incumbent, record, values), ...]), ...]."""
    finds = {}
    for pair in steps:
        for path in pair:
            if path not in finds:
                finds[path] = pairs.load(path)
    out = []
    for seed in [str(s) for s in range(seeds)]:
        rows = []
        for challenger, incumbent in steps:
            record, values = step(betting, finds[challenger], finds[incumbent],
                                  "chain/%s/%s" % (seed, name(challenger)))
            rows.append((challenger, incumbent, record, values))
        out.append((seed, rows))
    return out


def final(path, *, count=headroom.COUNT, seed=headroom.SEED):
    """(relative_tests of `path`, information floor) on the headroom's set."""
    items = instances.draw(count, seed)
    score = statistics.fmean(fit.scores(headroom.load_find(path), items))
    floor = statistics.fmean(problem.surprise(it["priors"], it["defectives"]) / it["baseline"]
                             for it in items)
    return score, floor
