"""Breaks `truncated_400`: a body cut short by the client gets 408."""

from base import run, worker


class Handler(worker.Handler):
    def read_body(self, length):
        try:
            return super().read_body(length)
        except worker.BadRequest as e:
            if e.status == 400:
                raise worker.BadRequest(408, str(e)) from None
            raise


run(Handler=Handler)
