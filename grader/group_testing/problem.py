"""Group testing as the grader sees it: the oracle's rules, the answer check,
the baseline's count, the instance check and the information measures.

Everything here is pure computation on plain values; nothing does I/O. The
oracle in arh_grader knows nothing of this module: grade.py hands it
`check_query` and `answer_query`.
"""

import math

from . import calibration
from arh_grader import QueryError, canonical

N_MIN, N_MAX = 64, 512          # items an instance, inclusive
FAMILIES = ("uniform", "two-tier", "log-normal")
FIELDS = ("n", "family", "priors", "defectives", "baseline")
LN2 = math.log(2.0)


class AnswerError(ValueError):
    """A tester's answer that fails; `kind` is "schema" or "wrong"."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


class SetError(ValueError):
    """An instance that breaks the set's rules (the run is `invalid_set`)."""


def short(value, limit=60):
    """repr(value), cut to `limit` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ---- the oracle's rules ----------------------------------------------------

def cap(n):
    """The most tests an instance of n items may make."""
    return 2 * n + 64


def max_body(n):
    """The largest test body the oracle reads for n items, in bytes: room
    for every index once, with a space after each comma."""
    return 16 + n * (len(str(n)) + 2)


def check_query(secret, query):
    """Raise QueryError unless `query` is {"pool": [1..n distinct indices]}.

    `secret` is (n, defectives, mask) as made by `secret_of`. Booleans and floats
    are not indices, whatever their value.
    """
    n = secret[0]
    if type(query) is not dict or list(query) != ["pool"]:
        raise QueryError("a test must be an object with the one key 'pool', got %s"
                         % short(query))
    pool = query["pool"]
    if type(pool) is not list:
        raise QueryError("pool must be a list, got %s" % short(pool))
    if not 1 <= len(pool) <= n:
        raise QueryError("pool must hold 1 to %d items, got %d" % (n, len(pool)))
    for x in pool:
        if type(x) is not int:
            raise QueryError("pool items must be integers, got %s" % short(x))
        if not 0 <= x < n:
            raise QueryError("pool item %d is out of range 0..%d" % (x, n - 1))
    if len(set(pool)) != len(pool):
        raise QueryError("pool items must be distinct")


def is_positive(secret, query):
    """Whether a checked query's pool holds a defective.

    The work depends on the pool's length alone, never on where its
    defectives are: every item is looked up in the instance's mask and the
    ones are summed, with no early exit. A set's `isdisjoint`, which stops
    at the first defective, answered a positive 512-item pool about 3 us
    sooner when that defective came first, and a pair of tests told which
    end held it; an answer carries one bit, positive or not.
    """
    return sum(map(secret[2].__getitem__, query["pool"])) > 0


_REPLIES = {True: canonical({"positive": True}), False: canonical({"positive": False})}


def answer_query(secret, query):
    """The oracle's answer to a checked query, {"positive": bool}, as its
    canonical JSON: made once, not once a test."""
    return _REPLIES[is_positive(secret, query)]


def secret_of(instance):
    """What the oracle keeps for an instance: (n, frozenset of defectives,
    the mask: n bytes, 1 at each defective and 0 elsewhere)."""
    n, defectives = instance["n"], frozenset(instance["defectives"])
    return n, defectives, bytes(int(i in defectives) for i in range(n))


# ---- the answer ------------------------------------------------------------

def check_answer(answer, defectives, n):
    """Raise AnswerError unless `answer` is exactly the sorted defectives.

    The messages name no item that could be a defective: only positions,
    counts and values out of range.
    """
    if type(answer) is not list:
        raise AnswerError("schema", "find must return a list of integers, got %s"
                          % _kind(answer))
    for i, x in enumerate(answer):
        if type(x) is not int:
            raise AnswerError("schema", "find must return a list of integers; its item "
                              "at position %d is %s" % (i, _kind(x)))
    for i, x in enumerate(answer):
        if not 0 <= x < n:
            raise AnswerError("wrong", "answer item %d is out of range 0..%d" % (x, n - 1))
        if i and x <= answer[i - 1]:
            what = "repeats" if x == answer[i - 1] else "is smaller than"
            raise AnswerError("wrong", "the answer must be sorted and distinct, but its "
                              "item at position %d %s the one before" % (i, what))
    if answer != defectives:
        raise AnswerError("wrong", "the answer (%d items, sorted, in range) is not "
                          "the set of defectives" % len(answer))


def _kind(value):
    """What a JSON value is, without its contents: 'a float', 'null'."""
    if value is None:
        return "null"
    name = {bool: "boolean", float: "float", str: "string", list: "list",
            dict: "object", int: "integer"}.get(type(value), type(value).__name__)
    return "an " + name if name[0] in "aeiou" else "a " + name


# ---- the baseline ----------------------------------------------------------

def baseline_tests(n, defectives):
    """The tests binary splitting makes on an instance: the calibration
    tester's splitting on all n items as one group, a frozen copy of the
    shipped src/tester.py, which agents edit (so editing src/ never moves it)."""
    truth = set(defectives)
    tests = 0

    def test(pool):
        nonlocal tests
        tests += 1
        return not truth.isdisjoint(pool)

    calibration.split(range(n), test)
    return tests


# ---- information measures (bits) -------------------------------------------

def _ln_none(priors):
    """ln P(no item is defective)."""
    return math.fsum(math.log1p(-p) for p in priors)


def binary_entropy_sum(priors):
    """The sum of the items' binary entropies, in bits: H(defective set)
    without the condition of at least one defective, the platform's
    "entropy bound" (SPEC.md's table). entropy_bound is the conditioned one."""
    return math.fsum(-(p * math.log(p) + (1.0 - p) * math.log1p(-p)) for p in priors) / LN2


def entropy_bound(priors):
    """H(defective set | at least one defective), in bits: the tests no
    adaptive tester beats in expectation.

    With P0 = P(none): H(X) = h(P0) + (1 - P0) H(X | X nonempty), and H(X)
    is the sum of the items' binary entropies.
    """
    total = math.fsum(-(p * math.log(p) + (1.0 - p) * math.log1p(-p)) for p in priors)
    ln_none = _ln_none(priors)
    some = -math.expm1(ln_none)
    p0 = 1.0 - some
    h0 = -(p0 * ln_none + some * math.log(some))
    return (total - h0) / some / LN2


def surprise(priors, defectives):
    """-log2 P(this defective set | at least one defective), in bits."""
    chosen = set(defectives)
    ln_p = math.fsum(math.log(p) if i in chosen else math.log1p(-p)
                     for i, p in enumerate(priors))
    return (math.log(-math.expm1(_ln_none(priors))) - ln_p) / LN2


def count_surprise(priors, defectives):
    """-log2 P(this defective set | as many defectives as it has), in bits:
    the surprise left once the count is known. P(count = k) comes from the
    Poisson-binomial recursion over the items."""
    k = len(defectives)
    dist = [1.0] + [0.0] * k            # P(j defectives among the items so far)
    for p in priors:
        for j in range(k, 0, -1):
            dist[j] = dist[j] * (1.0 - p) + dist[j - 1] * p
        dist[0] *= 1.0 - p
    chosen = set(defectives)
    ln_p = math.fsum(math.log(p) if i in chosen else math.log1p(-p)
                     for i, p in enumerate(priors))
    return (math.log(dist[k]) - ln_p) / LN2


def splitting_estimate(n, count):
    """An estimate of binary splitting's tests on n items with `count`
    defectives, from n and the count alone: one test to end, and for each
    defective one test of what is left and a halving of it."""
    return 1.0 + math.fsum(1.0 + math.log2(n - j) for j in range(count))


# ---- the instance ----------------------------------------------------------

def check_instance(item):
    """Raise SetError unless `item` is a well-formed instance with the right
    baseline count."""
    if type(item) is not dict:
        raise SetError("an instance must be a JSON object, got %s" % short(item))
    if sorted(item) != sorted(FIELDS):
        raise SetError("fields must be %s, got %s" % (", ".join(FIELDS), ", ".join(item)))
    n, priors, defectives = item["n"], item["priors"], item["defectives"]
    if type(n) is not int or not N_MIN <= n <= N_MAX:
        raise SetError("n must be an integer in %d..%d, got %s" % (N_MIN, N_MAX, short(n)))
    if item["family"] not in FAMILIES:
        raise SetError("family must be one of %s, got %s"
                       % (", ".join(FAMILIES), short(item["family"])))
    if type(priors) is not list or len(priors) != n:
        raise SetError("priors must be a list of n = %d numbers" % n)
    for i, p in enumerate(priors):
        if type(p) is not float or not 0.0 < p < 1.0:
            raise SetError("prior %d must be a number strictly between 0 and 1, got %s"
                           % (i, short(p)))
    if type(defectives) is not list or not defectives:
        raise SetError("defectives must be a non-empty list")
    for i, x in enumerate(defectives):
        if type(x) is not int or not 0 <= x < n:
            raise SetError("defective %s is not an item index in 0..%d" % (short(x), n - 1))
        if i and x <= defectives[i - 1]:
            raise SetError("defectives must be sorted and distinct, but %d follows %d"
                           % (x, defectives[i - 1]))
    expected = baseline_tests(n, defectives)
    if item["baseline"] != expected or type(item["baseline"]) is not int:
        raise SetError("baseline is %s but binary splitting takes %d tests"
                       % (short(item["baseline"]), expected))
