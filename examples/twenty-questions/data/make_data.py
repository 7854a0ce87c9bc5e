"""Draw the synthetic animal pool, question pool and answer matrix, once,
from a fixed seed, and write them as the frozen text files beside this one.

    python3 data/make_data.py            # rewrite the three files here
    python3 data/make_data.py --check    # exit 1 unless the files match a fresh draw
    python3 data/make_data.py --stats    # print the matrix's figures

The files (UTF-8, one record a line, every line ending in a newline):
- animals_pool.txt: 1,472 made-up animal names; an animal's id is its line index;
- questions_pool.txt: 559 yes/no questions about latent traits; same for ids;
- matrix.txt: one line an animal, 559 characters '0' (no) or '1' (yes), one a
  question, in question order.

How the answers are made. Every animal belongs to one of FAMILIES families and
has BINARY_TRAITS yes/no traits and SCALES numbers in [0, 1]. A family has a
prototype: each binary trait is on with that trait's own base rate, and each
scale has one value for the whole family. An animal copies its family's
prototype and flips each binary trait with that trait's own small mutation
rate, so many animals of a family share all their traits and differ only in
the noise. A question asks about one trait ("Does it have trait-07?"), about
a scale against a threshold, or about two traits joined by and, or, but not;
so questions differ in how often they say yes and in how evenly they split
the pool, and their answers are correlated. Last, each question flips each
of its answers with its own noise rate, uniform in [0, NOISE_MAX] (2.5% of
all answers), which keeps every row distinct but makes the splits inside a
group of look-alikes uneven.

Only random.Random(SEED).random() is used (no gauss, shuffle or choice, whose
algorithms might change between Python versions), so every Python 3.11+ draws
the same bytes. It takes about a second.
"""

import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = "twenty-questions-matrix-1"
ANIMALS = 1472                # animals in the pool
QUESTIONS = 559               # questions in the pool
FAMILIES = 40                 # clusters of related animals
BINARY_TRAITS = 40            # yes/no latent traits
SCALES = 8                    # latent numbers in [0, 1], one value a family
NOISE_MAX = 0.05              # a question's flip rate is uniform in [0, NOISE_MAX]
MUTATION = (0.005, 0.05)      # range of a trait's chance to differ from the family's
SYLLABLES = [c + v for c in "bdfghklmnprstvz" for v in "aeiou"]
FILES = ("animals_pool.txt", "questions_pool.txt", "matrix.txt")


def _below(rng, n):
    """A whole number in 0..n-1 from rng.random() alone."""
    return min(int(rng.random() * n), n - 1)


def _names(rng):
    """ANIMALS distinct pronounceable names of two to four syllables."""
    names, seen = [], set()
    while len(names) < ANIMALS:
        word = "".join(SYLLABLES[_below(rng, len(SYLLABLES))]
                       for _ in range(2 + _below(rng, 3)))
        if rng.random() < 0.5:
            word += "nlrsx"[_below(rng, 5)]
        if word not in seen:
            seen.add(word)
            names.append(word)
    return names


def _animals(rng):
    """Each animal's (binary traits, scales), as lists, in pool order."""
    base = [0.15 + 0.7 * rng.random() for _ in range(BINARY_TRAITS)]
    mutation = [MUTATION[0] + (MUTATION[1] - MUTATION[0]) * rng.random()
                for _ in range(BINARY_TRAITS)]
    weights = [0.3 + rng.random() for _ in range(FAMILIES)]
    prototypes = [([rng.random() < b for b in base],
                   [rng.random() for _ in range(SCALES)]) for _ in range(FAMILIES)]
    total, animals = sum(weights), []
    for _ in range(ANIMALS):
        pick, family = rng.random() * total, 0
        while family < FAMILIES - 1 and pick >= weights[family]:
            pick -= weights[family]
            family += 1
        traits, scales = prototypes[family]
        bits = [t != (rng.random() < m) for t, m in zip(traits, mutation)]
        animals.append((bits, scales))
    return animals


