"""Breaks `length_411`: a Content-Length is read with int(), so "+12" is 12."""

from base import run, template


class Handler(template.Handler):
    def read_solve(self):
        try:
            self.headers.replace_header("Content-Length",
                                        str(int(self.headers["Content-Length"])))
        except (KeyError, TypeError, ValueError):
            pass
        return super().read_solve()


run(Handler=Handler)
