"""Breaks `size_413`: bodies over 8,192 bytes get 413."""

from base import run

run(MAX_BODY=8192)
