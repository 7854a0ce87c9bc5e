"""The defaults the SDK gives a problem, each on a tiny problem of this
module's own (Tiny, an arh_grader.Problem, and its comparison's Rules):
the console's lines from the figures, their means and totals, the counting
policy, the comparison's class, the report's rows and words; a comparison's
tester in a worker of its own (a Contender), its item named by DRAWN, its outcome and difference from score(play), its plays
shown by SHOWN; the self-check's cases from a folder, the set written
beside a tester and the problem for the sample; and the worker template's
call of the oracle, the end of a round, the class of a refusal and the
tester beside a worker."""

import io
import math
import os
import sys
import unittest
from unittest import mock

import support
from arh_grader import Policy, Problem, engine
from arh_grader.commands import selfcheck
from arh_grader.compare import rules, sprt
from arh_grader.contender import Contender

sys.path.insert(0, os.path.join(support.ROOT, "harness"))
import arh_worker  # noqa: E402


class Tiny(Problem):
    """Guess a number: an entry's score is 1 when found, its calls counted."""

    SCORE, SCORE_NAME, BOUND_NAME, COUNT = "score", "mean_score", "bound", "calls"
    LOWER_IS_BETTER, REPEATED = False, ("calls", "transcript")
    ROOT = SAMPLE = None        # no folder and no set: never run

    def check_query(self, secret, query):
        pass

    def answer_query(self, secret, query):
        return {"correct": query == secret}

    def check_instance(self, item):
        pass

    def secret(self, item):
        return item["secret"]

    def cap(self, item):
        return 3

    def max_body(self, item):
        return 64

    def entry(self, index, item, session):
        return {"index": index, "calls": session.tests,
                "score": 1.0 if session.ended_by_answer else 0.0, "transcript": ""}

    def summary(self, entries):
        return {"mean_score": self.mean(entries, "score"), "calls": self.total(entries, "calls"),
                "suspect": False}

    def bound(self, entry):
        return 1.0


class Words(rules.Rules):
    """A comparison of Tiny: item `index` of a seed is the word at that
    index; a play is a count, its score the count itself."""

    DRAWN, SHOWN = "word", "%.1f"

    def draw(self, seed, index):
        return {"word": "%s-%d" % (seed, index)}

    def play(self, session):
        return session.tests

    def score(self, play):
        return 0.0 if play is None else float(play)

    def suspect(self, comparisons):
        return None


class Indexed(rules.Rules):
    """Words, drawn and compared by methods of its own: no DRAWN, no score."""

    draw, play, suspect = Words.draw, Words.play, Words.suspect

    def drawn(self, item):
        return item["word"]

    def outcome(self, entry):
        return sprt.DRAW

    def difference(self, index, entry):
        return 0.0


ENTRIES = [{"index": 0, "calls": 1, "score": 1.0, "transcript": ""},
           {"index": 1, "calls": 3, "score": 0.0, "transcript": ""},
           {"index": 2, "calls": 2, "score": 1.0, "transcript": ""}]


class ProblemDefaultsTest(unittest.TestCase):
    def test_the_console_shows_the_figures_as_json(self):
        result = engine.summarize(Tiny(), ENTRIES)
        self.assertEqual(Tiny().summary_lines(result),
                         ["mean_score: 0.666667", "calls: 6", "suspect: false"])
        self.assertEqual(engine.summary_lines(result, problem=Tiny())[2:],
                         Tiny().summary_lines(result))

    def test_console_names_the_keys_the_console_shows(self):
        class Chosen(Tiny):
            CONSOLE = ("instances", "suspect", "mean_score")

        result = engine.summarize(Chosen(), ENTRIES)
        self.assertEqual(Chosen().summary_lines(result),
                         ["instances: 3", "suspect: false", "mean_score: 0.666667"])

    def test_mean_and_total_round_to_digits_and_are_none_for_no_entries(self):
        class Coarse(Tiny):
            DIGITS = 2

        self.assertEqual(Tiny().mean(ENTRIES, "score"), 0.666667)
        self.assertEqual(Coarse().mean(ENTRIES, "score"), 0.67)
        self.assertEqual(Coarse().total([{"x": 0.123}, {"x": 0.001}], "x"), 0.12)
        self.assertIs(type(Tiny().total(ENTRIES, "calls")), int)
        self.assertEqual(Tiny().total([{"found": True}, {"found": True}], "found"), 2)
        self.assertEqual((Tiny().mean([], "score"), Tiny().total([], "calls")), (None, None))
        self.assertEqual(Tiny().summary([]), {"mean_score": None, "calls": None,
                                              "suspect": False})

    def test_every_session_counts_by_policy_unless_the_problem_says(self):
        self.assertEqual(Tiny().policy({"secret": 1}), Policy())

        class Ending(Tiny):
            POLICY = Policy(count_invalid=False, over_cap="end")

        self.assertEqual(Ending().policy({"secret": 1}), Ending.POLICY)
        self.assertIs(Ending().session({"secret": 1}).policy, Ending.POLICY)

    def test_the_comparison_is_a_fresh_one_of_its_class(self):
        self.assertIsNone(Tiny().comparison())

        class Compared(Tiny):
            COMPARISON = Words

        problem = Compared()
        found = problem.comparison()
        self.assertIsInstance(found, Words)
        self.assertIs(found.problem, problem)
        self.assertIsNot(problem.comparison(), found)

    def test_the_rows_and_the_wins_follow_the_bound(self):
        self.assertEqual((Tiny().ROWS, Tiny().WIN),
                         ("below_bound", ("a higher score", "a lower score")))

        class Floored(Tiny):
            LOWER_IS_BETTER, BOUND_SHORT = True, "floor"

        self.assertEqual((Floored().ROWS, Floored().WIN),
                         ("above_floor", ("a lower score", "a higher score")))


