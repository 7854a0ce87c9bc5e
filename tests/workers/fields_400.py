"""Breaks `fields_400`: keys other than token, n and priors are dropped, not
refused."""

import json

from base import run, worker

KEYS = ("token", "n", "priors")


class Handler(worker.Handler):
    def read_body(self, length):
        body = super().read_body(length)
        try:
            request = json.loads(body)
        except ValueError:
            return body
        if type(request) is dict and set(KEYS) < set(request):
            return json.dumps({key: request[key] for key in KEYS}).encode()
        return body


run(Handler=Handler)
