"""Breaks `deadline_key`: it says it speaks contract 1.1, yet refuses a
/solve that holds a `deadline`, as a worker of 1.0 may."""

import json

from base import run, template


class Handler(template.Handler):
    def read_body(self, length):
        body = super().read_body(length)
        try:
            request = json.loads(body)
        except ValueError:
            return body
        if type(request) is dict and "deadline" in request:
            raise template.BadRequest(400, "unknown key \"deadline\"")
        return body


run(Handler=Handler)
