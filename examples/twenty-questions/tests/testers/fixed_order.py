"""A weaker tester, for the sequential comparison: it asks the questions in
their pool order, skipping those whose answer it already knows (every
animal still possible answers them alike), instead of the one that splits
the candidates most evenly. It guesses like the baseline: the first
candidate once three or fewer are left, or when two calls are left.
Deterministic, standard library only; reads ../../data/ beside it.
"""

import functools
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "data")
BUDGET = 15         # calls a round may use, guesses included
GUESS_AT = 3        # candidates left at or below which it guesses
GUESS_CALLS = 2     # calls left at or below which it only guesses


@functools.lru_cache(maxsize=1)
def table():
    """(animals, columns): the pool's size, and each question's yes-set as
    an int with bit a for animal a."""
    with open(os.path.join(DATA, "matrix.txt"), encoding="utf-8") as f:
        rows = f.read().split()
    return len(rows), tuple(int("".join(column)[::-1], 2) for column in zip(*rows))


def play(ask, guess):
    animals, columns = table()
    candidates, question = (1 << animals) - 1, 0
    for used in range(BUDGET):
        count = candidates.bit_count()
        while question < len(columns) and (columns[question] & candidates) in (0, candidates):
            question += 1
        if count <= GUESS_AT or BUDGET - used <= GUESS_CALLS or question == len(columns):
            first = (candidates & -candidates).bit_length() - 1
            if guess(first):
                return
            candidates &= ~(1 << first)
        else:
            yes = ask(question)
            candidates &= columns[question] if yes else ~columns[question]
            question += 1
        if not candidates:
            return
