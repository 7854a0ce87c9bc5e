"""A test fixture: a cheating tester that knows the answers and hides it.

It reads the defectives of every instance from `items.jsonl` beside this
file, and plans its counts over the whole set: on each instance it makes
just enough tests (repeats of one valid pool) that it saves at most SAFE
bits there, then wastes tests on the instances with the largest baselines,
within their caps, until the sum of saved bits is under TARGET. The raw sum
and the largest saving stay below what flags a run; the score-weighted sum
does not.
"""

import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SAFE = 24.0      # bits saved on one instance at most
TARGET = 15.0    # bits saved over the set at most


def surprise(priors, defectives):
    chosen = set(defectives)
    ln_p = math.fsum(math.log(p) if i in chosen else math.log1p(-p)
                     for i, p in enumerate(priors))
    ln_some = math.log(-math.expm1(math.fsum(math.log1p(-p) for p in priors)))
    return (ln_some - ln_p) / math.log(2.0)


def plan():
    with open(os.path.join(HERE, "items.jsonl"), encoding="utf-8") as f:
        items = [json.loads(line) for line in f if line.strip()]
    bits = [surprise(it["priors"], it["defectives"]) for it in items]
    tests = [max(0, math.ceil(b - SAFE)) for b in bits]
    saved = sum(bits) - sum(tests)
    for i in sorted(range(len(items)), key=lambda i: -items[i]["baseline"]):
        if saved < TARGET:
            break
        more = min(2 * items[i]["n"] + 64 - tests[i], math.ceil(saved - TARGET + 0.5))
        tests[i] += more
        saved -= more
    return {tuple(it["priors"]): (it["defectives"], t) for it, t in zip(items, tests)}


PLAN = plan()


def find(n, priors, test):
    defectives, tests = PLAN[tuple(priors)]
    for _ in range(tests):
        test([0])
    return defectives
