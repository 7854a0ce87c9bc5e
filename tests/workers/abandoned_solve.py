"""Breaks `abandoned_solve`: it exits when the client of a /solve has gone
by the time the answer is ready."""

import os
import select
import socket

from base import run, template


class Handler(template.Handler):
    def reply(self, code, obj):
        if self.path == "/solve" and code in (200, 500) and self.client_gone():
            os._exit(3)
        super().reply(code, obj)

    def client_gone(self):
        readable, _, _ = select.select([self.connection], [], [], 0)
        return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""


run(Handler=Handler)
