"""A test fixture: an honest tester random with a fixed seed. One generator,
seeded once, shuffles each instance's items within bands of similar prior and
picks each split point at random near the middle: its pools depend on the
priors, the answers and its seed's stream, which runs on from instance to
instance.
"""

import random

SEED = 20240601                 # the generator's seed
RNG = random.Random(SEED)


def find(n, priors, test):
    order = sorted(range(n), key=lambda i: (-round(priors[i], 2), RNG.random()))
    found, unresolved = [], order
    while unresolved and test(unresolved):
        pool, cleared = unresolved, set()
        while len(pool) > 1:
            cut = max(1, min(len(pool) - 1, len(pool) // 2 + RNG.randint(-1, 1)))
            if len(unresolved) == len(pool):
                cut = max(1, len(pool) // 8)        # the likely items first
            head = pool[:cut]
            if test(head):
                pool = head
            else:
                cleared.update(head)
                pool = pool[cut:]
        found.append(pool[0])
        cleared.add(pool[0])
        unresolved = [i for i in unresolved if i not in cleared]
    return sorted(found)
