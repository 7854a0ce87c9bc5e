"""Graph isomorphism as a problem on the SDK (arh_grader, grader/ at the
repository's root): the task (task.py), the rules and the score
(rules.py), the emulator that counts a solver (emulator.py, with the guest
tree it runs in, tree.py, and its driver, driver.py), the problem the SDK is
handed (plugin.py) and the commands, each a few lines (local.py, grade.py,
measure.py, setup.py)."""
