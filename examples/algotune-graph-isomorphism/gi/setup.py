"""Build or verify the guest tree and the counting plugin (gi/tree.py):
    python3 gi/setup.py
prints `key: value` lines: tree, manifest_sha256, plugin, seconds."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gi import tree  # noqa: E402

if __name__ == "__main__":
    for key, value in tree.ensure(log=lambda s: print(s, file=sys.stderr, flush=True)).items():
        print("%s: %s" % (key, value))
