"""Trivia's worker (toy.py's problem), on the worker template
(harness/arh_worker.py): what the SDK's tests of the template run, instead
of a problem's own worker.

    AR_ORACLE_URL=http://127.0.0.1:8081/ python3 tests/sdk/toy_worker.py

POST /solve takes {"token", "n"} and calls guess(n, ask); each call of
ask(number) is one POST {"guess": number} to the oracle and returns its
"correct", or raises OracleError with the oracle's status and reply. The
rest (GET /health, the HTTP, its limits and errors, the token and the
deadline) is the template's. This file is its own default tester: guess
below asks 0, 1, 2... in turn, up to n - 1, and answers the first number
found correct, or None.
"""

import os
import sys

# Run as `python3 -I`, as a local run starts a worker, Python puts no folder
# on sys.path: the template's, the repository's harness/, goes first here.
HARNESS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "harness")
if HARNESS not in sys.path:
    sys.path.insert(0, HARNESS)

import arh_worker  # noqa: E402
from arh_worker import BadRequest, shown  # noqa: E402

MAX_N = 1000            # the largest n a /solve may give


class OracleError(arh_worker.OracleError):
    """The oracle refused a guess: an invalid one, the cap, a closed session."""


class Oracle(arh_worker.OracleConnection):
    def ask(self, number):
        """Whether `number` is the secret; OracleError when the oracle refuses."""
        status, reply = self.send({"guess": number})
        if status != 200:
            raise OracleError("oracle answered %d: %r" % (status, reply))
        return reply["correct"]


class Worker(arh_worker.Worker):
    SIGNATURE = "guess(n, ask)"
    FIELDS = ("n",)            # MAX_BODY: the template's
    OracleConnection = Oracle

    def check_fields(self, request):
        n = request["n"]
        if type(n) is not int or not 1 <= n <= MAX_N:
            raise BadRequest(400, "n must be an integer in 1..%d, got %s" % (MAX_N, shown(n)))
        return (n,)

    def play(self, oracle, fields):
        return self.tester.guess(*fields, oracle.ask)


def guess(n, ask):
    """The default tester: the first of 0..n-1 the oracle finds correct, or None."""
    for number in range(n):
        if ask(number):
            return number
    return None


if __name__ == "__main__":
    sys.exit(arh_worker.main(worker_class=Worker, default_tester=os.path.abspath(__file__)))
