"""A faulty tester: it asks one question, then never returns. The round
must fail at its deadline."""

import time


def play(ask, guess):
    ask(0)
    while True:
        time.sleep(3600)
