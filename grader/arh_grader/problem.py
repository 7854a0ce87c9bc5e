"""The seam between the SDK and a problem: the class Problem.

A problem is a subclass of Problem and one instance of it, which every
part of the SDK is handed: the run engine (engine.py), the local run
(local_run.py), a comparison's tester (contender.py), the report
(report.py, picture.py) and each problem's commands. Nothing in the SDK
asks a problem for anything this class does not name.

Problem is an abstract base class (abc.ABC), not a typing.Protocol: the
SDK gives the optional members' defaults (the session, the set's loading,
the settings, the report's layout), which a subclass inherits and a
Protocol would not; and a problem that lacks a required member fails when
it is made, with a TypeError naming what it lacks, rather than halfway
through a run.
"""

import abc
import json
import os
import statistics

from . import engine
from .session import Policy, Spec
from .settings import Settings, read_table

NUMBER = (int, float)    # the types of a number in an entry (not bool)


class Problem(abc.ABC):
    """A problem, as the SDK sees it. Subclass it, give the required
    members, override the optional ones you need, and hand one instance
    to the SDK.

    How the SDK calls it. A run (engine.run) loads the set with
    load_set(path), which reads one JSON object a line and calls
    check_instance(item) on each. For each instance in turn the engine
    opens an oracle session with session(item): a session.Spec made of
    secret(item), cap(item), max_body(item), policy(item) and the rules
    check_query and answer_query, all in one place, so that the oracle
    needs nothing else. It sends the worker request(item) (beside the
    session's token and the deadline), closes the session when the worker
    replies, and asks judge(item, answer, session) for the verdict of the
    answer; the instance's entry in result.json is entry(index, item,
    session), and progress lines average its SCORE. Once the run ends,
    summary(entries) gives the run's figures (summary([]) for a failed
    run: the same keys, their values None), and the console shows the
    engine's `status:` and `kind:` lines, then, for a valid run,
    summary_lines(result) (by default one `key: value` line a figure).
    A local run starts WORKER, which may read WORKER_READS beside Python,
    its folder and its tester; --repeat compares the entries' REPEATED
    keys. The report (report.py) reads a result's entries by the report's
    members below. Every command (arh_grader.commands) finds the problem's
    files from ROOT: its settings, worker, tester, result folder and
    editable folders; the settings are read once, settings(), into a
    frozen object.

    Required (abstract: a class that lacks one of these cannot be made):

        check_query(secret, query)    raise session.QueryError for an invalid query
        answer_query(secret, query)   the answer to a checked query: any JSON value, or bytes
        check_instance(item)          raise ValueError naming what is wrong with a set's line
        secret(item)                  what the rules see of an instance (never sent to the worker)
        cap(item)                     the requests an instance's session counts at most
        max_body(item)                the bytes of a query's body at most
        entry(index, item, session)   the instance's entry in result.json: a dict of JSON values
        summary(entries)              the run's figures: a dict, the same keys for [] (all None)
        bound(entry)                  an entry's bound: a floor (or ceiling) of its SCORE
        SCORE                         the entry key of an instance's score ("score")
        SCORE_NAME                    the run's mean score in result.json ("relative_tests")
        BOUND_NAME                    the run's mean bound in result.json ("information_floor")
        LOWER_IS_BETTER               of the score: True when the bound is a floor
        COUNT                         the entry key of the oracle calls counted ("tests")
        REPEATED                      the entry keys --repeat compares, in order
        ROOT                          the problem's folder (autoresearch.toml, src/, result/)
        SAMPLE                        the path of the problem's public set

    Optional (the defaults given here):

        request(item)                 the /solve request's fields: {}
        judge(item, answer, session)  a Failure for a bad answer, or None: None
        evaluate(items, oracle=, worker=, settings=, ...)
                                      a whole run's result: engine.evaluate's
        policy(item)                  how the session counts: POLICY, session.Policy()
        session(item)                 the session's Spec, from the members above
        load_set(path)                the checked items of a set file (engine.load_set)
        settings()                    SETTINGS's [grader] table: a frozen settings.Settings
        table(name)                   another table of SETTINGS, as a dict
        for_set(path)                 the problem for a set's figures: itself
        summary_lines(result)         `key: value` lines of a valid result's own figures:
                                      CONSOLE's keys (None: summary's), each value as JSON
        comparison()                  a run's rules of a comparison of two testers
                                      (compare.rules.Rules, commands/compare.py):
                                      COMPARISON(self), None when COMPARISON is None
        SETTINGS, WORKER, TESTER, OUT, EDITABLE, REPOSITORY, COMMANDS
                                      paths below ROOT: autoresearch.toml, harness/worker.py,
                                      src/tester.py, result/, (src/,), ROOT, grader/
        describe(entry)               an entry's words in the report's picture
        WORKER_READS                  paths the worker reads besides Python: ()
        DIGITS                        decimals kept of every figure: 6
        RESAMPLING_SEED               the seed of the bootstrap's resamples
        BENCH                         how commands/bench.py measures a call, a
                                      benchmark.Bench: None (the bench refuses)
        and the report's layout: BOUND_SHORT, FIELDS, SAME_SET, LABELS,
        FIGURES, ROWS, AXES, WIN, REFERENCE, ACROSS, GROUP, GROUPS,
        COLOURS, POSITIVE (each described where it is defined below).

    Helpers for summary, not to override: mean(entries, key) and
    total(entries, key), a key's mean and sum over the entries rounded to
    DIGITS, None for no entries.

    A minimal problem (guess a hidden number in 0..99 with "is it below
    x?" questions; the count of questions is the score):

        class Guess(Problem):
            SCORE, SCORE_NAME, BOUND_NAME, COUNT = "score", "mean_score", "bound", "calls"
            LOWER_IS_BETTER, REPEATED = True, ("calls", "transcript")
            ROOT, SAMPLE = "guess", "guess/sample.jsonl"

            def check_query(self, secret, query):
                if type(query) is not int:
                    raise QueryError("a query is an integer")
            def answer_query(self, secret, query):
                return secret < query
            def check_instance(self, item):
                if type(item.get("number")) is not int:
                    raise ValueError("no number")
            def secret(self, item):
                return item["number"]
            def cap(self, item):
                return 20
            def max_body(self, item):
                return 16
            def entry(self, index, item, session):
                return {"index": index, "calls": session.tests, "score": session.tests,
                        "transcript": session.digest}
            def summary(self, entries):
                return {"mean_score": self.mean(entries, "score")}
            def bound(self, entry):
                return 7

        PROBLEM = Guess()
    """

    # ---- the oracle's rules and an instance's session ----

    @abc.abstractmethod
    def check_query(self, secret, query):
        """Raise session.QueryError for an invalid query (parsed from strict JSON)."""

    @abc.abstractmethod
    def answer_query(self, secret, query):
        """The answer to a checked query: any JSON value, or its canonical JSON bytes."""

    @abc.abstractmethod
    def secret(self, item):
        """What the oracle's rules see of an instance."""

    @abc.abstractmethod
    def cap(self, item):
        """The requests an instance's session counts at most."""

    @abc.abstractmethod
    def max_body(self, item):
        """The bytes of a query's body at most."""

    POLICY = Policy()   # how every instance's session counts, unless policy() says otherwise

    def policy(self, item):
        """How an instance's session counts (session.Policy): POLICY."""
        return self.POLICY

    def session(self, item):
        """The Spec an instance's oracle session is opened with: everything
        the oracle needs, rules and all."""
        return Spec(self.secret(item), cap=self.cap(item), max_body=self.max_body(item),
                    check=self.check_query, answer=self.answer_query,
                    policy=self.policy(item))

    # ---- the set, the request, the verdict ----

    @abc.abstractmethod
    def check_instance(self, item):
        """Raise ValueError naming what is wrong with one line of a set."""

    def load_set(self, path):
        """The checked items of the set file at `path` (engine.load_set)."""
        return engine.load_set(path, problem=self)

    def request(self, item):
        """The fields of an instance's /solve request, beside token and deadline."""
        return {}

    def judge(self, item, answer, session):
        """The verdict of the worker's answer: a result.Failure, or None."""
        return None

    def evaluate(self, items, *, oracle, worker, settings, transcripts=None, progress=None,
                 indexes=None):
        """A run of `items` through `worker` (a client.WorkerClient) and a
        started `oracle`: the result dict. By default the engine's, an
        oracle session and a /solve for each instance (engine.evaluate). A
        problem whose count is not the oracle's (the instructions an
        emulator counts, say) gives its own run here, and makes its result
        with engine.summarize, so that every command still runs it."""
        return engine.evaluate(items, problem=self, oracle=oracle, worker=worker,
                               settings=settings, transcripts=transcripts, progress=progress,
                               indexes=indexes)

    # ---- the result and the console ----

    @abc.abstractmethod
    def entry(self, index, item, session):
        """An instance's entry in result.json, from its closed session."""

    @abc.abstractmethod
    def summary(self, entries):
        """The run's figures from its entries; the same keys, None, for []."""

    CONSOLE = None      # the result's keys summary_lines shows, in order (None: summary's)

    def summary_lines(self, result):
        """`key: value` lines of a valid result's own figures (the engine
        prints `status:` and `kind:` before them): one a key of CONSOLE,
        or of summary([]) when CONSOLE is None, its value as JSON."""
        keys = self.summary([]) if self.CONSOLE is None else self.CONSOLE
        return ["%s: %s" % (key, json.dumps(result[key])) for key in keys]

    def mean(self, entries, key):
        """The mean of `key` over `entries`, rounded to DIGITS; None for no entries."""
        return round(statistics.fmean(e[key] for e in entries), self.DIGITS) if entries else None

    def total(self, entries, key):
        """The sum of `key` over `entries`, rounded to DIGITS; None for no entries."""
        return round(sum(e[key] for e in entries), self.DIGITS) if entries else None

    @property
    @abc.abstractmethod
    def SCORE(self):
        """The entry key of an instance's score, which progress lines average."""

    @property
    @abc.abstractmethod
    def REPEATED(self):
        """The entry keys --repeat compares, in order."""

    WORKER_READS = ()   # paths the worker reads besides Python, its folder and its tester
    DIGITS = 6          # decimals kept of every figure, in result.json and the report
    RESAMPLING_SEED = "arh-bootstrap"   # the bootstrap's seed (commands/mmi.py)
    BENCH = None        # a benchmark.Bench: how commands/bench.py measures calls, or None

    # ---- paths and settings ----

    @property
    @abc.abstractmethod
    def ROOT(self):
        """The problem's folder: its autoresearch.toml, src/, result/ and commands."""

    @property
    @abc.abstractmethod
    def SAMPLE(self):
        """The path of the problem's public set."""

    @property
    def SETTINGS(self):
        """The path of the problem's autoresearch.toml."""
        return os.path.join(self.ROOT, "autoresearch.toml")

    @property
    def WORKER(self):
        """The path of the problem's worker (a harness/worker.py)."""
        return os.path.join(self.ROOT, "harness", "worker.py")

    @property
    def TESTER(self):
        """The tester file a local run grades unless told another."""
        return os.path.join(self.ROOT, "src", "tester.py")

    @property
    def OUT(self):
        """The folder a local run writes result.json in unless told another."""
        return os.path.join(self.ROOT, "result")

    @property
    def EDITABLE(self):
        """The folders a submission may change (autoresearch.toml's editable)."""
        return (os.path.join(self.ROOT, "src"),)

    @property
    def REPOSITORY(self):
        """The folder whose files a local run watches for change (integrity.py)."""
        return self.ROOT

    @property
    def COMMANDS(self):
        """The folder of the problem's commands (local.py, report.py...)."""
        return os.path.join(self.ROOT, "grader")

    def settings(self):
        """The run's settings: SETTINGS's [grader] table (settings.Settings)."""
        return Settings.read(self.SETTINGS)

    def table(self, name):
        """Another table of SETTINGS, as a dict (table("metric")["mmi"])."""
        return read_table(self.SETTINGS, name)

    def for_set(self, path):
        """The problem for the set at `path`: itself, unless a problem's
        figures depend on its set (twenty questions' bound on its pool)."""
        return self

    # ---- the report (report.py, picture.py) ----

    @property
    @abc.abstractmethod
    def SCORE_NAME(self):
        """The run's mean score, as result.json names it."""

    @property
    @abc.abstractmethod
    def BOUND_NAME(self):
        """The run's mean bound, as the report names it."""

    @property
    @abc.abstractmethod
    def LOWER_IS_BETTER(self):
        """True when a lower score is better (the bound a floor), else False."""

    @property
    @abc.abstractmethod
    def COUNT(self):
        """The entry key of the oracle calls counted."""

    @abc.abstractmethod
    def bound(self, entry):
        """An entry's bound: a floor of its score, or a ceiling."""

    def describe(self, entry):
        """An entry's words in the report's picture."""
        return "instance %d: %s %s, score %.4f, %s %.4f" % (
            entry["index"], entry[self.COUNT], self.COUNT, entry[self.SCORE],
            self.BOUND_SHORT, self.bound(entry))

    # A column is (header, a % format for its values, its value: an entry
    # key or a function of the entry). Every key the report reads must be
    # one of FIELDS, which the report checks in every entry.
    BOUND_SHORT = "bound"   # an instance's bound in the picture
    SAME_SET = ()           # keys equal in two results' instance of the same index
    AXES = ("bound", "score")   # the picture's (across, up) labels
    REFERENCE = None        # (score, words): a line across the picture, or None
    ACROSS = None           # (label, entry -> x): the picture's across-axis, if not the bound
    GROUP = None            # the key grouping instances ("family"), or None
    GROUPS = ()             # the groups in their order; others follow, sorted
    COLOURS = {}            # group -> its colour
    POSITIVE = ()           # keys whose values must be above 0
    LABELS = (("index", "%5d", "index"),)   # columns naming an instance, first in every row

    @property
    def ROWS(self):
        """The key of the rows of the instances furthest from their bound:
        above_BOUND_SHORT when the bound is a floor, else below_BOUND_SHORT."""
        return ("above_%s" if self.LOWER_IS_BETTER else "below_%s") % self.BOUND_SHORT

    @property
    def WIN(self):
        """What a win and a loss have: a lower and a higher score when lower
        is better, else the other way round."""
        lower, higher = "a lower score", "a higher score"
        return (lower, higher) if self.LOWER_IS_BETTER else (higher, lower)

    @property
    def FIELDS(self):
        """Entry key -> the types its value must have."""
        return {"index": (int,), self.COUNT: (int,), self.SCORE: NUMBER}

    @property
    def FIGURES(self):
        """The columns after LABELS in the rows of the instances furthest from their bound."""
        return ((self.COUNT, "%5d", self.COUNT), (self.SCORE, "%8.6f", self.SCORE),
                (self.BOUND_SHORT, "%8.6f", self.bound))

    # ---- the comparison (commands/compare.py) ----

    COMPARISON = None   # the problem's subclass of compare.rules.Rules, or None: no comparison

    def comparison(self):
        """The rules of one comparison run of two of the problem's testers,
        fresh for each run (COMPARISON, handed this problem), or None when
        the problem has no comparison."""
        return None if self.COMPARISON is None else self.COMPARISON(self)


def required(cls=Problem):
    """The names of the members a subclass of `cls` must give."""
    return sorted(cls.__abstractmethods__)

