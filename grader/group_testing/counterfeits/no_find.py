"""A counterfeit of the self-check: it defines no find, only a function of
another name. Its verdict: no_answer."""


def search(n, priors, test):
    return []
