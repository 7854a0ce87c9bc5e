"""Breaks `health`: GET /health answers 503."""

from base import run, template


class Handler(template.Handler):
    def do_GET(self):
        if self.path == "/health":
            return self.reply(503, {"ok": False})
        return super().do_GET()


run(Handler=Handler)
