"""Graph isomorphism's worker, on the worker template (harness/arh_worker.py
at the repository's root). It runs nothing: it hands the grader the files
of src/, which the grader runs under its emulator and counts.

    AR_ORACLE_URL=http://127.0.0.1:8081/ python3 harness/worker.py

POST /solve takes {"token"} (and the optional "deadline", both unused: the
solver makes no oracle calls) and answers {"answer": {"files": {PATH:
BASE64, ...}}}, every regular file below src/ (at most MAX_FILES, MAX_BYTES
in all, solver.py among them; __pycache__ folders are left out), each path
relative to src/ with "/" between its parts. A folder that breaks a limit,
or holds a link or anything but files and folders, is refused: each /solve
then answers {"answer": {"error": WORDS}} naming the fault (the grader's
bad_source). The files are read once, when the worker starts. Everything
else (the HTTP, the limits of a request, the health check) is the template's.
"""

import base64
import os
import stat
import sys

# The template, arh_worker.py with arh_oracle_link.py: beside this file in the
# worker's image, else in the repository's harness/. Python leaves both off
# sys.path under -I: here, and nowhere else, one goes first on it.
HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE_FOLDER = (HERE if os.path.isfile(os.path.join(HERE, "arh_worker.py")) else
                   os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))),
                                "harness"))
if TEMPLATE_FOLDER not in sys.path:
    sys.path.insert(0, TEMPLATE_FOLDER)

import arh_worker  # noqa: E402

MAX_FILES = 64                  # files of src/ at most
MAX_BYTES = 1024 * 1024         # bytes of them all at most
ENTRY = "solver.py"             # the file the grader imports, which must be there


def read_folder(folder):
    """{relative path: bytes} of the files below `folder`; ValueError names
    what breaks the rules."""
    files, total = {}, 0
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for name in sorted(folders + names):
            path = os.path.join(top, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise ValueError("%s is not a regular file (a link, a device or a pipe)" % path)
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
            total += len(data)
            files[os.path.relpath(path, folder).replace(os.sep, "/")] = data
            if len(files) > MAX_FILES:
                raise ValueError("%s holds more than %d files" % (folder, MAX_FILES))
            if total > MAX_BYTES:
                raise ValueError("the files of %s hold more than %d bytes" % (folder, MAX_BYTES))
    if ENTRY not in files:
        raise ValueError("%s holds no %s" % (folder, ENTRY))
    return files


class Worker(arh_worker.Worker):
    SIGNATURE = "Solver().solve(problem)"   # named in messages; the worker never calls it
    MAX_BODY = 16640                        # bytes of a /solve body at most: a token, keys it ignores

    def load(self, path):
        """The files of the folder of `path` (src/solver.py), or the words
        that say what breaks the rules: nothing is imported, so nothing fails."""
        try:
            return read_folder(os.path.dirname(path)), None
        except (OSError, ValueError) as e:
            return str(e), None

    def play(self, oracle, fields):
        if isinstance(self.tester, str):
            return {"error": self.tester}
        return {"files": {path: base64.b64encode(data).decode("ascii")
                          for path, data in self.tester.items()}}


if __name__ == "__main__":
    sys.exit(arh_worker.main(worker_class=Worker,
                             default_tester=os.path.join(HERE, os.pardir, "src", ENTRY)))
