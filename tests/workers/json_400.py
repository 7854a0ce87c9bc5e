"""Breaks `json_400`: a body in UTF-16 with a BOM is read."""

from base import run, template


class Handler(template.Handler):
    def read_body(self, length):
        body = super().read_body(length)
        if body[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return body.decode("utf-16").encode("utf-8")
        return body


run(Handler=Handler)