class RulesDefaultsTest(unittest.TestCase):
    def rules(self, cls=Words, *, lower_is_better=False):
        problem = Tiny()
        problem.LOWER_IS_BETTER = lower_is_better
        return cls(problem)

    def test_drawn_names_what_an_entry_keeps_and_each_comparison(self):
        words = self.rules()
        item = words.draw("s", 4)
        self.assertEqual(words.drawn(item), "s-4")
        self.assertEqual(words.entry(item, {"challenger": 2, "incumbent": None}), [2, None, "s-4"])
        self.assertEqual(words.label(4, [2, None, "s-4"]), "word: s-4")
        self.assertEqual(words.where("s", 4, item), "word s-4")

    def test_without_drawn_the_index_names_a_comparison(self):
        indexed = self.rules(Indexed)
        self.assertEqual(indexed.label(4, [2, 1, "s-4"]), "instance: 4")
        self.assertEqual(indexed.where("s", 4, {"word": "s-4"}), "instance index 4 of seed 's'")
        self.assertEqual(indexed.shown(2), "2")

    def test_the_better_score_wins_and_a_play_past_its_deadline_loses(self):
        for lower, better, worse in ((False, 3, 1), (True, 1, 3)):
            with self.subTest(lower_is_better=lower):
                words = self.rules(lower_is_better=lower)
                self.assertEqual([words.outcome(entry) for entry in (
                    [better, worse, "w"], [worse, better, "w"], [2, 2, "w"], [None, worse, "w"],
                    [worse, None, "w"], [None, None, "w"])],
                    [sprt.WIN, sprt.LOSS, sprt.DRAW, sprt.LOSS, sprt.WIN, sprt.DRAW])

    def test_the_difference_is_below_zero_when_the_challenger_gains(self):
        for lower, better, worse in ((False, 3, 1), (True, 1, 3)):
            with self.subTest(lower_is_better=lower):
                words = self.rules(lower_is_better=lower)
                self.assertEqual(words.difference(0, [better, worse, "w"]), -2.0)
                self.assertEqual(words.difference(0, [worse, better, "w"]), 2.0)
                self.assertEqual(words.difference(0, [None, 2, "w"]), 2.0 if not lower else -2.0)
                self.assertEqual(math.copysign(1.0, words.difference(0, [2, 2, "w"])), 1.0)
                self.assertEqual(words.scores([[3, 1, "w"]]), [2.0])    # challenger minus

    def test_a_tester_plays_in_a_worker_of_its_own_unless_the_rules_say(self):
        words = self.rules()
        words.problem.ROOT = support.ROOT          # its worker: harness/worker.py there
        tester = os.path.join(support.ROOT, "src", "tester.py")
        contender = words.contender(tester, role="incumbent", oracle=None, start_timeout=5,
                                    private=("state.json",))
        self.assertIs(type(contender), Contender)
        self.assertEqual((contender.tester, contender.role, contender.private, contender.proc),
                         (tester, "incumbent", ("state.json",), None))
        self.assertIs(contender.problem, words.problem)
        self.assertEqual(contender.worker_file, os.path.join(support.ROOT, "harness", "worker.py"))

    def test_shown_gives_a_plays_score_in_its_format(self):
        self.assertEqual(self.rules().shown(2), "2.0")

    def test_rules_lacking_one_of_a_pair_cannot_be_made(self):
        members = {name: value for name, value in vars(Words).items() if name[:2] != "__"}
        for left_out, words in ((("DRAWN",), "neither drawn nor DRAWN"),
                                (("score",), "neither outcome nor score"),
                                (("score", "DRAWN"), "neither drawn nor DRAWN")):
            with self.subTest(left_out=left_out):
                lacking = type("Lacking", (rules.Rules,),
                               {k: v for k, v in members.items() if k not in left_out})
                with self.assertRaisesRegex(TypeError, "^Lacking gives %s$" % words):
                    lacking(Tiny())


