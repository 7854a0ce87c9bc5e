"""The cheat flag, and what a result reveals.

An honest deterministic tester saves 20 bits over the information bound
(the sum over instances of surprise minus tests) with probability at most
2^-20: a near-optimal one (tests/testers/informed.py) is not flagged, on the
sample or on 500 instances; a tester that reads the answers is. And no
failing result of the self-check's battery names a defective of the
instance it failed on: not in what the grader says, nor by quoting the
tester's own answer.
"""

import concurrent.futures
import json
import os
import re
import sys
import unittest

import support
import instances
import selfcheck
from support import grade, local, problem

INFORMED = os.path.join(support.ROOT, "tests", "testers", "informed.py")
CHEAT_SEED, CHEAT_COUNT = "cheat-check", 500
THREADS = 4                 # battery cases run at once
# a number standing alone: not part of a word, a path or a longer number
NUMBER = re.compile(r"(?<![\w.\-])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])")
# where a number is public: a source line, a position in the answer, the range
PUBLIC = re.compile(r"\bline \d+|\bposition \d+|\b0\.\.\d+")


class CheatFlagTest(unittest.TestCase):
    def run_local(self, tester, items):
        """grader/local.py on `items` (a path) in a real process: (exit
        status, stdout lines, result)."""
        out = support.tmpdir(self)
        status, stdout, stderr = support.run_command(
            self, "grader/local.py", "--tester", tester, "--items", items, "--out", out)
        with open(os.path.join(out, "result.json")) as f:
            return status, support.lines_of(stdout), json.load(f)

    def assert_honest(self, name, items):
        status, lines, result = self.run_local(INFORMED, items)
        print("\ncheat: informed tester on %s: relative_tests %s, saved_bits %s"
              % (name, result["relative_tests"], result["saved_bits"]), file=sys.stderr)
        self.assertEqual((status, result["status"]), (0, "valid"))
        self.assertIs(result["suspect"], False)
        self.assertLess(result["saved_bits"], grade.SUSPECT_BITS)
        self.assertEqual(lines["suspect"], "false")
        self.assertNotIn("warning", lines)
        saved = sum(e["surprise"] - e["tests"] for e in result["items"])
        self.assertAlmostEqual(result["saved_bits"], saved, places=4)
        return result

    def test_an_honest_tester_is_not_flagged_on_the_sample(self):
        result = self.assert_honest("the sample", support.SAMPLE)
        self.assertLess(result["relative_tests"], 0.8)

    def test_an_honest_tester_is_not_flagged_on_500_instances(self):
        path = support.write(self, "items.jsonl", "".join(
            instances.dumps(item) for item in instances.draw(CHEAT_COUNT, CHEAT_SEED)))
        result = self.assert_honest("%d instances" % CHEAT_COUNT, path)
        self.assertEqual(result["instances"], CHEAT_COUNT)
        self.assertGreater(result["relative_tests"], 0.72)
        self.assertLess(result["relative_tests"], 0.77)

    def test_a_tester_that_reads_the_answers_is_flagged(self):
        source = dict((c[0], c[2]) for c in selfcheck.CASES)["reads_sample"]
        folder = support.tmpdir(self)
        tester = os.path.join(folder, "tester.py")
        with open(tester, "w", encoding="utf-8") as f:
            f.write(source)
        with open(support.SAMPLE, "rb") as f, \
                open(os.path.join(folder, "items.jsonl"), "wb") as g:
            g.write(f.read())
        status, lines, result = self.run_local(tester, support.SAMPLE)
        print("\ncheat: answer reader on the sample: saved_bits %s" % result["saved_bits"],
              file=sys.stderr)
        self.assertEqual((status, result["status"]), (0, "valid"))
        self.assertIs(result["suspect"], True)
        self.assertGreaterEqual(result["saved_bits"], grade.SUSPECT_BITS)
        self.assertEqual([e["tests"] for e in result["items"]], [0] * len(result["items"]))
        self.assertEqual(lines["suspect"], "true")
        self.assertIn("the tester saved", lines["warning"])


def mirrored(item):
    """`item` with its items numbered backwards: the same n and priors, other
    defectives."""
    n = item["n"]
    defectives = sorted(n - 1 - x for x in item["defectives"])
    return dict(item, priors=item["priors"][::-1], defectives=defectives,
                baseline=problem.baseline_tests(n, defectives))


def standalone_numbers(message):
    """The integers a message shows standing alone (1.0 shows 1), outside
    the places where a number is public."""
    found = set()
    for text in NUMBER.findall(PUBLIC.sub(" ", message)):
        value = float(text)
        if value.is_integer():
            found.add(int(value))
    return found


class MessageLeakTest(unittest.TestCase):
    """Every failing case of the battery, on the sample's first instances and
    on the same instances numbered backwards."""

    def test_no_message_names_a_defective(self):
        cases = [c for c in selfcheck.CASES
                 if c[1] not in ("valid", "suspect", "nondeterministic")
                 and c[0] not in selfcheck.PLATFORM_CASES]
        items = grade.load_set(support.SAMPLE)[:selfcheck.INSTANCES]
        sets = {"sample": items, "mirrored": [mirrored(item) for item in items]}
        workdir = support.tmpdir(self)

        def run(case):
            name, _, source, *_ = case
            tester = os.path.join(workdir, name + ".py")
            with open(tester, "w", encoding="utf-8") as f:
                f.write(source)
            return name, {key: local.evaluate_local(chosen, tester=tester, quiet=True,
                                                    settings=selfcheck.settings_for(name))
                          for key, chosen in sets.items()}

        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            runs = list(pool.map(run, cases))
        for name, results in runs:
            for key, result in results.items():
                with self.subTest(case=name, instances=key):
                    defectives = sets[key][result["index"]]["defectives"]
                    named = sorted(standalone_numbers(result["message"]) & set(defectives))
                    self.assertEqual(named, [], result["message"])
            with self.subTest(case=name, instances="both"):
                self.assertEqual(results["sample"]["message"], results["mirrored"]["message"])


if __name__ == "__main__":
    unittest.main()
