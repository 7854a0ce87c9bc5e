"""Breaks `port_zero`: its "listening on" line names port 1, not its own."""

from base import run, worker


class Worker(worker.Worker):
    def server_bind(self):
        super().server_bind()
        self.server_address = (self.server_address[0], 1)


run(Worker=Worker)
