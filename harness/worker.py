"""Group testing's worker, on the worker template (arh_worker.py beside it):
serves src/tester.py to the grader over HTTP (CONTRACT.md).

    AR_ORACLE_URL=http://grader:8081/ python3 harness/worker.py

POST /solve takes {"token", "n", "priors"} and calls find(n, priors, test);
each call of test(pool) is one POST {"pool": pool} to the oracle and returns
its "positive", or raises OracleError with the oracle's message. The rest
(GET /health, the HTTP, its limits and errors, the stacks at the deadline,
the settings) is the template's. This file is frozen: agents edit src/ only.
"""

import json
import os
import sys

# The template lies beside this file, a folder Python leaves off sys.path when
# it runs under -I (as grader/local.py starts the worker) or when the file is
# imported from elsewhere: here, and nowhere else, it goes first on sys.path.
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import arh_worker  # noqa: E402
from arh_worker import BadRequest, shown  # noqa: E402

MAX_N = 512              # items an instance has at most
MAX_SOLVE_BODY = 256 + 32 * MAX_N   # bytes of a /solve body at most: a token, n priors

_COMPACT = json.JSONEncoder(separators=(",", ":")).encode   # made once, not per test
_ANSWERS = {b'{"positive":true}': True, b'{"positive":false}': False}   # the usual two


class OracleError(arh_worker.OracleError):
    """The oracle refused a test: an invalid pool, the cap, a closed session."""


def encode_pool(pool):
    """{"pool": pool} in compact JSON; TypeError for a set, ValueError for NaN."""
    return _COMPACT({"pool": pool}).encode()


class OracleConnection(arh_worker.OracleConnection):
    def test(self, pool):
        """True if any item of `pool` is defective. Raises OracleError when
        the oracle refuses the test, TypeError when pool is not JSON."""
        body = encode_pool(pool)
        status, data = self.post(body)
        if status == 200:
            known = _ANSWERS.get(data)
            return parse_answer(data) if known is None else known
        try:
            message = json.loads(data)["error"]
        except (ValueError, KeyError, TypeError):
            message = data[:200]
        raise OracleError("oracle answered %d: %s" % (status, message))


def parse_answer(data):
    """The `positive` of a 200 reply not one of the usual two, else OracleError."""
    try:
        reply = json.loads(data)
        if type(reply) is dict and type(reply.get("positive")) is bool:
            return reply["positive"]
    except (ValueError, RecursionError):
        pass
    raise OracleError("oracle answered 200 without {\"positive\": true|false}: %r"
                      % data[:200])


class Worker(arh_worker.Worker):
    FIELDS = ("n", "priors")
    SIGNATURE = "find(n, priors, test)"
    MAX_BODY = MAX_SOLVE_BODY
    OracleConnection = OracleConnection

    def check_fields(self, request):
        n, priors = request["n"], request["priors"]
        if type(n) is not int or not 1 <= n <= MAX_N:
            raise BadRequest(400, "n must be an integer in 1..%d, got %s" % (MAX_N, shown(n)))
        if type(priors) is not list or len(priors) != n:
            raise BadRequest(400, "priors must be a list of n = %d numbers, got %s"
                             % (n, shown(priors)))
        for p in priors:
            if type(p) is not float or not 0.0 < p < 1.0:
                raise BadRequest(400, "priors must be numbers strictly between 0 and 1, "
                                 "got %s" % shown(p))
        return n, priors

    def play(self, oracle, fields):
        n, priors = fields
        return self.tester.find(n, priors, oracle.test)


if __name__ == "__main__":
    sys.exit(arh_worker.main(worker_class=Worker))      # the tester: ../src/tester.py
