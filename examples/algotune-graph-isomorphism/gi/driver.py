"""The program the emulated Python runs: it imports the environment, then
answers the host's items one at a time, each item's instructions counted
by the plugin from one framing read to the next.

emulator.py writes this file to RUN_DIR/driver.py before each run and
starts it as `python3.13 -s -S -B -P driver.py` under qemu-x86_64. It runs
on the guest's Python 3.13, with the tree's standard library, numpy,
scipy and networkx; it is not imported on the host.

The protocol (file descriptors are the guest's):
    fd 3  framing, host -> guest: one byte per item, read with one read(2)
          of one byte. The plugin reports the instruction count at every
          such read that returns data, so an item's count runs from the
          read that starts it to the read that starts the next.
            b"g"  go: import the solver from SOLVER_DIR (the solver's own
                  folder, on sys.path) and make one Solver(); answer
                  "ready", or "raised ..." if either raised.
            b"p"  a problem: PROBLEM_FILE holds it as JSON; answer
                  "ok <json>" with solve(problem), or "raised <json text>"
                  if solve raised or its answer is not JSON.
            b"e"  end: answer "bye" and exit.
    fd 5  answers, guest -> host: one line per item, as above.
    fd 4  the plugin's reports; this program never touches it.
    stdout and stderr are the solver's own; the host bounds them and never
    reads protocol from them.

Before the first framing read it imports numpy, scipy and networkx (the
environment; its instructions are not the solver's), and makes the import
system see folder listings in sorted order, whatever the filesystem's.
"""

import json
import os
import posix
import sys
import traceback

FRAME_FD, ANSWER_FD = 3, 5
RUN_DIR = os.path.dirname(os.path.abspath(__file__))
SOLVER_DIR = os.path.join(RUN_DIR, "src")
PROBLEM_FILE = os.path.join(RUN_DIR, "problem.json")
SITE = sys.argv[1] if __name__ == "__main__" else None   # the tree's package folder

_listdir = posix.listdir


def _sorted_listdir(path=None):
    return sorted(_listdir() if path is None else _listdir(path))


def prepare():
    """Sorted folder listings, the site folder, and the environment."""
    posix.listdir = os.listdir = _sorted_listdir
    sys.path_importer_cache.clear()
    sys.path.insert(0, SITE)
    import numpy  # noqa: F401  the environment, imported before any item
    import scipy  # noqa: F401
    import scipy.linalg  # noqa: F401
    import scipy.sparse  # noqa: F401
    import networkx  # noqa: F401


def answer(line):
    data = (line + "\n").encode()
    while data:
        data = data[os.write(ANSWER_FD, data):]


def raised():
    return "raised " + json.dumps(traceback.format_exc()[-4000:])


def main():
    solver = None
    while True:
        token = os.read(FRAME_FD, 1)
        if token == b"g":
            try:
                sys.path.insert(0, SOLVER_DIR)
                import solver as module
                solver = module.Solver()
            except BaseException:
                answer(raised())
                continue
            answer("ready")
        elif token == b"p":
            try:
                with open(PROBLEM_FILE, "rb") as f:
                    problem = json.loads(f.read())
                text = json.dumps(solver.solve(problem), separators=(",", ":"))
            except BaseException:
                answer(raised())
                continue
            answer("ok " + text)
        else:
            answer("bye")
            return


if __name__ == "__main__":
    prepare()
    main()
    os._exit(0)            # no finalisation: nothing after the last item runs
