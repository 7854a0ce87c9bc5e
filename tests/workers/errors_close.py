"""Breaks `errors_close`: a 4xx keeps the connection open, and says nothing."""

import json

from base import run, template


class Handler(template.Handler):
    def reply(self, code, obj):
        if not 400 <= code < 500:
            return super().reply(code, obj)
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


run(Handler=Handler)
