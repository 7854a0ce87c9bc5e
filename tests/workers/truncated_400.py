"""Breaks `truncated_400`: a body cut short by the client gets 408."""

from base import run, template


class Handler(template.Handler):
    def read_body(self, length):
        try:
            return super().read_body(length)
        except template.BadRequest as e:
            if e.status == 400:
                raise template.BadRequest(408, str(e)) from None
            raise


run(Handler=Handler)
