"""A faulty tester: it guesses animal 1472, one past the pool's end. The
oracle refuses the guess without using a call, the refusal raises in play,
and play lets it escape: the round must fail, counted at 0 calls."""


def play(ask, guess):
    guess(1472)
