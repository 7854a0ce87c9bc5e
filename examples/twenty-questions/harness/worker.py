"""Twenty questions' worker, on the worker template (harness/arh_worker.py at
the repository's root).

    AR_ORACLE_URL=http://127.0.0.1:8081/ python3 harness/worker.py

POST /solve takes {"token"} (and the optional "deadline") and calls
play(ask, guess) from src/tester.py: ask(q) sends {"ask": q} and returns the
oracle's "yes"; guess(a) sends {"guess": a} and returns its "correct". Once
the round is over (a correct guess, or the 15 calls used) the next call ends
play quietly: the reply is {"answer": null} and the oracle's counts tell how
the round went. A value out of its pool raises OracleError in the tester,
with the oracle's message, and uses no call. Everything else (the HTTP, the
limits, the stacks at the deadline) is the template's.
"""

import os
import sys

# The template, arh_worker.py with arh_oracle_link.py: beside this file in the
# worker's image (dockerfile.worker copies the three into harness/), else in the
# repository's harness/. Python leaves both off sys.path under -I (as
# tq/local.py starts the worker): here, and nowhere else, one goes first on it.
HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE_FOLDER = (HERE if os.path.isfile(os.path.join(HERE, "arh_worker.py")) else
                   os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))),
                                "harness"))
if TEMPLATE_FOLDER not in sys.path:
    sys.path.insert(0, TEMPLATE_FOLDER)

import arh_worker  # noqa: E402

TESTER = os.path.join(HERE, os.pardir, "src", "tester.py")


class OracleError(arh_worker.OracleError):
    """The oracle refused a call: a value out of its pool."""


class RoundOver(BaseException):
    """The round has ended: play stops here, and that is no failure."""


class Worker(arh_worker.Worker):
    SIGNATURE = "play(ask, guess)"      # a /solve holds the token alone: no FIELDS
    MAX_BODY = 16640                    # bytes of a /solve body at most: a token, keys it ignores

    def play(self, oracle, fields):
        def call(key, value, reply_key):
            status, reply = oracle.send({key: value})
            if status == 200 and type(reply) is dict and type(reply.get(reply_key)) is bool:
                return reply[reply_key]
            if status == 409:
                raise RoundOver()
            error = reply.get("error") if type(reply) is dict else reply
            raise OracleError("oracle answered %d: %s" % (status, error))

        try:
            self.tester.play(lambda q: call("ask", q, "yes"),
                             lambda a: call("guess", a, "correct"))
        except RoundOver:
            pass
        return None


if __name__ == "__main__":
    sys.exit(arh_worker.main(worker_class=Worker, default_tester=TESTER))
