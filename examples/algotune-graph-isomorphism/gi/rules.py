"""Graph isomorphism's rules beside the task: a set's lines, the budgets,
the files a worker hands over, and the score.

A set is one problem a line, {"n", "seed", "instructions"}: the task's
generate_problem(n, seed), and r, the incumbent's count on it (measured by
gi/measure.py). A run's solver is counted by the emulator (gi/emulator.py):
I, its import (from `go` to the first problem), and P_i, problem i's own
work. Problem i scores

    (N * P_i + I) / r_i        (N problems in the set)

its instructions with an even share of the import, over the incumbent's
measured the same way, so the incumbent scores exactly 1.0 on every
problem; instruction_ratio is the mean, lower being better. N is the
set's, whichever of its problems a run takes (--limit, --only): the share
of the import is the one the refs were measured with.
"""

import base64
import posixpath

from gi import task

ITEM_FACTOR = 4              # a problem's score above this fails the run: over_item_budget
CAP_SLACK = 5_000_000_000    # instructions of a run beside ITEM_FACTOR times the refs'
                             # (the environment's import, about 1.0e9, five times over)
FIELDS = ("n", "seed", "instructions")
MAX_FILES = 64               # files a worker may hand over at most (its worker's limits)
MAX_BYTES = 1024 * 1024      # bytes of them all at most
ENTRY = "solver.py"          # the file the driver imports


def check_instance(item):
    """Raise ValueError naming what is wrong with one line of a set."""
    if not isinstance(item, dict) or sorted(item) != sorted(FIELDS):
        raise ValueError("a line is {\"n\", \"seed\", \"instructions\"}, got the keys %s"
                         % (sorted(item) if isinstance(item, dict) else type(item).__name__))
    n, seed, ref = item["n"], item["seed"], item["instructions"]
    if type(n) is not int or not task.N_MIN <= n <= task.N_MAX:
        raise ValueError("n must be an integer from %d to %d, got %r"
                         % (task.N_MIN, task.N_MAX, n))
    if type(seed) is not int or seed < 0:
        raise ValueError("the seed must be a non-negative integer, got %r" % (seed,))
    if type(ref) is not int or ref <= 0:
        raise ValueError("instructions must be a positive integer, got %r" % (ref,))


def run_cap(items, problems):
    """The instructions a run of `items` may take in all: CAP_SLACK plus
    ITEM_FACTOR times the incumbent's count on them (each problem and its
    share of the import: the refs' sum over the set's number of problems)."""
    return CAP_SLACK + ITEM_FACTOR * sum(item["instructions"] for item in items) // problems


def score(problems, work, imported, ref):
    """A problem's score: (problems * work + imported) / ref."""
    return (problems * work + imported) / ref


def files_of(answer):
    """{path: bytes} from a worker's answer {"files": {PATH: BASE64}};
    ValueError names what is wrong (the run's bad_source)."""
    if not isinstance(answer, dict) or set(answer) != {"files"} or \
            not isinstance(answer["files"], dict):
        raise ValueError("the worker's answer is not {\"files\": {PATH: BASE64, ...}}")
    files, total = {}, 0
    for path, text in sorted(answer["files"].items()):
        parts = path.split("/")
        if (not path or path.startswith("/") or posixpath.normpath(path) != path
                or any(p in ("", ".", "..") or "\0" in p for p in parts)):
            raise ValueError("%r is not a plain relative path" % (path,))
        if not isinstance(text, str):
            raise ValueError("the file %r is not base64 text" % (path,))
        try:
            data = base64.b64decode(text.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            raise ValueError("the file %r is not base64" % (path,)) from None
        total += len(data)
        files[path] = data
    if len(files) > MAX_FILES:
        raise ValueError("%d files; at most %d" % (len(files), MAX_FILES))
    if total > MAX_BYTES:
        raise ValueError("%d bytes of files; at most %d" % (total, MAX_BYTES))
    if ENTRY not in files:
        raise ValueError("no %s among the files" % ENTRY)
    for path in files:
        if any(other.startswith(path + "/") for other in files):
            raise ValueError("%r is both a file and a folder" % (path,))
    return files
