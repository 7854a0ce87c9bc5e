"""Breaks `oracle_token`: the scheme goes out as "bearer", which the oracle
refuses (403)."""

from base import run, worker


class OracleConnection(worker.OracleConnection):
    def __init__(self, url, token):
        super().__init__(url, token)
        self.head = self.head.replace(b"Bearer ", b"bearer ")


run(OracleConnection=OracleConnection)