def _question(rng):
    """(text, function of (bits, scales) -> bool) for one random question."""
    kind = rng.random()
    if kind < 0.22:
        k, threshold = _below(rng, SCALES), 0.05 + 0.9 * rng.random()
        threshold = round(threshold, 2)
        return ("Is its scale-%d above %.2f?" % (k, threshold),
                lambda bits, scales: scales[k] > threshold)
    i = _below(rng, BINARY_TRAITS)
    j = (i + 1 + _below(rng, BINARY_TRAITS - 1)) % BINARY_TRAITS
    if kind < 0.30:
        return "Does it have trait-%02d?" % i, lambda bits, scales: bits[i]
    if kind < 0.54:
        return ("Does it have trait-%02d and trait-%02d?" % (i, j),
                lambda bits, scales: bits[i] and bits[j])
    if kind < 0.78:
        return ("Does it have trait-%02d or trait-%02d?" % (i, j),
                lambda bits, scales: bits[i] or bits[j])
    return ("Does it have trait-%02d but not trait-%02d?" % (i, j),
            lambda bits, scales: bits[i] and not bits[j])


def _questions(rng):
    """QUESTIONS questions with distinct texts, each as (text, function)."""
    questions, seen = [], set()
    while len(questions) < QUESTIONS:
        text, rule = _question(rng)
        if text not in seen:
            seen.add(text)
            questions.append((text, rule))
    return questions


def draw():
    """(texts, flipped): the three files' texts as a dict from file name to
    str, and how many answers the noise flipped."""
    rng = random.Random(SEED)
    names = _names(rng)
    animals = _animals(rng)
    questions = _questions(rng)
    columns, flipped = [], 0
    for _, rule in questions:
        noise = NOISE_MAX * rng.random()
        column = []
        for bits, scales in animals:
            flip = rng.random() < noise
            flipped += flip
            column.append("1" if rule(bits, scales) != flip else "0")
        columns.append(column)
    rows = ["".join(column[a] for column in columns) for a in range(ANIMALS)]
    texts = {
        "animals_pool.txt": "".join(name + "\n" for name in names),
        "questions_pool.txt": "".join(text + "\n" for text, _ in questions),
        "matrix.txt": "".join(row + "\n" for row in rows),
    }
    return texts, flipped


def stats(texts, flipped):
    """The matrix's figures, as (name, value) pairs."""
    rows = texts["matrix.txt"].split()
    counts = {}
    for row in rows:
        counts[row] = counts.get(row, 0) + 1
    shared = sum(c for c in counts.values() if c > 1)
    rates = sorted(sum(row[q] == "1" for row in rows) / len(rows) for q in range(QUESTIONS))
    cells = ANIMALS * QUESTIONS
    bits = [int(row, 2) for row in rows]
    closest = min((a ^ b).bit_count() for i, a in enumerate(bits) for b in bits[i + 1:])
    return [
        ("animals", len(rows)),
        ("questions", QUESTIONS),
        ("animals_sharing_a_row", shared),
        ("distinct_rows", len(counts)),
        ("closest_rows_differ_in", closest),
        ("yes_share", "%.4f" % (sum(row.count("1") for row in rows) / (len(rows) * QUESTIONS))),
        ("yes_rate_min_median_max", "%.3f %.3f %.3f" % (rates[0], rates[len(rates) // 2],
                                                         rates[-1])),
        ("flipped_answers", "%d of %d (%.2f%%)" % (flipped, cells, 100 * flipped / cells)),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare the files with a fresh draw; exit 1 if they differ")
    parser.add_argument("--stats", action="store_true", help="print the matrix's figures")
    parser.add_argument("--out", default=HERE, help="folder to write to (default: here)")
    args = parser.parse_args(argv)
    texts, flipped = draw()
    if args.stats:
        for name, value in stats(texts, flipped):
            print("%s: %s" % (name, value))
        return 0
    if args.check:
        differ = []
        for name in FILES:
            try:
                with open(os.path.join(args.out, name), "rb") as f:
                    same = f.read() == texts[name].encode("utf-8")
            except OSError:
                same = False
            if not same:
                differ.append(name)
        print("differ: %s" % (", ".join(differ) or "none"))
        return 1 if differ else 0
    for name in FILES:
        path = os.path.join(args.out, name)
        with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
            f.write(texts[name])
        os.replace(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
