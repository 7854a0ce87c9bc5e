"""Breaks `stalled_408`: it waits a minute for a body, not 2 s."""

from base import run

run(BODY_TIMEOUT=60.0)
