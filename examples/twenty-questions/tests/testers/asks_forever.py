"""A tester that is wasteful but not faulty: it asks question 0 until the
oracle stops answering. At 15 calls the round simply ends, so the run must
be valid, with every round scoring 0 at 15 calls. It lets the oracle's
refusal of call 16 escape from play, as the end of a round does."""


def play(ask, guess):
    while True:
        ask(0)
