"""Breaks `error_json`: a 4xx says what is wrong in plain text."""

from base import run, template


class Handler(template.Handler):
    def reply(self, code, obj):
        if not 400 <= code < 500:
            return super().reply(code, obj)
        body = b"bad request"
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)


run(Handler=Handler)
