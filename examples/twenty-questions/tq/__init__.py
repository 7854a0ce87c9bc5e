"""Twenty questions: find a hidden animal with yes/no questions and guesses.

Modules, one job each:
- data: the frozen pools and answer matrix, checked against their SHA-256;
- score: the budget, a round's score and the information bound;
- problem: the rules as the grader's oracle applies them;
- sets: the public sets and the drawing of held-out sets;
- direct: a tester run in-process on a set, counted by the rules;
- policy: the policy.json format, its validator and the `policy.py` command;
- walk: the evaluator of a policy graph on the frozen matrix;
- export: a deterministic tester turned into its policy graph.
"""
