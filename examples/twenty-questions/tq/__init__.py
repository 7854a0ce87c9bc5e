"""Twenty questions: find a hidden animal with yes/no questions and guesses.

Modules, one job each:
- data: the frozen pools and answer matrix, checked against their SHA-256;
- score: the budget, a round's score, the information bound, saved bits;
- sets: the public sets, the drawing of held-out sets, a set's checks;
  draw, its command;
- problem: the rules as the grader's oracle applies them;
- direct: a tester run in-process on a set, counted by the rules;
- policy_file: the policy.json format and its validator;
- policy: the `policy.py` command that validates, evaluates and exports one;
- evaluator: a policy graph walked on the frozen matrix;
- exporter: a deterministic tester turned into its policy graph;
- plugin: the problem as the template's run engine and report see it;
- comparison: a comparison's entries, verdict, summary and results row,
  for the template's state file and log (arh_grader/compare/state.py,
  arh_grader/compare/log.py);
- local, selfcheck, compare, report, grade: the commands, each the
  template's tool (arh_grader, arh_grader.compare) with this problem's parts;
- sdk_path: what those commands import first when run as scripts, which
  lets them import the SDK (its grader/) and this project.

Nothing here imports group testing (tests/end_to_end/test_seam_imports.py at the root checks
it); the validator and the evaluator run without the SDK.
"""
