"""Graph isomorphism's emulated runs: the counterfeits of tests/solvers/
each get their kind from the counting emulator (gi/emulator.py) and from
the self-check (gi/selfcheck.py, through the worker and the local run),
the same solver counts the same instructions twice, the
local run scores the incumbent exactly 1.0 on the sample, whichever of its
problems it takes, in byte-identical result.json files, the reference
measures the sample's refs, and a comparison (gi/compare.py) accepts a
matcher that does less work, on the metric.

They need the pinned emulator and guest tree (python3 gi/setup.py), and
take about ten seconds a run, so they are not in the suite: .ci/emulated.sh
builds the tree and runs them (python3 -m unittest discover -s
examples/algotune-graph-isomorphism/tests/emulated)."""

import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gi_support  # noqa: E402
from gi import comparison, emulator, plugin, qemu, selfcheck, sets, task, tree  # noqa: E402

GIVEN = task.generate_problem(140, 0)   # in no set: a counterfeit cannot meet it by chance
CAP = 10 ** 11                            # instructions: no honest item comes near
TIMEOUT_S = 600                           # seconds: a backstop, never reached
LOCAL = os.path.join(gi_support.PROJECT, "gi", "local.py")
SELFCHECK = os.path.join(gi_support.PROJECT, "gi", "selfcheck.py")
COMPARE = os.path.join(gi_support.PROJECT, "gi", "compare.py")
REFINED = os.path.join(gi_support.TESTS, "solvers", "refined", "solver.py")


