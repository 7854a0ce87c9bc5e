"""A problem's rules of a comparison: all that the SDK's compare command
(arh_grader/commands/compare.py) asks of a problem, behind one abstract
base class, Rules, which each problem subclasses and hands out from its
Problem's comparison().

    rules = PROBLEM.comparison()           # fresh for each run: it may keep state
    item = rules.draw(seed, index)         # what comparison index + 1 hands both testers
    play = rules.play(session)             # a tester's play of it, from its closed session
    entry = rules.entry(item, plays)       # [challenger, incumbent, drawn, *further roles]
    rules.outcome(entry)                   # WIN, LOSS or DRAW: the sign test's
    rules.difference(index, entry)         # d: the mean test's (below 0, the challenger gains)
    rules.verdict(record, comparisons)     # (decision, reason): suspect, timeouts, the record's
    rules.contender(path, role=..., ...)   # how a tester plays: contender.Contender, a worker

The command owns the run: the options, the state file and its lock, the
two testers' workers, the loop, the replay of a taken-up state, the stop
on a signal, the progress line, the summary and the results file. A
problem gives what differs: how instance `index` of a seed is drawn, a
tester's play and an entry, the outcome and the score difference, what is
wrong with a saved entry, what makes a challenger suspect, its words, and
any option and summary line of its own (group testing's --reference and
total gain).

An entry of the state file (state.py) is a JSON list: [challenger's play,
incumbent's play, what the seed drew (drawn(item)), then the play of each
further role (roles(args))], a tester past its deadline written null. The
class attributes and methods that have a default here need no override:
the defaults are those of a problem with no option of its own, no MMI
unless its [metric] table gives one, and tester files checked by argparse.
Two pairs need one of their two: drawn(item), or DRAWN, the item's key an
entry keeps, which then names each comparison on its lines ("animal: 17");
outcome(entry) and difference(index, entry), or score(play), a play's
score, which they compare by the problem's LOWER_IS_BETTER, a play past
its deadline losing to any other (and shown on a progress line by SHOWN).
"""

import abc
import os

from .. import options
from ..contender import Contender
from ..settings import SettingsError
from . import betting, sprt
from . import state as compare_state


def gives(rules, name):
    """Whether `rules` gives member `name` of a pair (the module's
    docstring): an attribute not None, or a method of its own class."""
    if name.isupper():
        return getattr(rules, name) is not None
    return getattr(type(rules), name) is not getattr(Rules, name)


