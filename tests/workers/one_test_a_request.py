"""Breaks `one_test_a_request`: every test is sent twice."""

from base import run, worker


class OracleConnection(worker.OracleConnection):
    def test(self, pool):
        super().test(pool)
        return super().test(pool)


run(OracleConnection=OracleConnection)
