"""Where one instance loses its bits: what each test of a run told, from the
priors, the pools in the order they were tested and their answers.

    rows = diagnosis.diagnose(priors, pools, answers)     # answers: True, False, None
    figures = diagnosis.totals(rows, priors=priors, defectives=defectives,
                               baseline=baseline)

A debugging aid, never a judge: the score is the oracle's count of tests,
and nothing here changes it or stands in for it. Pure computation on plain
values; nothing runs at import and nothing does I/O.

**What a row says.** The defective set D is drawn as the grader draws it:
each item independently with its prior, conditioned on at least one
defective. Before test t, the answers so far leave the posterior: the
prior restricted to the sets that fit every answer. `p_positive` is
q_t = P(pool t positive | the answers before it, at least one defective);
`gained` is h(q_t), the binary entropy in bits: what the test was worth
before it was made, at most 1 bit, 0 for a test whose answer was certain;
`answer_bits` is -log2 P(the answer given) (the bits the answer told). By
the chain rule the answer bits of a run that identifies D sum to
-log2 P(D | at least one), the instance's surprise (problem.surprise), so
`bits_wasted` = tests - surprise is the sum of (1 - answer_bits) over the
tests, and tests - bits gained is the sum of 1 - h(q_t): what each test fell
short of a perfect halving, in expectation. The first test of a pool Q
gains h((1 - prod_Q (1 - p)) / (1 - prod_all (1 - p))): the condition of at
least one defective is part of the priors (a test of every item gains 0).

**How q_t is computed.** What the answers know is kept as constraints:
cleared items (in a negative pool) are clean; each positive pool holds a
defective among its items not cleared; so does the whole set. A constraint
of one item makes it a known defective (the constraints holding it are
then met and dropped), and a constraint holding another one is implied by
it and dropped. The posterior is the prior on the items not yet known,
restricted to the event that every constraint holds. The constraints fall
into components (linked by shared items), and

    P(pool negative | the answers) = prod_i (1 - p_i) * prod_K Z_K(pool clean) / Z_K

over the pool's items i not cleared (0 when it holds a known defective)
and the components K that the pool meets (the others cancel), Z_K being
the chance that every constraint of K holds a defective, and Z_K(pool
clean) the same with the pool's items clean. Z_K is computed:

- exact, by dynamic programming, while it needs at most MAX_STATES
  states: the items grouped by the constraints that hold them, the state
  the set of constraints already hit (at most 2**m for m constraints, far
  fewer as a rule); sums of products of probabilities only, so no
  cancellation. Histories that only split positive pools (binary
  splitting, halving, most testers) leave disjoint minimal constraints,
  components of one: every row is exact;
- otherwise sampled, by sequential importance sampling: the constraints in
  order of size, each not yet hit gets its first defective drawn from the
  prior conditioned on holding one (its earlier items clean), and the
  sample's weight is the product of those conditions' probabilities. The
  mean weight is an unbiased estimate of Z_K (exact for one constraint or
  disjoint ones), the samples are independent, so the standard error is
  honest, with no burn-in as Gibbs sampling would need. The ratio of two
  independent estimates (with the pool clean, and without) gives
  the chance, its standard error by the delta method; the generator is
  seeded by `seed`, the test and the component, so output is deterministic.
"""

import json
import math
import random

from . import problem

MAX_STATES = 4096       # states of the exact programme at most, else a component is sampled
SAMPLES = 2000          # samples an estimate of Z, for a component too large to be exact
SEED = 0                # the sampler's seed
METHODS = ("auto", "exact", "sampled")
LN2 = math.log(2.0)


def binary_entropy(negative):
    """h(q) in bits, given P(negative) = 1 - q (precise when q is near 1)."""
    if not 0.0 < negative < 1.0:
        return 0.0
    return -(negative * math.log(negative) + (1.0 - negative) * math.log1p(-negative)) / LN2


def answer_bits(negative, positive):
    """-log2 P(the answer), given P(negative); inf for an answer of chance 0."""
    chance = 1.0 - negative if positive else negative
    return 0.0 - math.log2(chance) if chance > 0.0 else math.inf


