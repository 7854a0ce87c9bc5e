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
limits, the stacks at the deadline, the call's reply and the round's end,
OracleConnection.reply) is the template's.
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


class OracleError(arh_worker.OracleError):
    """The oracle refused a call: a value out of its pool."""


class Worker(arh_worker.Worker):
    SIGNATURE = "play(ask, guess)"      # a /solve holds the token alone: no FIELDS
    MAX_BODY = 16640                    # bytes of a /solve body at most: a token, keys it ignores
    OracleError = OracleError           # what a refused call raises in the tester

    def play(self, oracle, fields):
        """play(ask, guess), each call one query; the answer is None (the
        oracle's counts tell how the round went), and once the round is
        over the next call stops play (the template's RoundOver)."""
        self.tester.play(lambda q: oracle.reply({"ask": q}, "yes"),
                         lambda a: oracle.reply({"guess": a}, "correct"))


if __name__ == "__main__":
    sys.exit(arh_worker.main(worker_class=Worker))
