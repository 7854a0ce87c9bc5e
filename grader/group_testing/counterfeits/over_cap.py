"""A counterfeit of the self-check: it tests [0] for ever, past the cap. Its
verdict: oracle_cap."""


def find(n, priors, test):
    while True:
        test([0])
