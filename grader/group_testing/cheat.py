"""The cheat flag: e-values of the bits a run saved below the information
its instances hold, and the one threshold they share.

    stats = cheat.statistics(entries)   # entries of result.json's "items"
    stats["cheat_bits"], stats["suspect"]

Each entry needs `tests`, `surprise` (-log2 P(its defective set)),
`count_surprise` (the same given the count of defectives), `bound` (the
entropy bound of its priors), `n` and `defective_count`. An honest deterministic tester saves s_i = surprise_i -
tests_i bits on instance i with E[2^s_i | past] <= 1 whatever it did before
(Kraft's inequality on its decision tree), and the same for the weighted
saving u_i = w_i (count_surprise_i - tests_i), w_i = e_min / e_i <= 1 with
e_i binary splitting's tests estimated from n and the count
(problem.splitting_estimate), given every instance's count (Jensen).

For each kappa in KAPPAS the product over the instances of
(1 - kappa + kappa 2^s_i) is then a nonnegative supermartingale of mean <=
1: a capped-loss e-process, where an instance that wastes tests costs at
most log2(1 / (1 - kappa)) bits, so waste cannot buy back savings made
elsewhere. Their average over KAPPAS has mean <= 1 too; so has the mean over
the instances of 2^s_i. The figures, all log2 of such e-values:

- `capped_bits`: the average over KAPPAS of the products over s_i;
- `scaled_capped_bits`: the same with instance i's bet kappa * c_i, c_i =
  bound_min / bound_i from the priors alone: most on the small instances,
  where the score pays most for a saved bit;
- `weighted_capped_bits`: the same as capped_bits over u_i;
- `spike_bits`: log2 of the mean of 2^s_i (>= max_saved_bits - log2 N);
- `cheat_bits`: log2 of the mean of those four e-values. Its mean is <=
  1, so an honest tester reaches c with probability at most 2^-c (Markov),
  and a run is `suspect` at SUSPECT_BITS.

`saved_bits`, `weighted_saved_bits` and `max_saved_bits` are the plain sums
and the largest saving, shown to read (kappa = 1 is the plain sums).
docs/cheating.md has the proofs. Everything is
computed in log space: a saving may be 40 bits, a product has 500 factors.
"""

import math

from . import problem

SUSPECT_BITS = 20.0     # cheat_bits at which a run is flagged (p <= 2**-20 if honest)
KAPPAS = tuple(2.0 ** -j for j in range(18, -1, -1))   # the grid, 2^-18 .. 1 (19 bets)
DIGITS = 6              # decimals kept of every figure
KEYS = ("saved_bits", "weighted_saved_bits", "max_saved_bits", "capped_bits",
        "scaled_capped_bits", "weighted_capped_bits", "spike_bits", "cheat_bits")


def log2_sum(values):
    """log2 of the sum of 2^v over `values` (-inf for none), without overflow."""
    values = list(values)
    top = max(values, default=-math.inf)
    if top == -math.inf:
        return -math.inf
    return top + math.log2(math.fsum(2.0 ** (v - top) for v in values))


def log2_mean(values):
    """log2 of the mean of 2^v over `values`."""
    values = list(values)
    return log2_sum(values) - math.log2(len(values))


def capped_term(kappa, saving):
    """log2(1 - kappa + kappa 2^saving), in bits: one factor of an e-process.
    At least log2(1 - kappa) however negative the saving."""
    if kappa == 1.0:
        return saving
    low, high = math.log2(1.0 - kappa), math.log2(kappa) + saving
    top, gap = max(low, high), -abs(low - high)
    return top + math.log1p(2.0 ** gap) / math.log(2.0)


def capped_bits(savings, *, kappas=KAPPAS, scales=None):
    """log2 of the average over `kappas` of the products of the capped
    factors of `savings`, instance i's bet kappa * scales[i] (1 if None)."""
    scales = scales or [1.0] * len(savings)
    return log2_mean(math.fsum(capped_term(k * c, s) for s, c in zip(savings, scales))
                     for k in kappas)


def scales(entries):
    """bound_min / bound_i of each entry (its entropy bound, from the priors
    alone): the scaled bets stake most where a saved bit is worth most."""
    least = min(e["bound"] for e in entries)
    return [least / e["bound"] if e["bound"] > 0 else 1.0 for e in entries]


def weights(entries):
    """w_i = e_min / e_i of each entry: its weight like the score's."""
    estimates = [problem.splitting_estimate(e["n"], e["defective_count"]) for e in entries]
    least = min(estimates)
    return [least / estimate for estimate in estimates]


def combine(capped, scaled, weighted, spike):
    """cheat_bits from the four figures: log2 of the mean of their e-values."""
    return log2_mean((capped, scaled, weighted, spike))


def statistics(entries):
    """The cheat statistics of a run's item entries, as a dict (the values
    rounded to DIGITS decimals; `suspect` a bool). None values for no entry."""
    if not entries:
        return dict(dict.fromkeys(KEYS), suspect=False)
    saved = [e["surprise"] - e["tests"] for e in entries]
    counted = [w * (e["count_surprise"] - e["tests"]) for w, e in zip(weights(entries), entries)]
    figures = {"saved_bits": math.fsum(saved), "weighted_saved_bits": math.fsum(counted),
               "max_saved_bits": max(saved), "capped_bits": capped_bits(saved),
               "scaled_capped_bits": capped_bits(saved, scales=scales(entries)),
               "weighted_capped_bits": capped_bits(counted), "spike_bits": log2_mean(saved)}
    bits = combine(figures["capped_bits"], figures["scaled_capped_bits"],
                   figures["weighted_capped_bits"], figures["spike_bits"])
    figures = {key: round(value, DIGITS) for key, value in figures.items()}
    return dict(figures, cheat_bits=round(bits, DIGITS), suspect=bits >= SUSPECT_BITS)


def running_statistics(entries):
    """The flag of a comparison, looked at after every instance: `cheat_bits`
    of the capped e-process over the raw savings alone (the average over
    KAPPAS), and `suspect` at SUSPECT_BITS. Each factor's bet is fixed before
    its instance, so the average is a nonnegative supermartingale of mean
    <= 1 and, by Ville's inequality, an honest tester ever reaches c bits,
    at whatever comparison it is looked at, with probability at most 2^-c.
    (statistics() is for a whole set: its scaled and weighted parts set each
    instance's bet from the whole set, known only at the end.)"""
    if not entries:
        return {"cheat_bits": None, "suspect": False}
    bits = capped_bits([e["surprise"] - e["tests"] for e in entries])
    return {"cheat_bits": round(bits, DIGITS), "suspect": bits >= SUSPECT_BITS}
