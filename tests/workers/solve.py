"""Breaks `solve`: the answer comes back under the key "result"."""

from base import run, worker


class Worker(worker.Worker):
    def solve(self, token, fields, **options):
        status, reply = super().solve(token, fields, **options)
        return status, {"result": reply["answer"]} if status == 200 else reply


run(Worker=Worker)
