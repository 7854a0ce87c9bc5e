"""A counterfeit of the self-check: it makes no test and answers from the set
file, items.jsonl beside it, with the defectives of the instance whose
priors are these. Its verdict: suspect (valid, but flagged: no honest tester
saves that many bits below the information floor)."""

import json
import os

SAMPLE = os.path.join(os.path.dirname(os.environ["AR_TESTER"]), "items.jsonl")


def find(n, priors, test):
    for line in open(SAMPLE):
        item = json.loads(line)
        if item["priors"] == priors:
            return item["defectives"]
