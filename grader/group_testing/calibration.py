"""The calibration tester: the reference behind the MMI (docs/scoring.md, "The MMI").

It sorts the items by prior, cuts them into consecutive groups whose summed
prior stays at most 1, and runs binary splitting inside each group. It lives
on the grader's side so that edits to src/ never move it, and it runs through
the same worker and oracle as any tester:

    python3 grader/local.py --tester grader/group_testing/calibration.py

It imports nothing of the project, as a tester must not. Its `split` on all
items as one group is binary splitting itself: grader/group_testing/problem.py counts the
baseline with it.
"""

MASS = 1.0   # the most summed prior a group may hold (an item alone may exceed it)


def groups(priors):
    """Item indices, most likely first, cut into groups of summed prior <= MASS."""
    order = sorted(range(len(priors)), key=lambda i: (-priors[i], i))
    out, group, mass = [], [], 0.0
    for i in order:
        if group and mass + priors[i] > MASS:
            out.append(group)
            group, mass = [], 0.0
        group.append(i)
        mass += priors[i]
    out.append(group)
    return out


def split(items, test):
    """Binary splitting on `items`: the defectives among them."""
    found = []
    unresolved = list(items)
    while unresolved and test(unresolved):
        pool, cleared = unresolved, set()
        while len(pool) > 1:
            half = pool[:len(pool) // 2]
            if test(half):
                pool = half
            else:
                cleared.update(half)
                pool = pool[len(pool) // 2:]
        found.append(pool[0])
        cleared.add(pool[0])
        unresolved = [i for i in unresolved if i not in cleared]
    return found


def find(n, priors, test):
    return sorted(i for group in groups(priors) for i in split(group, test))
