"""A tester for the cleanup tests that keeps state in its home folder: the
first call of a run that finds ~/STATE makes one test more; then it writes
the file, and tests each item alone (a valid answer)."""

import os

STATE = ".gt-home-state"
seen = []


def find(n, priors, test):
    if not seen:
        seen.append(True)
        path = os.path.join(os.path.expanduser("~"), STATE)
        if os.path.exists(path):
            test([0])
        with open(path, "w", encoding="utf-8") as f:
            f.write("a run was here\n")
    return [i for i in range(n) if test([i])]