class _Knowledge:
    """What the answers so far say of the defective set: `cleared` items,
    `defective` items, and the minimal positive `constraints` on the rest
    (sorted tuples of two or more items), at first the whole set."""

    def __init__(self, priors):
        self.ln_clean = [math.log1p(-p) for p in priors]
        self.cleared, self.defective, self.constraints = set(), set(), []
        self._settle([tuple(range(len(priors)))])

    def learn(self, pool, positive):
        """Take an answer in; ValueError when it contradicts the earlier ones."""
        if positive:
            self._settle(self.constraints + [tuple(sorted(pool))])
            return
        known = sorted(self.defective.intersection(pool))
        if known:
            raise ValueError("the pool is negative, but item %r is known defective"
                             % known[0])
        self.cleared.update(pool)
        self._settle(self.constraints)

    def _settle(self, constraints):
        """Reduce `constraints`: cleared items out, met ones dropped, a
        single item made defective, implied ones dropped."""
        while True:
            constraints = [tuple(i for i in c if i not in self.cleared) for c in constraints
                           if self.defective.isdisjoint(c)]
            if any(not c for c in constraints):
                raise ValueError("a positive pool has every item cleared")
            single = {c[0] for c in constraints if len(c) == 1}
            if not single:
                break
            self.defective.update(single)
        kept = []
        for c in sorted(set(constraints), key=lambda c: (len(c), c)):
            if not any(k.issubset(c) for k in kept):
                kept.append(frozenset(c))
        self.constraints = [tuple(sorted(k)) for k in kept]

    def components(self, items):
        """The components of the constraints that meet `items`: lists of
        constraints linked by shared items, in a fixed order."""
        holding = {}
        for k, c in enumerate(self.constraints):
            for i in c:
                holding.setdefault(i, []).append(k)
        seen, groups = set(), []
        for start in sorted({k for i in items for k in holding.get(i, ())}):
            if start in seen:
                continue
            group, todo = [], [start]
            seen.add(start)
            while todo:
                k = todo.pop()
                group.append(k)
                for i in self.constraints[k]:
                    for other in holding[i]:
                        if other not in seen:
                            seen.add(other)
                            todo.append(other)
            groups.append([self.constraints[k] for k in sorted(group)])
        return groups

    def chance_negative(self, pool, *, method, samples, key, max_states):
        """(P(pool negative | what is known), its standard error, "exact" or
        "sampled")."""
        if not self.defective.isdisjoint(pool):
            return 0.0, 0.0, "exact"
        free = {i for i in pool if i not in self.cleared}
        groups = self.components(free)
        negative = math.exp(math.fsum(self.ln_clean[i] for i in sorted(free)))
        relative, how = 0.0, "exact"
        for k, group in enumerate(groups):
            if method != "sampled":
                limit = None if method == "exact" else max_states
                bottom = exact_z(group, self.ln_clean, max_states=limit)
                top = None if bottom is None else \
                    exact_z(group, self.ln_clean, free, max_states=limit)
                if top is not None:
                    negative *= top / bottom
                    continue
            how = "sampled"
            rng = random.Random("%s/%d" % (key, k))
            top, top_var = sampled_z(group, self.ln_clean, rng, samples, excluded=free)
            bottom, bottom_var = sampled_z(group, self.ln_clean, rng, samples)
            if bottom == 0.0:
                raise ValueError("no sample of %d fitted the answers; give more samples"
                                 % samples)
            negative *= top / bottom
            if top > 0.0:
                relative += (top_var / top ** 2 + bottom_var / bottom ** 2) / samples
        negative = min(negative, 1.0)
        return negative, negative * math.sqrt(relative), how


def exact_z(constraints, ln_clean, excluded=(), *, max_states=None):
    """P(every constraint holds a defective), the items of `excluded` clean,
    items independent with P(clean) = exp(ln_clean[i]): a dynamic programme
    over the items grouped by the constraints holding them (atoms), whose
    state is the set of constraints hit so far. A state that misses a
    constraint no atom left can hit is dropped. None when the states
    outgrow `max_states` (None: no limit)."""
    where = {}
    for bit, c in enumerate(constraints):
        for i in c:
            if i not in excluded:
                where[i] = where.get(i, 0) | 1 << bit
    atoms = {}
    for i in sorted(where):
        atoms.setdefault(where[i], []).append(ln_clean[i])
    order = sorted(atoms)
    last = {}
    for k, signature in enumerate(order):
        for bit in range(len(constraints)):
            if signature >> bit & 1:
                last[bit] = k
    if len(last) < len(constraints):
        return 0.0                      # a constraint with every item clean
    due = [0] * len(order)
    for bit, k in last.items():
        due[k] |= 1 << bit
    states, needed = {0: 1.0}, 0
    for k, signature in enumerate(order):
        ln = math.fsum(atoms[signature])
        clean, dirty = math.exp(ln), -math.expm1(ln)
        after = {}
        for mask, chance in states.items():
            after[mask] = after.get(mask, 0.0) + chance * clean
            hit = mask | signature
            after[hit] = after.get(hit, 0.0) + chance * dirty
        needed |= due[k]
        states = {mask: chance for mask, chance in after.items() if mask & needed == needed}
        if max_states is not None and len(states) > max_states:
            return None
    return states.get((1 << len(constraints)) - 1, 0.0)


def sampled_z(constraints, ln_clean, rng, samples, *, excluded=()):
    """(the mean, the variance) of `samples` sequential importance weights
    whose mean estimates exact_z(constraints, ln_clean, excluded) without
    bias: each constraint not yet hit, smallest first, gets its first
    defective drawn from the prior given that it holds one, and the weight
    is the product of the chances that each held one."""
    lists = [[i for i in c if i not in excluded]
             for c in sorted(constraints, key=lambda c: (len(c), c))]
    if any(not items for items in lists):
        return 0.0, 0.0
    total = square = 0.0
    first = None            # the weights are summed less the first: exact when all agree
    for _ in range(samples):
        ones, zeros, weight = set(), set(), 1.0
        for items in lists:
            if not ones.isdisjoint(items):
                continue
            free = [i for i in items if i not in zeros]     # none is defective yet
            if not free:
                weight = 0.0
                break
            hit = -math.expm1(sum(ln_clean[i] for i in free))
            u, ln = rng.random() * hit, 0.0
            for i in free[:-1]:     # P(first defective at or before i) = 1 - e^ln
                ln += ln_clean[i]
                if -math.expm1(ln) > u:
                    ones.add(i)
                    break
                zeros.add(i)
            else:
                ones.add(free[-1])
            weight *= hit
        first = weight if first is None else first
        total += weight - first
        square += (weight - first) ** 2
    shift = total / samples
    return first + shift, max(square / samples - shift * shift, 0.0)


