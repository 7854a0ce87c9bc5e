"""A test fixture: binary splitting, frozen, so that tests which need known
counts never depend on what src/tester.py holds.

It makes exactly the baseline's tests (grader/group_testing/problem.py's baseline_tests)
on every instance, and so scores exactly 1.0. Test every item not yet
resolved; if the pool is positive, halve it down to one defective (test the
first half; when that is negative, the second half holds a defective and is
not tested); set that item aside with the items cleared on the way, and
start again until a test of all that is left comes back negative.
"""


def find(n, priors, test):
    defectives = []
    unresolved = list(range(n))
    while unresolved and test(unresolved):
        pool, cleared = unresolved, set()
        while len(pool) > 1:
            half = pool[:len(pool) // 2]
            if test(half):
                pool = half
            else:
                cleared.update(half)
                pool = pool[len(pool) // 2:]
        defectives.append(pool[0])
        cleared.add(pool[0])
        unresolved = [i for i in unresolved if i not in cleared]
    return sorted(defectives)
