"""Breaks `solve_request_forms`: a /solve body must begin with its token."""

from base import run, template


class Handler(template.Handler):
    def read_body(self, length):
        body = super().read_body(length)
        if not body.startswith(b'{"token":'):
            raise template.BadRequest(400, "the body must begin with the token, got %r"
                                    % body[:20])
        return body


run(Handler=Handler)
