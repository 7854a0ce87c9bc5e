"""Transcripts and determinism: --transcripts DIR writes each instance's
requests and answers as JSON Lines whose SHA-256 is the item's "transcript"
digest, and --repeat N says whether a tester is deterministic and, if not,
on which instance."""

import hashlib
import json
import os
import unittest

import support
from group_testing import selfcheck_cases
from arh_grader import local_run

LIMIT = 3      # instances a run grades

# On instance 2 alone, one test more of half the items drawn at random:
# every run makes as many tests, and runs differ in instance 2's transcript
# alone (two draws agree with a chance below 2**-60). A file cannot carry a
# run's number to the next: the worker may write in its own folder only.
RANDOM_ON_THIRD = """import random
CALLS = []
"""


class TranscriptTest(unittest.TestCase):
    def run_local(self, *args, tester=support.SHIPPED):
        out = support.tmpdir(self)
        status, stdout, stderr = support.run_command(
            self, "grader/local.py", "--tester", tester, "--out", out, "--limit", str(LIMIT),
            *args)
        with open(os.path.join(out, "result.json")) as f:
            return status, stdout, stderr, json.load(f)

    def test_each_transcript_file_is_its_digest_and_canonical(self):
        folder = support.tmpdir(self)
        status, _, stderr, result = self.run_local("--transcripts", folder)
        self.assertEqual(status, 0, stderr)
        items = support.PROBLEM.load_set(support.SAMPLE)[:LIMIT]
        self.assertEqual(sorted(os.listdir(folder)),
                         ["instance-%04d.jsonl" % i for i in range(LIMIT)])
        for entry, item in zip(result["items"], items):
            with self.subTest(instance=entry["index"]):
                blob = support.read_bytes(
                    os.path.join(folder, "instance-%04d.jsonl" % entry["index"]))
                self.assertEqual(hashlib.sha256(blob).hexdigest(), entry["transcript"])
                lines = blob.splitlines(keepends=True)
                self.assertEqual(len(lines), entry["tests"])
                truth = set(item["defectives"])
                for line in lines:
                    record = json.loads(line)
                    self.assertEqual(line, json.dumps(record, separators=(",", ":"),
                                                      sort_keys=True).encode() + b"\n")
                    self.assertEqual(sorted(record), ["a", "q", "s"])
                    self.assertEqual(record["s"], 200)
                    self.assertEqual(list(record["q"]), ["pool"])
                    self.assertEqual(record["a"],
                                     {"positive": not truth.isdisjoint(record["q"]["pool"])})

    def test_the_digest_is_there_without_transcripts(self):
        _, _, _, plain = self.run_local()
        _, _, _, written = self.run_local("--transcripts", support.tmpdir(self))
        self.assertEqual([e["transcript"] for e in plain["items"]],
                         [e["transcript"] for e in written["items"]])
        self.assertTrue(all(len(e["transcript"]) == 64 for e in plain["items"]))

    def test_repeat_says_the_shipped_tester_is_deterministic(self):
        status, stdout, stderr, result = self.run_local("--repeat", "2")
        self.assertEqual(status, 0, stderr)
        self.assertEqual(stdout.splitlines()[-1],
                         "deterministic: 2 runs, identical counts and transcripts")
        self.assertEqual(result["status"], "valid")

    def test_repeat_names_the_instance_of_a_nondeterministic_tester(self):
        tester = selfcheck_cases.counterfeit(
            support.tmpdir(self),
            "CALLS.append(1)\n"
            "if len(CALLS) == 3:\n"
            "    test(random.SystemRandom().sample(range(n), n // 2))\n"
            "return d", prelude=RANDOM_ON_THIRD)
        transcripts = support.tmpdir(self)
        status, stdout, _, result = self.run_local("--repeat", "2", "--transcripts",
                                                   transcripts, tester=tester)
        self.assertEqual(status, 1)
        self.assertRegex(stdout.splitlines()[-1],
                         r"^nondeterministic: instance 2 \(transcript differ between runs 1 "
                         r"and 2: [0-9a-f]{64} and [0-9a-f]{64}\)$")
        self.assertEqual(result["status"], "valid")
        for index in range(LIMIT):
            name = "instance-%04d.jsonl" % index
            first, second = (support.read_bytes(os.path.join(transcripts, "run-%d" % k, name))
                             for k in (1, 2))
            with self.subTest(instance=index):
                self.assertEqual(second.count(b"\n"), first.count(b"\n"))
                if index == 2:
                    self.assertNotEqual(first, second)
                else:
                    self.assertEqual(first, second)

    def test_first_difference(self):
        def run(*entries):          # each entry: "digest", or (tests, invalid, "digest")
            entries = [(5, 0, e) if type(e) is str else e for e in entries]
            return {"items": [{"index": i, "tests": t, "invalid_tests": v, "transcript": d}
                              for i, (t, v, d) in enumerate(entries)]}
        cases = [
            ([run("a", "b"), run("a", "b")], None),
            ([run("a", "b"), run("a", "c")],
             "instance 1 (transcript differ between runs 1 and 2: b and c)"),
            ([run("a", "b"), run("a", "b"), run("x", "b")],
             "instance 0 (transcript differ between runs 1 and 3: a and x)"),
            ([run("a", "b"), run("a", "c"), run("x", "b")],
             "instance 0 (transcript differ between runs 1 and 3: a and x)"),
            ([run("a"), run("a", "b")], "instance 1 (graded in only one of runs 1 and 2)"),
            ([run("a", "b"), run("a")], "instance 1 (graded in only one of runs 1 and 2)"),
            # a request cut off at the session's end: counted, the same transcript
            ([run("a", (82, 0, "b")), run("a", (83, 0, "b"))],
             "instance 1 (tests differ between runs 1 and 2: 82 and 83)"),
            ([run((9, 1, "a")), run((9, 2, "a"))],
             "instance 0 (invalid tests differ between runs 1 and 2: 1 and 2)"),
        ]
        for runs, expected in cases:
            with self.subTest(runs=runs):
                self.assertEqual(local_run.first_difference(
                    runs, keys=("tests", "invalid_tests", "transcript")), expected)


if __name__ == "__main__":
    unittest.main()
