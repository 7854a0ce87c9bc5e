"""A test fixture: recursive halving, the splitting docs/scoring.md ("The
baseline, exactly") contrasts with the baseline's.

Test all the items; a positive pool is cut in two (the first half has
floor(len / 2) items); the first half is tested, the second only when the
first was positive (otherwise it holds a defective and is not tested), and
each positive half is cut again, down to single items.
"""


def positives(items, test, *, known):
    """The defectives among `items`; `known` when they hold one for sure."""
    if not known and not test(items):
        return []
    if len(items) == 1:
        return list(items)
    half = len(items) // 2
    first = positives(items[:half], test, known=False)
    return first + positives(items[half:], test, known=not first)


def find(n, priors, test):
    return sorted(positives(list(range(n)), test, known=False))
