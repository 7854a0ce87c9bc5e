"""A counterfeit: it never asks. It reads the set file, set.jsonl beside
itself (or, failing that, the public dev set), and guesses each round's
animal at once, in the set's order: 0.98 on every round. The run must be
flagged: it saves log2(candidates) - 1 bits, about 9.5, on every round, which an
honest tester does with probability below 2^-s over s bits (tq.score.saved_bits)."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SETS = (os.path.join(HERE, "set.jsonl"),
        os.path.join(HERE, os.pardir, os.pardir, "sample", "dev.jsonl"))
_ROUNDS = []      # the set's animals; the next round's is _ROUNDS[_NEXT[0]]
_NEXT = [0]


def _animals():
    path = next(p for p in SETS if os.path.exists(p))
    with open(path, encoding="utf-8") as f:
        return [json.loads(line)["animal"] for line in f if line.strip()]


def play(ask, guess):
    if not _ROUNDS:
        _ROUNDS.extend(_animals())
    animal = _ROUNDS[_NEXT[0] % len(_ROUNDS)]
    _NEXT[0] += 1
    guess(animal)
