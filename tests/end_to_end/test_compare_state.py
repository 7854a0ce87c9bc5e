"""grader/compare.py's state file: a decided state runs nothing, one that
does not fit the run (its settings, seed, testers) or was changed by hand
or forged is refused, naming what is wrong, and bad usage exits 2 naming
the value, writing nothing; the rules a problem gives a comparison."""

import contextlib
import io
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: support
import support  # noqa: E402
from arh_grader.commands import compare  # noqa: E402
from arh_grader.compare import rules  # noqa: E402
from arh_grader.compare import state as compare_state  # noqa: E402
from group_testing import instances  # noqa: E402
from group_testing.plugin import PROBLEM  # noqa: E402
from test_compare import CALIBRATION, HONEST, SEED, Commands  # noqa: E402


class CommandTest(Commands, unittest.TestCase):
    def test_a_decided_state_runs_nothing_and_a_misfit_one_is_refused(self):
        options = ("--test", "sign", "--min-sample", "5", "--draw-ceiling", "0.5",
                   "--draw-alpha", "0.2")
        status, out, err, state = self.compare("--seed", SEED, *options,
                                               challenger=support.SPLITTING)
        self.assertEqual((status, out["reason"], out["comparisons"]), (0, "draw_ceiling", "5"))
        before = support.read_bytes(state)
        status, again, err, _ = self.compare(*options, state=state, challenger=support.SPLITTING)
        self.assertEqual((status, again, support.read_bytes(state)), (0, out, before))
        self.assertNotIn("comparison: ", err)
        self.assertIn("%s had decided already" % state, err)
        changed = support.write(self, "tester.py", HONEST.replace("def honest(", "def find(")
                                + "# edited\n")
        cases = [(("--alpha", "0.1") + options, support.SPLITTING,
                  "alpha is 0.05 there and 0.1 in this run; give --alpha 0.05 to go on with it"),
                 (("--test", "sign"), support.SPLITTING,
                  "draw_ceiling is 0.5 there and 0.85 in this run"),
                 ((), support.SPLITTING, "the test is 'sign' there and 'mean' in this run; "
                  "give --test sign to go on with it"),
                 (("--seed", "other") + options, support.SPLITTING,
                  "--seed 'other' differs from 'compare-test' saved there"),
                 (options, CALIBRATION, "the challenger is another version than the one this "
                  "state file was started with"),
                 (options, changed, "a new version of a tester needs a new state file, for "
                  "example --state compare-")]
        for args, challenger, words in cases:
            with self.subTest(args=args, challenger=challenger):
                status, out, err, _ = self.compare(*args, state=state, challenger=challenger)
                self.assertEqual((status, out), (2, {}))
                self.assertIn(words, err)
                self.assertIn(state, err)
        self.assertEqual(support.read_bytes(state), before)
        self.assertEqual(sorted(os.listdir(os.path.dirname(state))), ["state.json"])

    def test_bad_usage_exits_2_naming_the_value(self):
        folder = support.tmpdir(self)
        garbage = support.write(self, "state.json", "{not json")
        older = support.write(self, "state.json", json.dumps({"format": 1, "seed": "s"}))
        cases = [((), garbage, "is not JSON"),
                 ((), older, "format 1, where this compare.py reads 3; start a new state file"),
                 (("--delta", "0.7"), os.path.join(folder, "s.json"),
                  "delta must be in (0, 0.1], got 0.7"),
                 (("--test", "sign", "--delta", "0.7"), os.path.join(folder, "s.json"),
                  "delta must be in [0.01, 0.5), got 0.7"),
                 (("--instance-timeout", "-1"), os.path.join(folder, "s.json"),
                  "--instance-timeout must be a positive number of seconds, got -1.0"),
                 (("--sample-result", garbage), os.path.join(folder, "s.json"),
                  "--sample-result %r is not a result.json of grader/local.py" % garbage),
                 (("--log", "/nonexistent/r.tsv"), os.path.join(folder, "s.json"),
                  "--log '/nonexistent/r.tsv' is not in an existing folder"),
                 ((), os.path.join(folder, "missing", "s.json"), "is not in an existing folder")]
        for args, state, words in cases:
            with self.subTest(words=words):
                status, _, err, _ = self.compare(*args, state=state)
                self.assertEqual(status, 2, err)
                self.assertIn(words, err)
        status, _, err, _ = self.compare(challenger=os.path.join(folder, "none.py"))
        self.assertEqual(status, 2)
        self.assertIn("--challenger '%s' is not a file" % os.path.join(folder, "none.py"), err)
        self.assertEqual(sorted(os.listdir(folder)), [])

    def test_a_state_changed_by_hand_or_forged_is_refused(self):
        status, out, err, state = self.compare("--seed", SEED, "--test", "sign",
                                               "--max-decisive", "3")
        self.assertEqual((status, out["reason"], out["W/L/D"]), (0, "max_decisive", "2/1/0"), err)
        real = compare_state.load_json(state)
        self.assertEqual(real["digest"], compare_state.digest(real))

        def forged(change, *, seal):
            data = json.loads(json.dumps(real))
            change(data)
            if seal:
                data["digest"] = compare_state.digest(data)
            return support.write(self, "state.json", json.dumps(data))

        def settings(data, **values):
            data["settings"].update(values)

        def extend(data):                 # the file goes on past the decision
            data["comparisons"].append([1, 2, instances.draw_instance(SEED, 3)["baseline"]])
            data["record"] = dict(data["record"], wins=4)
            data["next_comparison"] = 5

        def seventeen(data):              # 17 wins nobody played, on the seed's instances
            data["settings"]["max_decisive"] = 536
            data["comparisons"] = [[1, 2, instances.draw_instance(SEED, k)["baseline"]]
                                   for k in range(17)]
            data["record"] = {"wins": 17, "losses": 0, "draws": 0, "decision": "accept",
                              "reason": "upper_bound"}
            data["next_comparison"] = 18

        sign3 = ("--test", "sign", "--max-decisive", "3")
        cases = [
            (lambda d: settings(d, alpha=0.2), False, (),
             "its content does not match its digest: it was changed after compare.py wrote it"),
            (lambda d: settings(d, alpha=0.2), True, sign3,
             "alpha is 0.2 there and 0.05 in this run"),
            (lambda d: d.update(seed="another"), True, sign3,
             "comparison 1, [%d, %d, %d], is not one of instance 0 of the seed 'another'"
             % tuple(real["comparisons"][0])),
            (lambda d: d["record"].update(wins=17, decision="accept", reason="upper_bound"),
             True, sign3, "is not the one its 3 comparisons give"),
            (extend, True, sign3,
             "the test had decided (accept) at comparison 3, yet the file holds 4"),
            (seventeen, True, ("--test", "sign"),
             "does not come out again: the challenger makes ")]
        for change, seal, args, words in cases:
            with self.subTest(words=words):
                path = forged(change, seal=seal)
                before = support.read_bytes(path)
                status, out, err, _ = self.compare(*args, state=path)
                self.assertEqual((status, out), (2, {}), err)
                self.assertIn(words, err)
                self.assertIn(path, err)
                self.assertEqual(support.read_bytes(path), before)



