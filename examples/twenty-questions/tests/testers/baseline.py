"""The tester: find one hidden animal with yes/no questions and guesses.

play(ask, guess) plays one round. ask(question) returns the frozen matrix's
answer, True or False, for a question id in 0..558; guess(animal) returns
True when the animal id (0..1471) is the hidden one, which ends the round.
Each call uses one of the round's 15 calls; play returns nothing, since the
oracle knows whether it found the animal.

This version is the baseline: it keeps the animals whose rows agree with
every answer so far, asks the question whose yes/no split of them is the
most even, and guesses the first of them once GUESS_AT or fewer are left, or
when only GUESS_CALLS calls are left. It reads the pools' matrix from
../data/ beside this folder, uses the standard library only, and decides
the same way every time.

This file is the tests' frozen copy of the shipped src/tester.py (only the
path to data/ differs), so that the tests and the self-check say the same
whatever tester src/ holds.
"""

import functools
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "data")
BUDGET = 15         # calls a round may use, guesses included
GUESS_AT = 3        # candidates left at or below which guessing beats asking
GUESS_CALLS = 2     # calls left at or below which it only guesses


@functools.lru_cache(maxsize=1)
def table():
    """(animals, columns): the pool's size, and for each question the set
    of animals answering yes, as an int with bit a for animal a."""
    with open(os.path.join(DATA, "matrix.txt"), encoding="utf-8") as f:
        rows = f.read().split()
    return len(rows), tuple(int("".join(column)[::-1], 2) for column in zip(*rows))


@functools.lru_cache(maxsize=None)
def decide(candidates, left):
    """("ask", question) or ("guess", animal) for the candidates (an int,
    bit a for animal a, not 0) with `left` calls left. Cached: every round
    starts from the same candidates, so rounds share most decisions."""
    count = candidates.bit_count()
    first = (candidates & -candidates).bit_length() - 1
    if count <= GUESS_AT or left <= GUESS_CALLS:
        return "guess", first
    best, best_gap = None, count
    for question, yes in enumerate(table()[1]):
        gap = abs(2 * (yes & candidates).bit_count() - count)
        if gap < best_gap:
            best, best_gap = question, gap
            if gap <= 1:
                break
    if best is None:                  # no question tells them apart
        return "guess", first
    return "ask", best


def play(ask, guess):
    animals, columns = table()
    candidates = (1 << animals) - 1
    for used in range(BUDGET):
        kind, value = decide(candidates, BUDGET - used)
        if kind == "guess":
            if guess(value):
                return
            candidates &= ~(1 << value)
        elif ask(value):
            candidates &= columns[value]
        else:
            candidates &= ~columns[value]
        if not candidates:            # answers no animal gives: nothing to find
            return
