"""Breaks `slow_test`: it waits half a second for an oracle reply, not 120."""

from base import run

run(ORACLE_TIMEOUT=0.5)
