"""The state file of a comparison (commands/compare.py): what
a comparison run keeps between its starts, locked while a run uses it and
checked when it is taken up.

    with state.Lock(path):                        # StateError: another run holds it
        data = state.load(path)                   # None when there is none yet
        settings, record = state.check(path, data, settings=s, seed=None,
                                       testers=digests, instance=baseline_and_cap)
        ...
        state.save(path, data)                    # sealed, atomic

The file is JSON: the format, the settings (the test, `mean` or `sign`,
and its settings), the seed, the testers' SHA-256,
one entry per comparison ([challenger tests, incumbent tests, baseline], a
tester that passed its deadline written null; with a reference tester,
compare.py's --reference, its tests follow as a fourth value and its
SHA-256 is among the testers'), the record those entries give,
the next comparison's number, and a digest of all of it.

`check` refuses, with StateError naming the file and what is wrong:
- a file whose digest does not match its content (edited by hand);
- settings other than the run's (the options given, or their defaults);
- a seed other than the one given, testers other than the files given;
- entries that are not those of the seed's instances (their baselines, the cap);
- a record other than the one its entries give, or entries that go on past
  the comparison at which the test had decided (or at which the challenger
  had passed its deadline TIMEOUTS_IN_A_ROW times in a row).
What it cannot see: an entry whose tests were changed consistently, with the
digest computed again. grader/compare.py runs a few entries again to find
those (`replay_choice`).

The entries above are counts with a baseline (group testing's): `check`
is then given `instance(seed, index)`, the (baseline, cap) of the seed's
instance `index`, which the problem computes. Another problem's entries
(twenty questions') come with `rules`, its compare.rules.Rules:
`bad_entry(seed, index, entry)`, what is wrong with an entry (None when
nothing), and `feed(record, index, entry)`, which adds it to a record of
either test; its entries too are [challenger, incumbent, what the seed
drew], a tester past its deadline written null. This module knows no problem.
"""

import fcntl
import hashlib
import json
import os
import secrets

from .. import canonical, write_json
from . import betting, sprt
from .settings import OPTIONS, TestSettings

FORMAT = 3             # the layout version of the state file (3: the test is named)
REPLAYS = 3            # entries run again when a state is taken up (the last among them)
ROLES = ("challenger", "incumbent")
REFERENCE = "reference"  # a third tester, run on the same instances for the total gain
TIMEOUTS_IN_A_ROW = 3  # challenger timeouts in a row that reject it (comparisons)
KEYS = ("comparisons", "digest", "format", "next_comparison", "record", "seed", "settings",
        "testers")


