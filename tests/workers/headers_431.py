"""Breaks `headers_431`: up to 1,000 header lines are read."""

import http.client

from base import run

http.client._MAXHEADERS = 1000
run()
