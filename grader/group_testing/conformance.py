"""Group testing's part of the conformance check (grader/conformance.py):
the known instance, a /solve body as its grader writes it, and the bad
values of its fields; the rules that send them are the SDK's
(arh_grader.conformance.requests), the statuses its contract's
(group_testing/contract.py).

    class Checker(Requests): ...          # with self.url, the worker's URL
    ok, seen = checker.fields_400()       # (passed?, what was seen)
"""

import json

from arh_grader.conformance.requests import RequestRules

from . import contract

N = 64                  # items of the known instance (conformance.py's)
PRIORS = [round(0.004 + 0.3 * ((i * 37) % N) / N, 6) for i in range(N)]
PRIORS[9] = 1.5e-05     # written with an exponent in JSON


def status(cause):
    """The status CONTRACT.md's worker table gives `cause`."""
    return contract.worker(cause).status


def solve_body(token, *, n=N, priors=None, **extra):
    """A compact /solve body, as the grader writes it."""
    request = {"token": token, "n": n, "priors": PRIORS if priors is None else priors}
    request.update(extra)
    return json.dumps(request, separators=(",", ":")).encode()


class Requests(RequestRules):
    """The SDK's rules about refused requests, with group testing's bodies."""

    BODY_MAX = contract.SOLVE_BODY_MAX
    NUMBER = b'"n":%d' % N

    @staticmethod
    def status(cause):
        return status(cause)

    @staticmethod
    def solve_body(token, **extra):
        return solve_body(token, **extra)

    @staticmethod
    def idle_body():
        return solve_body("x", n=0, priors=[])

    @staticmethod
    def field_cases():
        return {
            "no token": b'{"n":1,"priors":[0.5]}', "no n": b'{"token":"x","priors":[0.5]}',
            "an array": b"[]", "n 0": solve_body("x", n=0, priors=[]),
            "n 513": solve_body("x", n=513, priors=[0.5] * 513),
            "n true": solve_body("x", n=True, priors=[0.5]),
            "n 1.0": solve_body("x", n=1.0, priors=[0.5]),
            "n priors": solve_body("x", n=2, priors=[0.5]),
            "prior 0": solve_body("x", n=1, priors=[0.0]),
            "prior 1": solve_body("x", n=1, priors=[1]),
            "prior true": solve_body("x", n=1, priors=[True]),
            "prior text": solve_body("x", n=1, priors=["0.5"]),
            "deadline 0": solve_body("x", n=1, priors=[0.5], deadline=0),
            "deadline text": solve_body("x", n=1, priors=[0.5], deadline="10")}

    @staticmethod
    def error_cases():
        return [("n 513", solve_body("x", n=513, priors=[0.5]), "513"),
                ("prior 1.5", solve_body("x", n=1, priors=[1.5]), "1.5")]