class Lock:
    """An exclusive lock on the state file `path`, held through the file
    `path`.lock (an flock: the kernel drops it when the process dies, even by
    SIGKILL). Entering raises sprt.StateError when another process holds it;
    leaving removes the lock file."""

    def __init__(self, path):
        self.path = path + ".lock"
        self.fd = None

    def __enter__(self):
        for _ in range(10):        # a holder may remove the file between our open and lock
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
                os.close(fd)
                raise sprt.StateError(
                    "%s is in use by another compare.py run (process %s holds %s); wait for "
                    "it to end, or give another --state" % (self.path[:-5], holder, self.path)
                ) from None
            try:
                now = os.stat(self.path)
            except FileNotFoundError:
                now = None
            held = os.fstat(fd)
            if now is not None and (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
                os.ftruncate(fd, 0)
                os.write(fd, b"%d\n" % os.getpid())
                self.fd = fd
                return self
            os.close(fd)
        raise sprt.StateError("cannot lock %s: it keeps being replaced" % self.path)

    def __exit__(self, *exc):
        if self.fd is not None:
            try:
                os.unlink(self.path)      # still ours: nobody else may lock it meanwhile
            except FileNotFoundError:
                pass
            os.close(self.fd)
            self.fd = None


def digest(data):
    """The SHA-256 of the state's canonical JSON, its digest aside."""
    return hashlib.sha256(canonical({k: v for k, v in data.items() if k != "digest"})
                          ).hexdigest()


def new(settings, seed, testers):
    """A state with no comparison yet."""
    return {"format": FORMAT, "settings": settings.to_dict(), "seed": seed,
            "testers": dict(testers), "comparisons": [],
            "record": settings.record().to_dict(), "next_comparison": 1}


def save(path, data):
    """Seal `data` with its digest and write it atomically."""
    data["digest"] = digest(data)
    write_json(path, data)


def load_json(path):
    """The JSON object in `path`, or None when there is no such file;
    StateError when it cannot be read as one."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise sprt.StateError("cannot read %s: %s" % (path, e)) from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise sprt.StateError("%s is not JSON: %s" % (path, e)) from None
    if type(data) is not dict:
        raise sprt.StateError("%s must hold a JSON object, got %s" % (path, type(data).__name__))
    return data


def load(path):
    """The state saved in `path`, or None when there is no such file."""
    return load_json(path)


def stopped_line(name, path):
    """The one line a comparison stopped by the signal `name` (Ctrl-C,
    SIGTERM) prints: how many comparisons the state file at `path` keeps."""
    data = None
    try:
        data = load(path)
    except sprt.StateError:
        pass
    if data is None:
        return "compare: stopped by %s before any comparison; no state file was written" % name
    return ("compare: stopped by %s; %s keeps %d comparisons, and the same command resumes "
            "from there" % (name, path, len(data.get("comparisons") or [])))


def outcome(challenger, incumbent):
    """WIN, LOSS or DRAW for the challenger from the two tests counts; None
    (past the deadline) loses to any count, and two Nones draw."""
    if challenger is None or incumbent is None:
        return sprt.DRAW if challenger is incumbent else (sprt.WIN if challenger is not None
                                                           else sprt.LOSS)
    if challenger < incumbent:
        return sprt.WIN
    return sprt.LOSS if challenger > incumbent else sprt.DRAW


def difference(entry, cap):
    """The score difference of one entry [challenger, incumbent, baseline],
    challenger minus incumbent; a tester past its deadline scores the cap's
    tests (`cap`, problem.cap(n): 2n + 64) over the baseline."""
    challenger, incumbent, baseline = entry[:3]
    return (((cap if challenger is None else challenger)
             - (cap if incumbent is None else incumbent)) / baseline)


def feed(record, entry, cap):
    """Add one entry to a record of either test; its decision."""
    if isinstance(record, betting.MeanRecord):
        return record.add(difference(entry, cap))
    return record.add(outcome(*entry[:2]))


def late_in_a_row(comparisons):
    """The challenger's timeouts at the end of `comparisons`, in a row."""
    count = 0
    for entry in reversed(comparisons):
        if entry[0] is not None:
            break
        count += 1
    return count


def tally(settings, comparisons, caps, rules=None):
    """The record the entries give (`caps` each entry's cap), stepping
    through them as the run did; ValueError when the test had decided, or
    the challenger had passed its deadline TIMEOUTS_IN_A_ROW times in a
    row, before the last entry. With `rules` (the module's docstring),
    `rules.feed` adds each entry and `caps` is not used."""
    record = settings.record()
    for number, entry in enumerate(comparisons, 1):
        if record.decision != sprt.CONTINUE:
            raise ValueError("the test had decided (%s) at comparison %d, yet the file holds %d"
                             % (record.decision, number - 1, len(comparisons)))
        if late_in_a_row(comparisons[:number - 1]) >= TIMEOUTS_IN_A_ROW:
            raise ValueError("the challenger had passed its deadline %d times in a row at "
                             "comparison %d, yet the file holds %d"
                             % (TIMEOUTS_IN_A_ROW, number - 1, len(comparisons)))
        if rules is None:
            feed(record, entry, caps[number - 1])
        else:
            rules.feed(record, number - 1, entry)
    return record


def _is_count(value):
    return type(value) is int and value >= 0


def check(path, data, *, settings, seed, testers, rules=None, instance=None):
    """(settings, record) of the state `data` read from `path`, after every
    check of the module's docstring; `settings` are the run's, `seed` the one
    given (None: any), `testers` the files' SHA-256 by role, `rules` another
    problem's entries (None: counts with a baseline, whose `instance(seed,
    index)` gives each entry's (baseline, cap)). StateError names the file
    and what does not fit."""
    def refuse(message, *args):
        raise sprt.StateError("%s: %s" % (path, message % args))

    if data.get("format") != FORMAT:
        refuse("format %r, where this compare.py reads %d; start a new state file",
               data.get("format"), FORMAT)
    if sorted(data) != sorted(KEYS):
        refuse("a state file of compare.py holds exactly %s, this one %s; start a new state "
               "file", ", ".join(KEYS), ", ".join(sorted(data)))
    if data["digest"] != digest(data):
        refuse("its content does not match its digest: it was changed after compare.py "
               "wrote it; start a new state file")
    try:
        saved_settings = TestSettings.from_dict(data["settings"])
    except sprt.StateError as e:
        refuse("%s", e)
    saved = saved_settings.to_dict()
    if saved["test"] != settings.test:
        refuse("the test is %r there and %r in this run; give --test %s to go on with it, or "
               "start a new state file", saved["test"], settings.test, saved["test"])
    for field, option, _ in OPTIONS[settings.test]:
        if saved[field] != getattr(settings.settings, field):
            refuse("%s is %r there and %r in this run; give %s %r to go on with it, or start "
                   "a new state file", field, saved[field], getattr(settings.settings, field),
                   option,
                   saved[field])
    if type(data["seed"]) is not str:
        refuse("the seed must be a string, got %r", data["seed"])
    if seed is not None and seed != data["seed"]:
        refuse("--seed %r differs from %r saved there", seed, data["seed"])
    saved_testers = data["testers"]
    roles = ROLES + ((REFERENCE,) if REFERENCE in testers else ())
    if type(saved_testers) is not dict or sorted(set(saved_testers) - {REFERENCE}) \
            != sorted(ROLES):
        refuse("testers must map %s to SHA-256 digests, got %r", " and ".join(ROLES),
               saved_testers)
    if (REFERENCE in saved_testers) != (REFERENCE in testers):
        refuse("it was started %s --reference and this run is %s it; give the same "
               "--reference as then, or start a new state file",
               *(("with", "without") if REFERENCE in saved_testers else ("without", "with")))
    for role in roles:
        if testers[role] != saved_testers[role]:
            refuse("the %s is another version than the one this state file was started with "
                   "(SHA-256 %s now, %s then): a new version of a tester needs a new state "
                   "file, for example --state compare-%s.json", role, testers[role][:12],
                   str(saved_testers[role])[:12], testers[role][:12])
    comparisons = data["comparisons"]
    if type(comparisons) is not list:
        refuse("comparisons must be a list, got %r", comparisons)
    caps = []
    for index, entry in enumerate(comparisons):
        if rules is not None:
            wrong = rules.bad_entry(data["seed"], index, entry)
            if wrong is not None:
                refuse("comparison %d, %r: %s", index + 1, entry, wrong)
            continue
        if type(entry) is not list or len(entry) != len(roles) + 1 \
                or not all(x is None or _is_count(x) for x in entry[:2] + entry[3:]):
            refuse("comparison %d must be [challenger tests, incumbent tests, baseline%s] "
                   "with counts or null, got %r", index + 1,
                   ", reference tests" if REFERENCE in roles else "", entry)
        baseline, cap = instance(data["seed"], index)
        caps.append(cap)
        if entry[2] != baseline or any(x is not None and x > caps[-1]
                                       for x in entry[:2] + entry[3:]):
            refuse("comparison %d, %r, is not one of instance %d of the seed %r (baseline %d, "
                   "cap %d)", index + 1, entry, index, data["seed"], baseline, cap)
    settings_now = saved_settings
    try:
        record = tally(settings_now, comparisons, caps, rules)
    except ValueError as e:
        refuse("%s", e)
    if data["record"] != record.to_dict():
        refuse("the record %r is not the one its %d comparisons give, %r", data["record"],
               len(comparisons), record.to_dict())
    if data["next_comparison"] != len(comparisons) + 1:
        refuse("next_comparison is %r but the file holds %d comparisons",
               data["next_comparison"], len(comparisons))
    return settings_now, record


def replay_choice(comparisons, *, count=REPLAYS):
    """Indexes of up to `count` entries worth running again: the last one
    with both counts, and others drawn at random (not predictably) among
    the rest with both counts."""
    whole = [i for i, entry in enumerate(comparisons) if None not in entry[:2] + entry[3:]]
    if not whole:
        return []
    chosen = {whole[-1]}
    rest = whole[:-1]
    pick = secrets.SystemRandom()
    chosen.update(pick.sample(rest, min(count - 1, len(rest))))
    return sorted(chosen)


def scores(comparisons, caps=None):
    """Each entry's score difference, challenger minus incumbent (tests over
    baseline: below zero, the challenger made fewer tests; `difference`),
    a tester past its deadline scoring the cap of `caps` (by entry); an
    entry with a timeout is left out when `caps` is None."""
    return [difference(entry, caps[k] if caps else None)
            for k, entry in enumerate(comparisons)
            if caps is not None or None not in entry[:2]]
