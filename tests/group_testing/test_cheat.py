"""What a result reveals: no failing result of the self-check's battery
names a defective of the instance it failed on, not in what the grader says,
nor by quoting the tester's own answer. (The cheat flag: test_cheat_flag.py.)
The failing cases run here only, so each asserts its verdict here too
(test_pipeline.py runs the others).
"""

import concurrent.futures
import os
import re
import unittest

import support
from support import problem
from arh_grader.commands import selfcheck
from group_testing import selfcheck_cases

THREADS = 8                 # battery runs at once (a case on each set)
# a number standing alone: not part of a word, a path or a longer number
NUMBER = re.compile(r"(?<![\w.\-])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])")
# where a number is public: a source line, a position in the answer, the range
PUBLIC = re.compile(r"\bline \d+|\bposition \d+|\b0\.\.\d+")


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
        cases = selfcheck_cases.FAILING
        items = support.PROBLEM.load_set(support.SAMPLE)[:selfcheck_cases.INSTANCES]
        sets = {"sample": items, "mirrored": [mirrored(item) for item in items]}
        workdir = support.tmpdir(self)

        testers = {case.name: selfcheck.place(case, items=items,
                                              folder=os.path.join(workdir, case.name))
                   for case in cases}          # one file a case: its messages name it

        def run(case, key):
            return selfcheck.evaluate(case, problem=support.PROBLEM, items=sets[key],
                                      tester=testers[case.name],
                                      settings=selfcheck_cases.SETTINGS)[0]

        pairs = [(case, key) for case in cases for key in sets]   # a case's hang waits twice
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            done = dict(zip([(case.name, key) for case, key in pairs],
                            pool.map(lambda pair: run(*pair), pairs)))
        runs = [(case.name, {key: done[case.name, key] for key in sets}) for case in cases]
        for case, (name, results) in zip(cases, runs):
            with self.subTest(case=name, instances="sample", verdict=case.expected):
                got, detail = selfcheck.verdict(support.PROBLEM, [results["sample"]])
                self.assertEqual(got, case.expected, detail)
            for key, result in results.items():
                with self.subTest(case=name, instances=key):
                    defectives = sets[key][result["index"]]["defectives"]
                    named = sorted(standalone_numbers(result["message"]) & set(defectives))
                    self.assertEqual(named, [], result["message"])
            with self.subTest(case=name, instances="both"):
                self.assertEqual(results["sample"]["message"], results["mirrored"]["message"])


if __name__ == "__main__":
    unittest.main()
