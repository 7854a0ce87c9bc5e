"""Breaks `fields_400`: a prior of 0 is taken, not refused (the tester then
runs, and the oracle refuses its unknown token)."""

from base import run, worker


class Worker(worker.Worker):
    def check_fields(self, request):
        n, priors = request["n"], request["priors"]
        if type(priors) is list and 0.0 in priors:
            return n, priors
        return super().check_fields(request)


run(Worker=Worker)
