"""Breaks `keeps_serving`: once it has refused a request, /health answers 503."""

from base import run, template


class Handler(template.Handler):
    def reply(self, code, obj):
        if 400 <= code < 500:
            self.server.refused = True
        super().reply(code, obj)

    def do_GET(self):
        if self.path == "/health" and getattr(self.server, "refused", False):
            return super().reply(503, {"ok": False})
        return super().do_GET()


run(Handler=Handler)
