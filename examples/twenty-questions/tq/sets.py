"""The sets of twenty questions: the two public ones, the drawing of a
held-out one, and a set's statistics (its command is tq/draw.py).

    dev, test, left = sets.public_split()
    sets.draw_held_out(128, "seed")          # a held-out set's animals

A set is JSON Lines, one round a line: {"animal": index}, in the order the
animals were drawn (a sorted set would tell a tester what comes next). The
pool's 1,472 animals are put in one fixed random order (PUBLIC_SEED): its
first 150 are the dev set, the next 500 the test set, and the 822 left over
are where held-out sets come from. A held-out set is drawn from those 822,
without replacement, from a stream seeded by its own seed; without --seed a
secret one is drawn, used once and never shown.
"""

import json
import os
import random
import statistics

from tq import data, score

PUBLIC_SEED = "twenty-questions-public"
DEV_COUNT = 150                  # rounds of sample/dev.jsonl
TEST_COUNT = 500                 # rounds of sample/test.jsonl
HELD_OUT_COUNT = 128             # rounds of a held-out set, by default
SAMPLE = os.path.join(data.PROJECT, "sample")
DEV_FILE = os.path.join(SAMPLE, "dev.jsonl")
TEST_FILE = os.path.join(SAMPLE, "test.jsonl")


class SetError(ValueError):
    """A set's line that breaks the rules (the run is `invalid_set`)."""


def short(value, *, limit=60):
    """repr(value), cut to `limit` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_instance(item):
    """Raise SetError unless `item` is {"animal": index} with index a JSON
    integer in 0..1471 (not a boolean, not 1.0). The message quotes the bad
    value."""
    if type(item) is not dict or list(item) != ["animal"]:
        raise SetError("a set's line must be an object with the one key 'animal', got %s"
                       % short(item))
    animal = item["animal"]
    if type(animal) is not int or not 0 <= animal < data.ANIMALS:
        raise SetError("'animal' must be an integer in 0..%d, got %s"
                       % (data.ANIMALS - 1, short(animal)))


def check_set(items):
    """Raise SetError, naming the line, unless every line is valid and no
    animal comes twice (a set is drawn without replacement)."""
    seen = {}
    for index, item in enumerate(items):
        try:
            check_instance(item)
        except SetError as e:
            raise SetError("line %d: %s" % (index + 1, e)) from None
        animal = item["animal"]
        if animal in seen:
            raise SetError("line %d: animal %d already came on line %d"
                           % (index + 1, animal, seen[animal] + 1))
        seen[animal] = index


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def read_set(path):
    """The checked lines of the set file `path`, as a list of dicts.
    SetError names the line of the first fault, an unreadable file included."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise SetError("cannot read %r: %s" % (path, e)) from None
    if lines and lines[-1] == "":
        lines.pop()
    items = []
    for number, line in enumerate(lines, 1):
        try:
            items.append(json.loads(line, parse_constant=_no_constant))
        except ValueError as e:
            raise SetError("line %d: not JSON (%s): %s" % (number, e, short(line))) from None
    if not items:
        raise SetError("%r holds no round" % (path,))
    check_set(items)
    return items


def ordered(seed, values):
    """`values` in a random order drawn from `seed` (Fisher-Yates on
    random() alone, the same on every Python)."""
    rng, values = random.Random(seed), list(values)
    for i in range(len(values) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        values[i], values[j] = values[j], values[i]
    return values


def public_split():
    """(dev, test, remainder): the dev and test animals in drawn order, and
    the animals of neither, sorted."""
    order = ordered(PUBLIC_SEED, range(data.ANIMALS))
    dev, test = order[:DEV_COUNT], order[DEV_COUNT:DEV_COUNT + TEST_COUNT]
    return dev, test, sorted(order[DEV_COUNT + TEST_COUNT:])


def draw_held_out(count, seed):
    """`count` distinct animals of the remainder, in drawn order, from `seed`
    (any string). ValueError unless 1 <= count <= the remainder's size."""
    remainder = public_split()[2]
    if type(count) is not int or not 1 <= count <= len(remainder):
        raise ValueError("count must be an integer in 1..%d, got %r" % (len(remainder), count))
    return ordered("held-out/%s" % seed, remainder)[:count]


def pool_of(animals):
    """(name, size) of the pool a set was drawn from, which the bound needs:
    the dev set's pool is every animal; the test set was drawn after it, from
    the others; a held-out set after both, from the remainder. A set of dev
    animals only counts as drawn like dev (a prefix of dev is), and so on;
    any other set is taken as drawn from every animal."""
    dev, test, remainder = public_split()
    chosen = set(animals)
    if chosen <= set(dev):
        return "dev", data.ANIMALS
    if chosen <= set(test):
        return "test", data.ANIMALS - DEV_COUNT
    if chosen <= set(remainder):
        return "held-out", len(remainder)
    return "whole", data.ANIMALS


def bounds(animals):
    """Each round's bound (score.round_bound) for a set of animals."""
    size = pool_of(animals)[1]
    return [score.round_bound(pool=size, index=i) for i in range(len(animals))]


def dumps(animals):
    """The text of a set file: one {"animal": index} line a round."""
    return "".join(json.dumps({"animal": a}) + "\n" for a in animals)


def stats(animals):
    """A set's figures, as (name, value) pairs."""
    name, size = pool_of(animals)
    return [("rounds", len(animals)), ("pool", name), ("pool_size", size),
            ("bound", "%.4f" % statistics.fmean(bounds(animals)))]
