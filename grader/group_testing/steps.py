"""Whether small gains add up: a chain of steps of about 0.002 each, every
one a real gain, through the mean test at a given --delta: what share of
the steps it keeps, after how many comparisons, and how much of the gain
available the kept steps hold.

    python3 grader/chain.py --small-steps      # SEEDS seeds, CONFIGS, SLICES steps
    python3 grader/chain.py --small-steps --seeds 2 --settings 0.005:5000 0.002:10000

The steps. Informed (tests/testers/informed.py) against calibration
(grader/group_testing/calibration.py) gains about 0.06 of the score on
average. The instances are cut into SLICES slices by a hash of their
priors (crc32 of their repr, modulo SLICES): tester k plays informed on
the instances of slices 0 .. k-1 and calibration elsewhere, a choice
each instance makes by itself, deterministic. Step k, tester k + 1 against
tester k, differs on slice k alone: its difference is informed's score
minus calibration's on slice k's instances and 0 elsewhere, a real gain of
about 0.06 / SLICES = 0.002 with the zeros and tails of real counts. The
slices are independent, so a step discarded leaves the next as it was:
each step is one idea, kept or not, and the kept gain is the sum of the
kept steps' gains.

The instances. Both testers' tests are counted once, in process
(pairs.differences), on COUNT instances of pairs.SEED; each comparison of
a run then draws one of them at random (random.Random("steps/SEED/DELTA/
STEP")): the pool stands for the stream of fresh instances, and a step's
real gain is its mean over the pool, so the gain available is known
exactly. Each step's run is betting.MeanRecord with the configuration's
delta and max_comparisons, alpha and beta their defaults, fed until it
decides. Deterministic: the same options print the same figures.
"""

import math
import random
import zlib

from . import instances, pairs

CHALLENGER = "tests/testers/informed.py"
INCUMBENT = pairs.CALIBRATION
COUNT = 1000           # instances the pool holds
SLICES = 30            # steps: 0.06 / 30 = 0.002 each
SEEDS = 10             # seeds each configuration runs the chain on
CONFIGS = ((0.005, 5000), (0.002, 5000), (0.002, 10000), (0.001, 20000))  # (delta, maximum)


def slice_of(item, slices):
    """The slice of an instance: crc32 of its priors' repr, modulo `slices`."""
    return zlib.crc32(repr(item["priors"]).encode()) % slices


def pool(*, count=COUNT, slices=SLICES):
    """[(slice, difference), ...]: each instance's slice and informed's score
    minus calibration's on it."""
    items = instances.draw(count, pairs.SEED)
    found = pairs.differences(pairs.load(CHALLENGER), pairs.load(INCUMBENT), items)
    return [(slice_of(item, slices), d) for item, d in zip(items, found)]


def gains(cells, slices):
    """Each step's real gain (below 0 fewer tests): its mean difference
    over the pool."""
    return [math.fsum(d for s, d in cells if s == k) / len(cells) for k in range(slices)]


def step(betting, cells, k, settings, stream):
    """The mean test on step k: its record, the comparisons drawn from the
    pool with random.Random(stream)."""
    rng, record = random.Random(stream), betting.MeanRecord(settings)
    while record.decision == betting.CONTINUE:
        s, d = cells[rng.randrange(len(cells))]
        record.add(d if s == k else 0.0)
    return record


def run(betting, cells, *, slices=SLICES, seeds=SEEDS, configs=CONFIGS):
    """{(delta, maximum): a dict of the figures over seeds x slices steps}:
    kept (share of steps accepted), comparisons (mean a step), truncated
    (share ended at the maximum), kept_gain and available (a seed's total,
    on average), share (kept_gain / available)."""
    real = gains(cells, slices)
    out = {}
    for delta, maximum in configs:
        settings = betting.Settings(delta=delta, max_comparisons=maximum)
        kept, comparisons, truncated, kept_gain = 0, 0, 0, 0.0
        for seed in range(seeds):
            for k in range(slices):
                record = step(betting, cells, k, settings, "steps/%d/%g/%d" % (seed, delta, k))
                comparisons += record.comparisons
                truncated += record.reason == betting.TRUNCATED
                if record.decision == betting.ACCEPT:
                    kept += 1
                    kept_gain += real[k]
        steps = seeds * slices
        available = math.fsum(real)
        out[(delta, maximum)] = {
            "kept": kept / steps, "comparisons": comparisons / steps,
            "truncated": truncated / steps, "kept_gain": kept_gain / seeds,
            "available": available, "share": kept_gain / seeds / available}
    return out


def lines(betting, cells, *, slices=SLICES, seeds=SEEDS, configs=CONFIGS):
    """The command's `key: value` lines."""
    real = gains(cells, slices)
    out = ["pool: %s against %s on %d instances of %s, mean difference %.4f"
           % (pairs_name(CHALLENGER), pairs_name(INCUMBENT), len(cells), pairs.SEED,
              math.fsum(d for _, d in cells) / len(cells)),
           "steps: %d slices by a hash of the priors, each step's real gain %.4f on average "
           "(%.4f to %.4f), %d seed%s" % (slices, math.fsum(real) / slices, min(real),
                                           max(real), seeds, "" if seeds == 1 else "s")]
    for (delta, maximum), found in run(betting, cells, slices=slices, seeds=seeds,
                                       configs=configs).items():
        out.append("delta_%g_max_%d: kept %.0f%% of the steps, %.0f comparisons a step on "
                   "average (%.0f%% ended at the maximum), total gain kept %.4f of %.4f "
                   "(%.0f%%) a seed on average"
                   % (delta, maximum, 100 * found["kept"], found["comparisons"],
                      100 * found["truncated"], found["kept_gain"], found["available"],
                      100 * found["share"] + 0.0))
    return out


def pairs_name(path):
    """A tester's short name: its file's, without the folder and .py."""
    return path.rsplit("/", 1)[-1][:-3]
