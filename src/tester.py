"""The tester: find the defective items of one instance with pooled tests.

find(n, priors, test) gets n items (0 .. n-1), each item's prior probability
of being defective, and test(pool), which asks the grader's oracle whether any
item of `pool` (a list of 1..n distinct item indices) is defective and returns
True or False. Every call of test is one counted test. find returns exactly
the defectives, sorted.

This version is binary splitting: it ignores the priors. Test every item not
yet resolved; if the pool is positive, halve it down to one defective (test
the first half; when that is negative, the second half holds a defective and
is not tested); set that item aside with the items cleared on the way, and
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
