"""Breaks `token_400`: a token of the wrong form is not refused; the worker
goes to the oracle with a token of its own."""

import json

from base import run, template


def good(token):
    return type(token) is str and 1 <= len(token) <= 256 and all(
        "!" <= c <= "~" for c in token)


class Handler(template.Handler):
    def read_body(self, length):
        body = super().read_body(length)
        try:
            request = json.loads(body)
        except ValueError:
            return body
        if type(request) is dict and "token" in request and not good(request["token"]):
            request["token"] = "unchecked"
            return json.dumps(request).encode()
        return body


run(Handler=Handler)