def files(name):
    """{file: bytes} of the solver folder tests/solvers/<name>/."""
    folder, found = os.path.join(gi_support.TESTS, "solvers", name), {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as f:
                found[name] = f.read()
    return found


def incumbent():
    with open(os.path.join(gi_support.PROJECT, "src", "solver.py"), "rb") as f:
        return {"solver.py": f.read()}


def local(case, *args):
    """result.json of gi/local.py run with `args`, and its bytes."""
    out = gi_support.tmpdir(case)
    done = subprocess.run([sys.executable, LOCAL, "--out", out, *args], capture_output=True,
                          text=True, timeout=TIMEOUT_S, cwd=gi_support.PROJECT)
    with open(os.path.join(out, "result.json"), "rb") as f:
        data = f.read()
    return json.loads(data), data, done


@unittest.skipUnless(os.path.exists(tree.MANIFEST), "the guest tree is not built: gi/setup.py")
class CounterfeitTest(unittest.TestCase):
    def test_each_counterfeit_gets_its_kind_from_the_emulator(self):
        cases = {"thread": ("threads", "clone"),
                 "far_pointer": ("escape", "memory fault"),
                 "chatty": ("output_too_large", "stdout"),
                 "memory_bomb": ("solver_failed", "MemoryError"),
                 "exits": ("solver_failed", "(status 3): exits: the solver gives up here")}
        # reads_seed: the next test
        for name, (kind, words) in cases.items():
            with self.subTest(solver=name):
                run = emulator.run(files(name), [GIVEN], cap=CAP, timeout_s=TIMEOUT_S)
                self.assertEqual((run.kind, run.counts, run.answers), (kind, (), ()), run.message)
                self.assertIn(words, run.message)

    def test_the_seed_reader_works_but_for_the_walls(self):
        """Off the emulator, the reader finds a set holding its problem and
        answers it with no search; inside, the walls refuse the read."""
        folder = gi_support.tmpdir(self)
        os.chmod(folder, 0o755)
        with open(os.path.join(folder, "items.jsonl"), "w", encoding="utf-8") as f:
            f.write('{"n": 140, "seed": 0, "instructions": 1}\n')
        os.chmod(os.path.join(folder, "items.jsonl"), 0o644)
        namespace = {}
        exec(compile(files("reads_seed")["solver.py"], "reads_seed", "exec"), namespace)
        self.assertTrue(task.is_solution(GIVEN, namespace["Solver"]().solve(GIVEN)))
        run = emulator.run(files("reads_seed"), [GIVEN], cap=CAP, timeout_s=TIMEOUT_S)
        self.assertEqual(run.kind, "solver_failed", run.message)
        self.assertIn("no set found", run.message)

    def test_a_store_that_lands_outside_the_guest_is_an_escape(self):
        """Without address randomisation (setarch -R) the far pointer is the
        emulator's stack: the store lands, and the plugin ends the run at
        it, naming the address."""
        command = emulator.command
        launchers = emulator.LAUNCHERS
        def unrandomised(**options):
            cmd = command(**options)
            at = cmd.index(qemu.COMMAND[0])
            return cmd[:at] + ["setarch", "x86_64", "-R"] + cmd[at:]
        emulator.command, emulator.LAUNCHERS = unrandomised, launchers + ("setarch",)
        self.addCleanup(setattr, emulator, "command", command)
        self.addCleanup(setattr, emulator, "LAUNCHERS", launchers)
        run = emulator.run(files("far_pointer"), [GIVEN], cap=CAP, timeout_s=TIMEOUT_S)
        self.assertEqual((run.kind, run.counts), ("escape", ()), run.message)
        self.assertIn("memory 0x7fffffffe000", run.message)

    def test_the_plugin_stops_an_item_past_its_cap(self):
        run = emulator.run(incumbent(), [GIVEN], cap=10 ** 7, timeout_s=TIMEOUT_S)
        self.assertEqual((run.kind, run.counts), ("over_budget", ()), run.message)

    def test_the_self_check_gives_every_case_its_verdict(self):
        """gi/selfcheck.py, through the worker and the local run: the wrong
        mapping, the sleeper and the rest, each its kind."""
        done = subprocess.run([sys.executable, SELFCHECK], capture_output=True, text=True,
                              timeout=3 * TIMEOUT_S, cwd=gi_support.PROJECT)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        got = [line.split()[1:6:2] for line in done.stdout.splitlines()
               if line.startswith("case: ")]
        self.assertEqual(got, [[case.name, case.expected, case.expected]
                               for case in selfcheck.CASES])
        self.assertEqual({case.expected for case in selfcheck.CASES} - {"valid"},
                         {"wrong", "solver_failed", "solver_timeout", "threads", "escape",
                          "output_too_large"})

    def test_a_problem_over_its_budget_is_over_item_budget(self):
        folder = gi_support.tmpdir(self)
        items = os.path.join(folder, "items.jsonl")
        with open(items, "w", encoding="utf-8") as f:
            f.write('{"n": 140, "seed": 0, "instructions": 1000}\n')
        result, _, done = local(self, "--items", items)
        self.assertEqual((result["status"], result["kind"]), ("invalid", "over_item_budget"),
                         done.stderr)


@unittest.skipUnless(os.path.exists(tree.MANIFEST), "the guest tree is not built: gi/setup.py")
class CountTest(unittest.TestCase):
    def test_the_same_solver_counts_the_same_twice(self):
        problems = [GIVEN, task.generate_problem(150, 7)]
        first, second = (emulator.run(incumbent(), problems, cap=CAP, timeout_s=TIMEOUT_S)
                         for _ in range(2))
        self.assertIsNone(first.kind, first.message)
        self.assertEqual((first.environment_instructions, first.import_instructions, first.counts),
                         (second.environment_instructions, second.import_instructions,
                          second.counts))
        self.assertEqual(first.answers, second.answers)

    def test_the_incumbent_scores_one_on_part_of_the_sample_in_the_same_bytes(self):
        runs = [local(self, "--limit", "2") for _ in range(2)]
        result, data, done = runs[0]
        self.assertEqual((result["status"], result["kind"]), ("valid", None), done.stderr)
        self.assertEqual(result["instruction_ratio"], 1.0)
        self.assertEqual([entry["score"] for entry in result["items"]], [1.0, 1.0])
        self.assertEqual(data, runs[1][1])

    def test_a_better_pruned_matcher_scores_clearly_below_one(self):
        result, _, done = local(self, "--tester", REFINED, "--only", "3,4")
        self.assertEqual(result["status"], "valid", done.stderr)
        self.assertLess(result["instruction_ratio"], 0.5)
        self.assertEqual([entry["index"] for entry in result["items"]], [3, 4])
        self.assertEqual(plugin.PROBLEM.SCORE_NAME, "instruction_ratio")


@unittest.skipUnless(os.path.exists(tree.MANIFEST), "the guest tree is not built: gi/setup.py")
class ReferenceTest(unittest.TestCase):
    def test_the_reference_measures_the_sample_s_refs(self):
        """gi/reference/ is the solver the refs were measured with: its
        counts give sample/items.jsonl again, line for line."""
        with open(plugin.PROBLEM.SAMPLE, encoding="utf-8") as f:
            items = [json.loads(line) for line in f]
        folder = os.path.dirname(comparison.REFERENCE_SOLVER)
        self.assertEqual(plugin.PROBLEM.measure(sets.files_in(folder), items), items)

    def test_a_comparison_accepts_the_better_matcher_on_the_metric(self):
        """gi/compare.py, the refined matcher against the reference as the
        incumbent: accepted, the incumbent scoring exactly 1, every figure
        the metric's arithmetic on the state file's counts; taken up again,
        its replayed comparisons count the same."""
        state = os.path.join(gi_support.tmpdir(self), "state.json")
        command = [sys.executable, COMPARE, "--challenger", REFINED,
                   "--incumbent", comparison.REFERENCE_SOLVER, "--state", state,
                   "--seed", "emulated-test", "--alpha", "0.2", "--beta", "0.2"]
        runs = [subprocess.run(command, capture_output=True, text=True, timeout=6 * TIMEOUT_S,
                               cwd=gi_support.PROJECT) for _ in range(2)]
        for done in runs:
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr[-3000:])
        lines = dict(line.split(": ", 1) for line in runs[0].stdout.splitlines()
                     if ": " in line)
        self.assertEqual((lines["decision"], lines["set_size"],
                          lines["instruction_ratio.incumbent"]), ("accept", "128", "1.000000"))
        with open(state, encoding="utf-8") as f:
            entries = json.load(f)["comparisons"]
        self.assertEqual(len(entries), int(lines["comparisons"]))
        n = comparison.SET_SIZE
        scores = [[(n * e[k][0] + e[k][1]) / (n * e[3][0] + e[3][1]) for k in (0, 1)]
                  for e in entries]
        self.assertEqual([e[1] for e in entries], [e[3] for e in entries])
        self.assertTrue(all(c < 0.5 for c, _ in scores), scores)
        self.assertEqual(lines["instruction_ratio.challenger"],
                         "%.6f" % (sum(c for c, _ in scores) / len(scores)))
        self.assertTrue(lines["score_difference"].startswith(
            "%.4f " % (sum(c - i for c, i in scores) / len(scores))), lines["score_difference"])
        self.assertIn("ran again with the same instructions", runs[1].stderr)
        self.assertEqual([line for line in runs[1].stdout.splitlines()
                          if line.startswith(("decision", "comparisons", "instruction_ratio"))],
                         [line for line in runs[0].stdout.splitlines()
                          if line.startswith(("decision", "comparisons", "instruction_ratio"))])


if __name__ == "__main__":
    unittest.main()