class Rules(abc.ABC):
    """What a comparison of `problem` (an arh_grader.Problem) plays, keeps
    and says; subclass it, give the abstract members, override the rest
    where the problem differs."""

    PUBLIC_SEEDS = {}   # seed -> the public set it draws ("the public sample's seed"): refused
    DRAWN = None        # the item's key an entry keeps, naming the comparison; None: drawn()
    SHOWN = None        # a play's score on a progress line ("%.2f" % score); None: the play
    PUBLIC = "its instances are public, and a tester may know them"   # why, after the seed
    TIMEOUT_TYPE = staticmethod(options.positive(float))   # argparse's --instance-timeout
    HELP = {"seed": "the instances' seed (any string; default: a random one)",
            "instance_timeout": "each tester's deadline on an instance "
                                "(default: autoresearch.toml)"}

    def __init__(self, problem):
        self.problem = problem
        for member, instead in (("drawn", "DRAWN"), ("outcome", "score"),
                                ("difference", "score")):
            if not (gives(self, member) or gives(self, instead)):
                raise TypeError("%s gives neither %s nor %s"
                                % (type(self).__name__, member, instead))

    # ---- the options ----

    def add_options(self, parser):
        """Add the problem's own options (after --incumbent): none."""

    def help(self, option):
        """The help of `option` ("seed", "instance_timeout", "sample_result")."""
        if option == "sample_result":
            return self.HELP.get(option, "a %s result.json whose %s and status go in the log "
                                         "row" % (self.local(), self.problem.SCORE_NAME))
        return self.HELP[option]

    def parsed(self, parser, args):
        """Check the parsed options before anything runs (parser.error):
        the tester file of each role that plays (roles(args)) must be a file."""
        for role in self.roles(args):
            if not os.path.isfile(getattr(args, role)):
                parser.error("--%s %r is not a file" % (role, getattr(args, role)))

    def roles(self, args):
        """The roles that play, in order: challenger, incumbent, then any a
        problem's option adds (each names its tester file as args.<role>)."""
        return compare_state.ROLES

    def local(self):
        """The problem's local run, as its commands' folder names it
        ("grader/local.py"): the --sample-result it reads."""
        return os.path.join(os.path.relpath(self.problem.COMMANDS, self.problem.ROOT),
                            "local.py")

    def mmi(self):
        """The MMI of the problem's [metric] table, None when it gives none
        or has no such table (no MMI rule, no `mmi:` line)."""
        try:
            mmi = self.problem.table("metric").get("mmi")
        except SettingsError:           # no [metric] table: no MMI either
            return None
        return None if mmi is None else float(mmi)

    # ---- what a comparison plays and keeps ----

    def contender(self, tester, *, role, oracle, start_timeout, private=()):
        """The tester file `tester` in `role`, ready to play: an object with
        run(index, item, timeout=) -> (session, engine.Failure or None) whose
        session play() reads, used as a context manager. Here a Contender,
        the tester in a worker of its own; a problem whose play is not a
        worker's session (a count of work, say) gives its own."""
        return Contender(tester, role=role, problem=self.problem, oracle=oracle,
                         start_timeout=start_timeout, private=private)

    @abc.abstractmethod
    def draw(self, seed, index):
        """The item that comparison `index` + 1 hands both testers (a dict,
        as a set's line): the same for the same seed and index."""

    def drawn(self, item):
        """What an entry keeps of its item (its third value: a baseline, an
        animal), which the state file's check compares with the seed's: its
        value of DRAWN."""
        return item[self.DRAWN]

    @abc.abstractmethod
    def play(self, session):
        """A tester's play, from the closed session of an item it solved: a
        JSON value (a count; [calls, found])."""

    def entry(self, item, plays):
        """The state file's entry of one comparison; `plays` by role."""
        return [plays[role] for role in compare_state.ROLES] + [self.drawn(item)] + [
            plays[role] for role in plays if role not in compare_state.ROLES]

    def plays(self, entry, roles):
        """The plays of `entry` by role, `roles` as roles(args) gives them."""
        return dict(zip(roles, entry[:2] + entry[3:]))

    def score(self, play):
        """A play's score, a play past its deadline (None) included: what
        outcome and difference compare, unless both are given."""
        raise NotImplementedError("%s gives no score" % type(self).__name__)

    def outcome(self, entry):
        """sprt.WIN, LOSS or DRAW for the challenger (the sign test's): the
        better score wins; a play past its deadline loses to any other, and
        two of them draw."""
        sign = 1 if self.problem.LOWER_IS_BETTER else -1    # state.outcome: lower wins
        return compare_state.outcome(*(None if play is None else sign * self.score(play)
                                       for play in entry[:2]))

    def difference(self, index, entry):
        """The mean test's d of entry `index`: below 0 the challenger gains.
        Here the challenger's score minus the incumbent's when lower is
        better, else the incumbent's minus the challenger's."""
        mine, theirs = self.score(entry[0]), self.score(entry[1])
        return mine - theirs if self.problem.LOWER_IS_BETTER else theirs - mine

    def feed(self, record, index, entry):
        """Add entry `index` to a record of either test; its decision."""
        if isinstance(record, betting.MeanRecord):
            return record.add(self.difference(index, entry))
        return record.add(self.outcome(entry))

    def scores(self, comparisons):
        """Each entry's score difference, the challenger's score minus the
        incumbent's (the summary's and the log's score_difference)."""
        sign = 1 if self.problem.LOWER_IS_BETTER else -1
        return [sign * self.difference(k, entry) for k, entry in enumerate(comparisons)]

    def added(self, index, item, entry):
        """Entry `index` of `item` is part of the run (each saved entry when
        a state is taken up, in order, then each new one before it is
        reported): what the problem watches over the comparisons."""

    # ---- the verdict ----

    @abc.abstractmethod
    def suspect(self, comparisons):
        """Why the challenger is suspect over `comparisons` (a reason that
        starts "suspect: "), or None."""

    def exhausted(self, comparisons):
        """Why no comparison is left to play (a reason), or None."""
        return None

    def verdict(self, record, comparisons):
        """(decision, reason): the record's, unless the challenger is
        suspect, passed its deadline TIMEOUTS_IN_A_ROW times in a row, or
        nothing is left to play."""
        suspect = self.suspect(comparisons)
        if suspect:
            return sprt.REJECT, suspect
        late = compare_state.late_in_a_row(comparisons)
        if record.decision == sprt.CONTINUE and late >= compare_state.TIMEOUTS_IN_A_ROW:
            return sprt.REJECT, ("timeouts: the challenger passed its deadline on %d "
                                 "comparisons in a row" % late)
        exhausted = self.exhausted(comparisons) if record.decision == sprt.CONTINUE else None
        if exhausted:
            return sprt.REJECT, exhausted
        return record.decision, record.reason

    # ---- the state file ----

    def bad_entry(self, seed, index, entry):
        """What is wrong with saved entry `index` of `seed` (None when
        nothing), for state.check; override it, or check."""
        raise NotImplementedError("%s checks no entry: give bad_entry or check"
                                  % type(self).__name__)

    def check(self, path, data, *, settings, seed, testers):
        """(settings, record) of a loaded state (state.check, each entry
        checked by bad_entry and added by feed)."""
        return compare_state.check(path, data, settings=settings, seed=seed, testers=testers,
                                   rules=self)

    # ---- its words ----

    def label(self, index, entry):
        """What a progress line says comparison `index` played: its instance
        index, or DRAWN and the value the entry keeps."""
        if self.DRAWN is None:
            return "instance: %d" % index
        return "%s: %s" % (self.DRAWN, entry[2])

    def shown(self, play):
        """A play on a progress line (a play past the deadline is "timeout"):
        the play, or its score in SHOWN's format."""
        return str(play) if self.SHOWN is None else self.SHOWN % self.score(play)

    def where(self, seed, index, item):
        """Comparison `index` + 1's item, as an error names it: its index
        and seed, or DRAWN and the item's value of it."""
        if self.DRAWN is None:
            return "instance index %d of seed %r" % (index, seed)
        return "%s %s" % (self.DRAWN, self.drawn(item))

    def failure_text(self, seed, index, item, role, failure):
        """The `error:` of a tester that failed comparison `index` + 1
        otherwise than by its deadline (engine.Failure `failure`)."""
        return "comparison %d (%s): the %s failed: %s: %s" % (
            index + 1, self.where(seed, index, item), role, failure.kind, failure.message)

    def replayed(self, seed, index, item, role, play, failure):
        """What a tester does now on a replayed comparison that does not
        come out again (`failure` when it failed, else `play`, None past
        the deadline): "plays ..." before "now, the file says ..."."""
        return "plays %s" % (play if failure is None
                             else self.failure_text(seed, index, item, role, failure))

    def lines(self, comparisons, args):
        """The summary's lines of the problem's own, after the SDK's."""
        return []

    def cells(self, comparisons, args):
        """The results file's cells of the problem's own (log.LOG_FIELDS)."""
        return {}
