"""Breaks `path_404`: GET /solve answers 405."""

from base import run, template


class Handler(template.Handler):
    def do_GET(self):
        if self.path == "/solve":
            return self.reply(405, {"error": "/solve takes POST"})
        return super().do_GET()


run(Handler=Handler)
