"""Breaks `line_414`: a request line over the limit gets 400."""

from base import run, template


class Handler(template.Handler):
    def send_error(self, code, message=None, explain=None):
        super().send_error(400 if code == 414 else code, message, explain)


run(Handler=Handler)
