"""A faulty tester: it asks one question, then raises. The round must fail
with the tester's traceback in the message."""


def play(ask, guess):
    ask(0)
    raise RuntimeError("the tester gave up")
