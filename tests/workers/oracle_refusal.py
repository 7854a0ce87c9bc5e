"""Breaks `oracle_refusal`: a test the oracle refuses reads as negative."""

from base import run, worker


class OracleConnection(worker.OracleConnection):
    def test(self, pool):
        try:
            return super().test(pool)
        except worker.OracleError:
            return False


run(OracleConnection=OracleConnection)
