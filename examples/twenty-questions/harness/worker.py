"""The twenty-questions worker: the template's worker (harness/worker.py at
the repository's root) serving this problem's tester.

    AR_ORACLE_URL=http://127.0.0.1:8081/ python3 harness/worker.py

POST /solve takes {"token"} (and the optional "deadline") and calls
play(ask, guess) from src/tester.py: ask(q) sends {"ask": q} and returns the
oracle's "yes"; guess(a) sends {"guess": a} and returns its "correct". Once
the round is over (a correct guess, or the 15 calls used) the next call ends
play quietly: the reply is {"answer": null} and the oracle's counts tell how
the round went. A value out of its pool raises OracleError in the tester,
with the oracle's message, and uses no call. Everything else (the HTTP, the
limits, the stacks at the deadline) is the template worker's.
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTER = os.path.join(HERE, os.pardir, "src", "tester.py")
# the template's worker: beside this file in a container, else the repository's
TEMPLATE = next(path for path in (os.path.join(HERE, "template_worker.py"),
                                  os.path.join(HERE, os.pardir, os.pardir, os.pardir,
                                               "harness", "worker.py"))
                if os.path.exists(path))


def load_template():
    spec = importlib.util.spec_from_file_location("template_worker", TEMPLATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


template = load_template()


class RoundOver(BaseException):
    """The round has ended: play stops here, and that is no failure."""


class Worker(template.Worker):
    FIELDS = ()                 # a /solve holds the token alone
    ENTRY = "play"
    SIGNATURE = "play(ask, guess)"

    def check_fields(self, request):
        return ()

    def play(self, oracle, fields):
        def call(key, value, reply_key):
            status, reply = oracle.send({key: value})
            if status == 200 and type(reply) is dict and type(reply.get(reply_key)) is bool:
                return reply[reply_key]
            if status == 409:
                raise RoundOver()
            error = reply.get("error") if type(reply) is dict else reply
            raise template.OracleError("oracle answered %d: %s" % (status, error))

        try:
            self.tester.play(lambda q: call("ask", q, "yes"),
                             lambda a: call("guess", a, "correct"))
        except RoundOver:
            pass
        return None


if __name__ == "__main__":
    sys.exit(template.main(worker_class=Worker, default_tester=TESTER))
