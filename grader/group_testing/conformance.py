"""Group testing's part of the conformance check (grader/conformance.py):
the known instance, a /solve body as its grader writes it, the bad values
of its fields, and the rules only group testing can judge: the answer,
binary splitting's tests one a request, the forms of a /solve body. The
other rules, the loop that runs them and the command line are the SDK's
(arh_grader.conformance: requests, service, run, cli); the statuses and
the rules' marks are its contract's (group_testing/contract.py).

    results = run.check(Checker, command="python3 harness/worker.py")
    ok, seen = checker.one_test_a_request()   # (passed?, what was seen)
"""

import json

from arh_grader import Spec
from arh_grader.conformance.requests import described, is_json, json_of
from arh_grader.conformance.service import ServiceRules

from . import calibration, contract, problem

N = 64                  # items of the known instance
PRIORS = [round(0.004 + 0.3 * ((i * 37) % N) / N, 6) for i in range(N)]
PRIORS[9] = 1.5e-05     # written with an exponent in JSON
DEFECTIVES = (5, 17, 40)   # of the known instance


def status(cause):
    """The status CONTRACT.md's worker table gives `cause`."""
    return contract.worker(cause).status


def solve_body(token, *, n=N, priors=None, **extra):
    """A compact /solve body, as the grader writes it."""
    request = {"token": token, "n": n, "priors": PRIORS if priors is None else priors}
    request.update(extra)
    return json.dumps(request, separators=(",", ":")).encode()


def known_spec():
    """The known instance's session.Spec, with group testing's rules."""
    return Spec(problem.secret_of({"n": N, "defectives": DEFECTIVES}), cap=problem.cap(N),
                max_body=problem.max_body(N), check=problem.check_query,
                answer=problem.answer_query)


def expected_pools():
    """The pools binary splitting tests on the known instance, in order."""
    pools, truth = [], set(DEFECTIVES)

    def test(pool):
        pools.append(list(pool))
        return not truth.isdisjoint(pool)

    calibration.split(range(N), test)
    return pools


class Checker(ServiceRules):
    """The SDK's rules with group testing's bodies, and its own rules."""

    CONTRACT, CHECKS = contract.CONTRACT, contract.CHECKS
    BODY_MAX = contract.SOLVE_BODY_MAX
    NUMBER = b'"n":%d' % N

    RULES = (   # (name: the method that checks it, the rules it needs)
        ("health", ()), ("port_zero", ("health",)), ("oracle_token", ()),
        ("solve", ("oracle_token",)), ("one_test_a_request", ("oracle_token",)),
        ("solve_request_forms", ("oracle_token",)),
        ("deadline_key", ("health", "oracle_token")),     # health: the worker's version
        ("unknown_keys", ("health", "oracle_token")), ("oracle_refusal", ()),
        ("slow_test", ("oracle_token",)), ("request_line_400", ()), ("path_404", ()),
        ("method_405", ()), ("length_411", ()), ("size_413", ()), ("stalled_408", ()),
        ("truncated_400", ()), ("json_400", ()), ("fields_400", ()), ("token_400", ()),
        ("line_414", ()), ("headers_431", ()), ("errors_close", ()), ("error_json", ()),
        ("keeps_serving", ("health", "oracle_token")),
        ("abandoned_solve", ("keeps_serving",)),
    )

    @staticmethod
    def status(cause):
        return status(cause)

    @staticmethod
    def solve_body(token, **extra):
        return solve_body(token, **extra)

    @staticmethod
    def known_spec():
        return known_spec()

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

    # ---- group testing's own rules ----

    def solve(self):
        reply, _ = self.known()
        ok = reply.status == status("answered") and is_json(reply) and \
            type(json_of(reply)) is dict and json_of(reply).get("answer") == list(DEFECTIVES)
        return ok, "%s (defectives %s)" % (described(reply), list(DEFECTIVES))

    def one_test_a_request(self):
        _, session = self.known()
        sent = [json.loads(line)["q"] for line in session.transcript]
        want = [{"pool": pool} for pool in expected_pools()]
        if sent == want:
            return True, "%d requests, one test each, the pools of binary splitting" % len(sent)
        at = next((i for i, (a, b) in enumerate(zip(sent, want)) if a != b), min(len(sent),
                                                                                 len(want)))
        return False, "%d requests where binary splitting makes %d; request %d was %s, not %s" % (
            len(sent), len(want), at + 1, _short(sent[at] if at < len(sent) else None),
            _short(want[at] if at < len(want) else None))

    def solve_request_forms(self):
        forms = {
            "keys reversed, with spaces and newlines": (b'{\n "priors": %s,\n "n": %d,\n '
                                                        b'"token": "@TOKEN@"\n}'
                                                        % (json.dumps(PRIORS).encode(), N)),
            "priors with exponents": b'{"token":"@TOKEN@","n":%d,"priors":[%s]}' % (
                N, b",".join(b"%.4e" % p for p in PRIORS)),
        }
        for label, body in forms.items():
            reply, _ = self.solve_known(body)
            if reply.status != 200:
                return False, "%s: %s" % (label, described(reply))
        return True, "200 for: %s" % ", ".join(forms)


RULE_NAMES = tuple(name for name, _ in Checker.RULES)


def _short(value):
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."
