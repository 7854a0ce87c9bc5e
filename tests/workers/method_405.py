"""Breaks `method_405`: a method other than GET and POST answers 404."""

from base import run, template


class Handler(template.Handler):
    def not_allowed(self):
        self.reply(404, {"error": "nothing here for %s" % self.command})


run(Handler=Handler)
