"""A test fixture: an honest tester that carries state from one instance to
the next. It runs the calibration tester's groups with a group mass taken
from a short menu, moving to the next mass whenever the last instance cost
more tests than defectives times log2(n): its state depends on earlier
answers only, as an honest tester's may.
"""

import math

MASSES = (0.5, 1.0, 2.0)        # summed prior a group may hold, the menu
state = {"choice": 1}


def split(items, test):
    found, unresolved = [], list(items)
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
    mass, calls = MASSES[state["choice"]], []

    def counted(pool):
        calls.append(1)
        return test(pool)

    order = sorted(range(n), key=lambda i: (-priors[i], i))
    found, group, total = [], [], 0.0
    for i in order:
        if group and total + priors[i] > mass:
            found += split(group, counted)
            group, total = [], 0.0
        group.append(i)
        total += priors[i]
    found += split(group, counted)
    if len(calls) > max(1, len(found)) * math.log2(n):
        state["choice"] = (state["choice"] + 1) % len(MASSES)
    return sorted(found)
