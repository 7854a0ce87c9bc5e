"""The command-line options that every problem's grader and local run
share, and argparse types that refuse a bad value by quoting it.

    parser = argparse.ArgumentParser()
    options.add_run_options(parser, items="sample/items.jsonl")
    parser.add_argument("--repeat", type=options.positive(int), default=1)

A bad value ends the command with argparse's usage message and exit status
2, naming the option and the value: "argument --limit: must be a number
above 0, got '0'".
"""

import argparse


class UsageError(Exception):
    """A command line that cannot be used, beyond what argparse checks (an
    --only past the set's end, a state file of other testers); the message
    says why."""


def positive(kind):
    """An argparse type: a number of `kind` (int or float) above 0."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise argparse.ArgumentTypeError("must be a number above 0, got %r" % text)
        return value
    return parse


def instance_list(text):
    """An argparse type: "7" or "3,0,12" as a sorted list of distinct
    instance indexes."""
    try:
        indexes = sorted({int(part) for part in text.split(",")})
    except ValueError:
        indexes = [-1]
    if indexes[0] < 0:
        raise argparse.ArgumentTypeError("must be instance indexes 0, 1, ... separated by "
                                         "commas, got %r" % text)
    return indexes


def add_run_options(parser, *, items):
    """--items (default `items`), --instance-timeout, --limit or --only, and
    --transcripts: what engine.run reads from the command line."""
    parser.add_argument("--items", default=items, help="instance set (JSON Lines)")
    parser.add_argument("--instance-timeout", type=positive(float), metavar="SECONDS",
                        help="per-instance deadline (default: autoresearch.toml)")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--limit", type=positive(int), metavar="N", help="grade the first N only")
    chosen.add_argument("--only", type=instance_list, metavar="K[,K...]",
                        help="grade these instances only (0 is the first), keeping their "
                             "indexes in the result")
    parser.add_argument("--transcripts", metavar="DIR",
                        help="write each instance's queries and answers here")
