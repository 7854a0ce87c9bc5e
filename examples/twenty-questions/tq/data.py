"""The frozen data of twenty questions: the two pools and the answer matrix,
read from data/ once and checked against their pinned SHA-256.

    from tq import data
    table = data.load()              # DataError if a file is missing or altered
    table.yes(animal, question)      # the frozen answer, a bool
    table.rows[animal]               # that animal's answers, a str of '0'/'1'

Identifiers are zero-based line indexes: animals 0 .. ANIMALS - 1, questions
0 .. QUESTIONS - 1. data/make_data.py draws the files; nothing here writes.
"""

import functools
import hashlib
import os

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(PROJECT, "data")
ANIMALS = 1472          # animals in the pool
QUESTIONS = 559         # questions in the pool
ANIMALS_FILE = "animals_pool.txt"
QUESTIONS_FILE = "questions_pool.txt"
MATRIX_FILE = "matrix.txt"
SHA256 = {              # of each file's bytes, as data/make_data.py writes them
    ANIMALS_FILE: "fa6181f20f09f621e65081f6fb3e7f127ef5f63f8d5599a8854e9401fa42a843",
    QUESTIONS_FILE: "646412bcaa14078842fc8036d3f8ec42bebf40418c100ab8ac5efd429b31e7b4",
    MATRIX_FILE: "15ec620e4681602926eb9246fdbe80a1fda39be2656ab8f557015f1b3c45265c",
}
ANIMALS_SHA256 = SHA256[ANIMALS_FILE]
QUESTIONS_SHA256 = SHA256[QUESTIONS_FILE]


class DataError(Exception):
    """A data file that is missing, unreadable or not the pinned one."""


class Table:
    """The pools and the matrix, read and checked.

    `animals` and `questions`: the pools' lines (names and texts), as tuples;
    `rows[a]`: animal a's answers, one '0' or '1' a question.
    """

    def __init__(self, animals, questions, rows):
        self.animals, self.questions, self.rows = animals, questions, rows

    def yes(self, animal, question):
        """The frozen answer of `animal` to `question` (valid indexes)."""
        return self.rows[animal][question] == "1"


def read_bytes(name, *, folder=DATA):
    """The bytes of data file `name`, checked against its pinned SHA-256."""
    path = os.path.join(folder, name)
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError as e:
        raise DataError("cannot read %r: %s" % (path, e.strerror)) from None
    digest = hashlib.sha256(blob).hexdigest()
    if digest != SHA256[name]:
        raise DataError("%r has SHA-256 %r, not the pinned %r: the frozen data was "
                        "changed; draw it again with data/make_data.py"
                        % (path, digest, SHA256[name]))
    return blob


def _lines(name, folder):
    return tuple(read_bytes(name, folder=folder).decode("utf-8").split("\n")[:-1])


@functools.lru_cache(maxsize=4)
def load(*, folder=DATA):
    """The Table of `folder` (data/ by default), read once per folder.
    DataError if a file is missing or is not the pinned one."""
    animals = _lines(ANIMALS_FILE, folder)
    questions = _lines(QUESTIONS_FILE, folder)
    rows = _lines(MATRIX_FILE, folder)
    if (len(animals), len(questions), len(rows)) != (ANIMALS, QUESTIONS, ANIMALS):
        raise DataError("the pools hold %d animals and %d questions, the matrix %d rows"
                        % (len(animals), len(questions), len(rows)))
    return Table(animals, questions, rows)
