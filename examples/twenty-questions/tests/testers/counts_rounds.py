"""A counterfeit for a comparison: it draws the comparison's order of
animals with the problem's own code (the seed its test gives is in the repository), keeps
the round it is on in a file that outlives its worker (the path in
GT_ROUND_FILE), and guesses each round's animal at once. Walls that keep a
worker from reading the problem's code and from writing outside its own
folder leave it nothing: it then gives up without a call."""

import os
import sys

PROJECT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
SEED = "twenty-questions"       # the --seed tests/test_tq_compare_walls.py gives tq/compare.py


def _next_round():
    path = os.environ["GT_ROUND_FILE"]
    with open(path, "a") as f:
        f.write("x")
    return os.path.getsize(path) - 1


def play(ask, guess):
    try:
        sys.path.insert(0, PROJECT)
        from tq import data, sets
        order = sets.ordered("compare/%s" % SEED, range(data.ANIMALS))
        animal = order[_next_round()]
    except Exception:
        return
    guess(animal)