class RulesTest(unittest.TestCase):
    """The seam of a comparison: a problem's Rules, from Problem.comparison()."""

    def test_rules_lacking_an_abstract_member_cannot_be_made(self):
        self.assertEqual(sorted(rules.Rules.__abstractmethods__),   # and one of each pair:
                         ["draw", "play", "suspect"])   # drawn or DRAWN, outcome and
        #                                                 difference or score (test_defaults)
        with self.assertRaisesRegex(TypeError, r"abstract class Rules"):
            rules.Rules(PROBLEM)
        self.assertIsInstance(PROBLEM.comparison(), rules.Rules)
        self.assertIsNot(PROBLEM.comparison(), PROBLEM.comparison())    # fresh for each run

    def test_a_problem_without_rules_has_no_comparison(self):
        lacking = type("Lacking", (type(PROBLEM),), {"COMPARISON": None})()
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = compare.main(lacking, ["--challenger", support.SPLITTING])
        self.assertEqual((status, err.getvalue()),
                         (2, "compare: Lacking has no comparison (Problem.comparison)\n"))

    def test_group_testings_entries_keep_the_reference_last(self):
        found = PROBLEM.comparison()
        item = found.draw(SEED, 0)
        plays = {"challenger": 5, "incumbent": None, "reference": 7}
        entry = found.entry(item, plays)
        self.assertEqual(entry, [5, None, item["baseline"], 7])
        self.assertEqual(found.plays(entry, list(plays)), plays)


if __name__ == "__main__":
    unittest.main()
