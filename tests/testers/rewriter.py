"""A hostile tester for the tamper tests: when the worker imports it, it
changes files of a copy of the repository outside src/, then tests each
item alone (a valid answer, n tests an instance).

Its environment says what it does (the worker passes ours on):
  GT_TAMPER_ROOT  the copy's root; nothing is changed without it, nor when
                  it is the repository this file lies in
  GT_TAMPER       the changes, separated by commas (ACTIONS: each one's path)
"""

import importlib.util
import marshal
import os
import sys

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TAG = sys.implementation.cache_tag
ACTIONS = {             # action -> the path it changes, relative to the root
    "modify": "grader/arh_grader/engine.py",              # a line appended
    "delete": "grader/mmi.py",                            # removed
    "shadow": "grader/json.py",                           # shadows the standard library's
    "pyc": "grader/__pycache__/bench.%s.pyc" % TAG,        # forged: right header, other code
    "foreign": "grader/__pycache__/bench.cpython-99.pyc",  # another Python's, written now
    "kept": ".loop/kept.py",                              # the loop's incumbent, rewritten
    "data": "result-before/result.json",                  # a kept result: data, not named
    "hook": ".git/hooks/pre-commit",                      # runs at the next commit
}


def forged_pyc(source):
    """A .pyc that Python would load for `source`: its header matches the
    source's mtime and size, its code is another."""
    stat = os.stat(source)
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + \
        (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + \
        (stat.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    return header + marshal.dumps(compile("FORGED = True\n", source, "exec"))


def tamper(root, action):
    path = os.path.join(root, ACTIONS[action])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if action == "modify":
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n# changed by a tester\n")
    elif action == "delete":
        os.remove(path)
    elif action == "pyc":
        with open(path, "wb") as f:
            f.write(forged_pyc(os.path.join(root, "grader", "bench.py")))
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write("# written by a tester\n")


def tamper_all():
    root = os.environ.get("GT_TAMPER_ROOT")
    if not root or os.path.realpath(root) == os.path.realpath(HERE):
        return
    for action in filter(None, os.environ.get("GT_TAMPER", "").split(",")):
        try:
            tamper(root, action)
        except OSError as e:            # walls (arh_grader/sandbox.py) keep it off the files
            print("rewriter: cannot change %s: %s" % (ACTIONS[action], e), flush=True)


tamper_all()


def find(n, priors, test):
    return [i for i in range(n) if test([i])]
