"""Draw instance sets, and print a set's statistics.

    python3 grader/instances.py --count 500 --seed 7 > set.jsonl
    python3 grader/instances.py --stats sample/items.jsonl

One instance a line: {"n", "family", "priors", "defectives", "baseline"}.
The same seed gives the same bytes on every machine; without --seed a secret
seed is drawn, used once and never shown, so nobody can draw the set again.
Each instance is drawn from generators of its own, seeded by the set's seed
and the instance's index, so `draw(k, seed)` is the first k lines of a longer
set, and instances are independent and identically distributed.
"""

import json
import math
import random
import statistics

from . import problem

SAMPLE_SEED = "group-testing-sample"  # sample/items.jsonl is draw(40, SAMPLE_SEED)
SAMPLE_COUNT = 40
PRIOR_DIGITS = 6                      # significant digits kept of each prior

# The families' settings (PROGRAM.md, "The data, briefly"), fitted to the platform's
# table by grader/fit.py. Priors and fractions are probabilities; each pair
# is a (low, high) range.
FAMILY_SETTINGS = {
    "uniform": {"prior": (0.002, 0.048)},           # p, log-uniform
    "two-tier": {"fraction": (0.04, 0.21),          # share of likely items, uniform
                 "high": (0.13, 0.40),              # each likely item's p, uniform
                 "low": (0.0044, 0.017)},           # the others' shared p, log-uniform
    "log-normal": {"spread": (1.4, 1.5),            # s, the log's sd, uniform
                   "mean": (0.007, 0.009),          # pbar, the mean prior, log-uniform
                   "cap": 0.5},                     # the largest prior
}


def _prior(x):
    return float("%.*g" % (PRIOR_DIGITS, x))


def _log_uniform(rng, low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def draw_priors(rng, family, n, *, settings=None):
    """n priors of one family, shuffled; `settings` defaults to FAMILY_SETTINGS."""
    if family not in problem.FAMILIES:
        raise ValueError("unknown family %r" % (family,))
    got = (settings or FAMILY_SETTINGS)[family]
    if family == "uniform":             # a shared prior is rounded once
        priors = [_prior(_log_uniform(rng, *got["prior"]))] * n
    elif family == "two-tier":
        high = round(n * rng.uniform(*got["fraction"]))
        low_p = _prior(_log_uniform(rng, *got["low"]))
        priors = [_prior(rng.uniform(*got["high"])) for _ in range(high)] + [low_p] * (n - high)
    elif family == "log-normal":
        s = rng.uniform(*got["spread"])
        mu = math.log(_log_uniform(rng, *got["mean"])) - s * s / 2
        priors = [_prior(min(got["cap"], math.exp(rng.gauss(mu, s)))) for _ in range(n)]
    else:
        raise ValueError("unknown family %r" % (family,))
    rng.shuffle(priors)
    return priors


def draw_instance(seed, index, *, settings=None):
    """Instance `index` of the set drawn with `seed`: n, the family (each
    with the same chance) and the priors from one generator, the defectives
    from another of their own, so that neither stream shifts the other."""
    rng = random.Random("%s/%d" % (seed, index))
    n = rng.randint(problem.N_MIN, problem.N_MAX)
    family = rng.choice(problem.FAMILIES)
    priors = draw_priors(rng, family, n, settings=settings)
    chance = random.Random("%s/%d/defectives" % (seed, index))
    defectives = []
    while not defectives:                     # at least one: drawn again until there is
        defectives = [i for i, p in enumerate(priors) if chance.random() < p]
    return {"n": n, "family": family, "priors": priors, "defectives": defectives,
            "baseline": problem.baseline_tests(n, defectives)}


def draw(count, seed, *, settings=None):
    """A set of `count` instances, as a list of dicts."""
    return [draw_instance(seed, i, settings=settings) for i in range(count)]


def dumps(instance):
    """One JSON Lines line (with its newline), fields in their fixed order."""
    return json.dumps({k: instance[k] for k in problem.FIELDS}, separators=(",", ":")) + "\n"


def stats(items):
    """The seed's table columns for a set, as an ordered dict."""
    counts = {f: sum(1 for it in items if it["family"] == f) for f in problem.FAMILIES}
    return {
        "instances": len(items),
        "families": " / ".join("%d" % counts[f] for f in problem.FAMILIES),
        "defectives_mean": "%.2f" % statistics.fmean(len(it["defectives"]) for it in items),
        "baseline_mean": "%.2f" % statistics.fmean(it["baseline"] for it in items),
        "bound_ratio_mean": "%.3f" % statistics.fmean(
            problem.entropy_bound(it["priors"]) / it["baseline"] for it in items),
        "binary_entropy_ratio_mean": "%.3f" % statistics.fmean(
            problem.binary_entropy_sum(it["priors"]) / it["baseline"] for it in items),
        "information_floor": "%.3f" % statistics.fmean(
            problem.surprise(it["priors"], it["defectives"]) / it["baseline"] for it in items),
    }
