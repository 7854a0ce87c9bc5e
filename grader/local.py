"""Run a whole evaluation on this machine, without Docker: the worker and
the grader as two processes on loopback, as the platform runs them.

    python3 grader/local.py                      # the public sample
    python3 grader/local.py --limit 5 --instance-timeout 30
    python3 grader/local.py --only 7             # instance 7 alone, as index 7
    python3 grader/local.py --tester grader/group_testing/calibration.py --items set.jsonl
    python3 grader/local.py --repeat 2 --transcripts /tmp/t   # deterministic?

Progress goes to stderr, the summary to stdout as `key: value` lines, the
result to result/result.json. Exit status: 0 for a valid run, 1 for an
invalid one (the tester's fault: its kind and instance are printed), 2 when
the set or the grader failed. The worker runs on core 0 and this process on
core 1 where the machine has two; the worker and anything it started are
killed when the run ends, however it ends.

With --repeat N the evaluation runs N times, each with a fresh worker in a
fresh temporary working directory (its TMPDIR too), and compares each
instance's tests, invalid tests and transcript. The last line says
"deterministic: N runs, identical counts and transcripts" or names the first
instance that differs ("nondeterministic: instance I (tests differ between
runs 1 and K: 82 and 81)", exit status 1); with --transcripts DIR as well,
run K's transcripts go to DIR/run-K to compare.

One run at a time writes to an output folder: a second local.py on the same
--out refuses while the first runs (exit status 2). The worker exits within
a second of this process's death, SIGKILL included. Each worker runs with a
fresh HOME as well, and whatever it started is killed with it, daemons in
sessions of their own included (arh_grader/reaper.py).

Files outside src/ that differ from the committed ones after the run, or
that changed during it (arh_grader/integrity.py), are named on a line
"tampered: PATH, PATH..." and a warning before the summary, and
result.json gets "tampered": [PATH, ...]; a run that changed nothing has
no such key.

The worker runs inside walls (arh_grader/sandbox.py: Landlock, a seccomp
filter, a PID namespace with no capability). Where the kernel refuses one,
the run goes on without it and says so: a line "walls_missing: landlock,
pid namespace" before the summary, and result.json gets "walls_missing":
["landlock", "pid namespace"]; a run with every wall has neither. A
--worker-url worker, the user's own program started elsewhere, goes
without every wall; a --worker-command one gets the PID namespace alone
(Landlock and the seccomp filter would need to know what it reads and
calls): its result names "landlock" and "seccomp".

The command is the SDK's (arh_grader/commands/local.py), handed group
testing (group_testing/plugin.py, PROBLEM).
"""

import sys

from arh_grader.commands import local
from group_testing.plugin import PROBLEM


def main(argv=None):
    return local.main(PROBLEM, argv, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
