"""Breaks `unknown_keys`: a /solve with a key but token, n, priors and
deadline is refused with 400, as contract 1.0 said, though the worker says
it speaks 1.1."""

import json

from base import run, template

KEYS = {"token", "n", "priors", "deadline"}


class Handler(template.Handler):
    def read_body(self, length):
        body = super().read_body(length)
        try:
            request = json.loads(body)
        except ValueError:
            return body
        if type(request) is dict and set(request) - KEYS:
            raise template.BadRequest(400, "unknown keys %r" % sorted(set(request) - KEYS))
        return body


run(Handler=Handler)