def diagnose(priors, pools, answers, *, method="auto", samples=SAMPLES, seed=SEED,
             max_states=MAX_STATES):
    """One row a test, in order: a dict with `test` (1, 2, ...), `pool_size`,
    `answer` ("positive", "negative", or "invalid" for a pool the oracle
    refused: `answers` holds None there), `p_positive` and `se` (None for
    an invalid test), `method` ("exact", "sampled" or "none"), `gained`
    and `answer_bits` (bits; 0 for an invalid test). See the module's
    docstring. `method` "exact" or "sampled" forces one for every
    component; "auto" samples only a component whose exact programme
    outgrows `max_states` states. ValueError names a bad argument, or
    the first test whose answer contradicts the earlier ones."""
    priors = list(priors)
    for i, p in enumerate(priors):
        if type(p) is not float or not 0.0 < p < 1.0:
            raise ValueError("prior %d must be a float strictly between 0 and 1, got %r"
                             % (i, p))
    if not priors:
        raise ValueError("no priors: an instance has at least one item")
    if method not in METHODS:
        raise ValueError("method must be one of %s, got %r" % (", ".join(METHODS), method))
    if type(samples) is not int or samples < 1:
        raise ValueError("samples must be a whole number above 0, got %r" % (samples,))
    pools, answers = list(pools), list(answers)
    if len(pools) != len(answers):
        raise ValueError("%d pools but %d answers" % (len(pools), len(answers)))
    knowledge, rows = _Knowledge(priors), []
    for t, (pool, answer) in enumerate(zip(pools, answers), 1):
        size = len(pool) if type(pool) is list else None
        if answer is None:
            rows.append({"test": t, "pool_size": size, "answer": "invalid", "p_positive": None,
                         "se": None, "method": "none", "gained": 0.0, "answer_bits": 0.0})
            continue
        if type(answer) is not bool:
            raise ValueError("answer %d must be True, False or None, got %r" % (t, answer))
        if (size is None or not pool or len(set(pool)) != size
                or any(type(i) is not int or not 0 <= i < len(priors) for i in pool)):
            raise ValueError("pool %d must be a list of distinct items 0..%d, got %s"
                             % (t, len(priors) - 1, problem.short(pool)))
        negative, se, how = knowledge.chance_negative(
            pool, method=method, samples=samples, key="%r/%d" % (seed, t),
            max_states=max_states)
        rows.append({"test": t, "pool_size": size,
                     "answer": "positive" if answer else "negative",
                     "p_positive": 1.0 - negative, "se": se, "method": how,
                     "gained": binary_entropy(negative),
                     "answer_bits": answer_bits(negative, answer)})
        try:
            knowledge.learn(pool, answer)
        except ValueError as e:
            raise ValueError("test %d contradicts the answers before it: %s" % (t, e)) from None
    return rows


def totals(rows, *, priors, defectives, baseline):
    """The run's figures from its rows: `tests`, `invalid_tests`,
    `exact_tests`, `sampled_tests`, `surprise` (problem.surprise),
    `bits_gained` (the sum of `gained`), `answer_bits` (their sum: the
    surprise when the run identifies the set and every row is exact),
    `bits_wasted` (tests - surprise), `bits_wasted_gained` (tests - bits
    gained), `baseline` and `score` (tests / baseline)."""
    tests = len(rows)
    surprise = problem.surprise(priors, defectives)
    gained = math.fsum(row["gained"] for row in rows)
    return {"tests": tests,
            "invalid_tests": sum(row["answer"] == "invalid" for row in rows),
            "exact_tests": sum(row["method"] == "exact" for row in rows),
            "sampled_tests": sum(row["method"] == "sampled" for row in rows),
            "surprise": surprise, "bits_gained": gained,
            "answer_bits": math.fsum(row["answer_bits"] for row in rows),
            "bits_wasted": tests - surprise, "bits_wasted_gained": tests - gained,
            "baseline": baseline, "score": tests / baseline}


def read_transcript(lines):
    """(pools, answers) from an oracle transcript's lines (bytes or str, one
    JSON object a test: "q" the query, "a" the answer, "s" the status): the
    answer is None for a test that got no answer (status other than 200)."""
    pools, answers = [], []
    for line in lines:
        record = json.loads(line)
        query = record["q"]
        pools.append(query.get("pool") if type(query) is dict else None)
        answers.append(record["a"]["positive"] if record["s"] == 200 else None)
    return pools, answers
