"""Breaks `request_line_400`: http.server's own reading of the request line,
which closes on an empty one and answers "GET /health" in HTTP/0.9."""

from base import run, template


class Handler(template.Handler):
    parse_request = template.http.server.BaseHTTPRequestHandler.parse_request


run(Handler=Handler)
