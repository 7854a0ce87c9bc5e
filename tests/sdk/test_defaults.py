"""The defaults the SDK gives a problem, each on a tiny problem of this
module's own (Tiny, an arh_grader.Problem, and its comparison's Rules):
the console's lines from the figures, their means and totals, the counting
policy, the comparison's class, the report's rows and words; a comparison's
item named by DRAWN, its outcome and difference from score(play), its plays
shown by SHOWN."""

import math
import unittest

import support  # noqa: F401  (puts grader/ on the path)
from arh_grader import Policy, Problem, engine
from arh_grader.compare import rules, sprt


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


if __name__ == "__main__":
    unittest.main()
