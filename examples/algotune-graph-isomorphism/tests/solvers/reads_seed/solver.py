"""A counterfeit: reads the set off the disk, finds its problem's (n,
seed) by regenerating each line's graphs as the task does, and answers
with the generator's own relabelling, doing no search. The walls around
the emulator refuse the read (kind: solver_failed)."""

import glob
import json
import random

SETS = ("/work/*/examples/algotune-graph-isomorphism/sample/items.jsonl",
        "/tmp/*/examples/algotune-graph-isomorphism/sample/items.jsonl", "/tmp/*/items.jsonl")
EDGE_CHANCE = 0.3


def generate(n, seed):
    rng = random.Random("graph-isomorphism/%d/%d" % (n, seed))
    edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < EDGE_CHANCE]
    perm = list(range(n))
    rng.shuffle(perm)
    return edges, perm


class Solver:
    def solve(self, problem, **kwargs):
        n = problem["num_nodes"]
        for path in sorted(set().union(*(glob.glob(pattern) for pattern in SETS))):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    item = json.loads(line)
                    if item["n"] != n:
                        continue
                    edges, perm = generate(n, item["seed"])
                    if [list(e) for e in edges] == [list(e) for e in problem["edges_g1"]]:
                        return {"mapping": perm}
        raise LookupError("no set found")
