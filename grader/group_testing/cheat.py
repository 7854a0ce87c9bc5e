"""The cheat flag: three statistics of the bits a run saved below the
information its instances hold, and the one threshold they share.

    stats = cheat.statistics(entries)   # entries of result.json's "items"
    stats["cheat_bits"], stats["suspect"]

Each entry needs `tests`, `surprise` (-log2 P(its defective set)),
`count_surprise` (the same given the count of defectives), `n` and
`defective_count`. An honest deterministic tester saves X_i = surprise_i -
tests_i bits on instance i with E[2^X_i] <= 1 whatever it did before
(Kraft's inequality on its decision tree), so:

- `max_saved_bits`, the most saved on one instance: P(>= s) <= N 2^-s;
- `saved_bits`, the sum: P(>= s) <= 2^-s;
- `weighted_saved_bits`, sum of w_i (count_surprise_i - tests_i) with
  w_i = e_min / e_i <= 1, e_i binary splitting's tests estimated from n and
  the count (problem.splitting_estimate): weighted like the score, which
  divides by binary splitting's tests; P(>= s) <= 2^-s.

`cheat_bits` = max(saved, weighted, max - log2 N) - log2 3: an honest tester
reaches c with probability at most 2^-c, and a run is `suspect` at
SUSPECT_BITS. PROGRAM.md ("What counts as cheating") has the proofs.
"""

import math

from . import problem

SUSPECT_BITS = 20.0     # cheat_bits at which a run is flagged (p <= 2**-20 if honest)
DIGITS = 6              # decimals kept of every figure


def statistics(entries):
    """The cheat statistics of a run's item entries, as a dict (the values
    rounded to DIGITS decimals; `suspect` a bool). None values for no entry."""
    if not entries:
        return {"saved_bits": None, "weighted_saved_bits": None, "max_saved_bits": None,
                "cheat_bits": None, "suspect": False}
    estimates = [problem.splitting_estimate(e["n"], e["defective_count"]) for e in entries]
    least = min(estimates)
    saved = [e["surprise"] - e["tests"] for e in entries]
    weighted = math.fsum(least / estimate * (e["count_surprise"] - e["tests"])
                         for e, estimate in zip(entries, estimates))
    total, most = math.fsum(saved), max(saved)
    bits = max(total, weighted, most - math.log2(len(entries))) - math.log2(3)
    return {"saved_bits": round(total, DIGITS), "weighted_saved_bits": round(weighted, DIGITS),
            "max_saved_bits": round(most, DIGITS), "cheat_bits": round(bits, DIGITS),
            "suspect": bits >= SUSPECT_BITS}