class SelfcheckDefaultsTest(unittest.TestCase):
    def test_cases_in_a_folder_take_their_testers_there(self):
        found = selfcheck.cases_in("/testers", (("good", "valid"),
                                                ("late", "timeout", {"beside": ("x.py",)})))
        self.assertEqual([(c.name, c.expected, c.tester, c.beside) for c in found],
                         [("good", "valid", "/testers/good.py", ()),
                          ("late", "timeout", "/testers/late.py", ("x.py",))])
        self.assertEqual(selfcheck.case_in("/t", "one", "valid", check=len),
                         selfcheck.Case("one", "valid", "/t/one.py", check=len))

    def test_set_beside_writes_the_cases_items_as_a_set_file(self):
        folder = support.tmpdir(self)
        selfcheck.set_beside("set.jsonl")(folder, [{"secret": 1}, {"secret": 22}])
        with open(os.path.join(folder, "set.jsonl"), encoding="utf-8") as f:
            self.assertEqual(f.read(), '{"secret": 1}\n{"secret": 22}\n')

    def test_the_cases_run_with_the_problem_for_the_sample(self):
        seen = []

        class Sampled(Tiny):
            SAMPLE = "sample.jsonl"

            def for_set(self, path):
                found = Sampled()
                found.path = path
                return found

            def load_set(self, path):
                return [{"secret": 1}, {"secret": 2}, {"secret": 3}]

        def run(case, *, problem, items, tester, folder, settings):
            seen.append((problem.path, items, tester))
            return "valid", ""

        case = selfcheck.Case("one", "valid", "one.py", run=run)
        out = io.StringIO()
        with mock.patch.dict(engine.check_cases.__kwdefaults__, {"stream": out}):
            status = selfcheck.main(Sampled(), [], cases=[case], instances=2, settings=None)
        self.assertEqual(status, 0)
        self.assertEqual(seen, [("sample.jsonl", [{"secret": 1}, {"secret": 2}], "one.py")])
        self.assertIn("selfcheck: 1/1 cases as expected", out.getvalue())


class Scripted(arh_worker.OracleConnection):
    """An oracle link whose replies are given, one a query, never sent."""

    replies = ()

    def send(self, query):
        self.sent = query
        return self.replies[0]


class Refused(arh_worker.OracleError):
    """A problem's own refusal."""


class WorkerTemplateTest(unittest.TestCase):
    def reply(self, status, reply, refused=None):
        oracle = Scripted("http://127.0.0.1:9/", "token")
        oracle.replies = [(status, reply)]
        if refused is not None:
            oracle.refused = refused
        return oracle.reply({"ask": 7}, "yes")

    def test_a_call_gives_the_key_of_the_oracles_answer(self):
        self.assertIs(self.reply(200, {"yes": False}), False)

    def test_a_call_after_the_round_ends_stops_the_tester(self):
        with self.assertRaises(arh_worker.RoundOver):
            self.reply(409, {"error": "the round is over"})
        self.assertFalse(issubclass(arh_worker.RoundOver, Exception))

    def test_a_refused_call_raises_the_workers_class_with_the_oracles_words(self):
        with self.assertRaisesRegex(arh_worker.OracleError, r"^oracle answered 400: no such$"):
            self.reply(400, {"error": "no such"})
        with self.assertRaisesRegex(Refused, r"^oracle answered 429: \['cap'\]$"):
            self.reply(429, ["cap"], refused=Refused)
        with self.assertRaisesRegex(Refused, r"^oracle answered 200: None$"):
            self.reply(200, {"yes": 1}, refused=Refused)     # not a bool

    def worker(self, play):
        """A worker of a tester play(), whose play is `play(oracle)`."""
        tester = support.write(self, "tester.py", "def play():\n    pass\n")

        class Worker(arh_worker.Worker):
            SIGNATURE = "play()"
            OracleError = Refused

            def play(self, oracle, fields):
                return play(oracle)

        server = Worker(("127.0.0.1", 0), oracle_url="http://127.0.0.1:9/", tester_path=tester)
        self.addCleanup(server.server_close)
        return server

    def test_a_round_that_ends_is_answered_none_and_no_failure(self):
        def play(oracle):
            raise arh_worker.RoundOver()
        self.assertEqual(self.worker(play).solve("token", ()), (200, {"answer": None}))

    def test_the_link_raises_the_workers_class_of_refusal(self):
        server = self.worker(lambda oracle: oracle.refused.__name__)
        self.assertEqual(server.solve("token", ()), (200, {"answer": "Refused"}))

    def test_the_tester_is_beside_the_workers_folder_unless_told(self):
        here = os.path.dirname(os.path.abspath(__file__))
        self.assertEqual(arh_worker.tester_beside(Scripted),
                         os.path.join(here, os.pardir, "src", "tester.py"))


if __name__ == "__main__":
    unittest.main()
