"""Breaks `slow_test`: a test whose answer takes over a second fails, a
deadline of its own far below the instance's. It times each answer
itself: the check's late answer comes 1.5 s after the test at the least,
so no busy machine makes it look early, and any other answer has a second."""

import time

from base import run, worker

OWN_DEADLINE = 1.0      # seconds


class OracleConnection(worker.OracleConnection):
    def test(self, pool):
        started = time.monotonic()
        positive = super().test(pool)
        if time.monotonic() - started > OWN_DEADLINE:
            raise TimeoutError("no answer within %g s" % OWN_DEADLINE)
        return positive


run(OracleConnection=OracleConnection)
