"""Breaks `request_line_400`: http.server's own reading of the request line,
which closes on an empty one and answers "GET /health" in HTTP/0.9."""

from base import run, worker


class Handler(worker.Handler):
    parse_request = worker.http.server.BaseHTTPRequestHandler.parse_request


run(Handler=Handler)
