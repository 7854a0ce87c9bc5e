"""Graph isomorphism's sets: drawing one, and a solver's files as its
worker hands them over (its refs are measured by PROBLEM.measure, plugin.py).

    draw(24, SAMPLE_SEED)            # the sample's problems: [{"n", "seed"}, ...]

A set's line is {"n", "seed", "instructions"} (gi/rules.py). Its n and
seed come from random.Random(seed of the set); its instructions, r, are
the incumbent's counts, I shared evenly: N * P_i + I over N problems,
which is what makes the incumbent score exactly 1.0 on each.
"""

import os
import random

from gi import task

SAMPLE_SEED = "algotune-graph-isomorphism-sample"   # sample/items.jsonl: draw(24, SAMPLE_SEED)
SAMPLE_COUNT = 24
SEED_BELOW = 2 ** 31                                # each problem's seed is below it


def draw(count, seed):
    """`count` problems {"n", "seed"} drawn from random.Random(`seed`)."""
    rng = random.Random(seed)
    return [{"n": rng.randint(task.N_MIN, task.N_MAX), "seed": rng.randrange(SEED_BELOW)}
            for _ in range(count)]


def files_in(folder):
    """{path: bytes} of a solver's folder, as its worker hands them over
    (__pycache__ left out)."""
    files = {}
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for name in sorted(names):
            path = os.path.join(top, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder).replace(os.sep, "/")] = f.read()
    return files
