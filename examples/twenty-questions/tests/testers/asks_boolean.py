"""A faulty tester: it asks question True. JSON true is not an integer, so
the oracle refuses the query without using a call; the refusal raises in
play, which lets it escape: the round must fail."""


def play(ask, guess):
    ask(True)
