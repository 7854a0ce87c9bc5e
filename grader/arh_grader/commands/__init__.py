"""The SDK's commands, each a function of a problem: a problem's script
(grader/grade.py, tq/local.py...) is an entry point that hands its one
Problem to one of these and exits with what it returns.

    from arh_grader.commands import local
    sys.exit(local.main(PROBLEM, doc=__doc__))

- grade: the grader as its container runs it, against a worker's URL;
- local: a whole evaluation on this machine, worker and oracle on loopback;
- report: a result.json read instance by instance, and its picture;
- mmi: a result's noise floor beside the problem's MMI;
- selfcheck: the grader proved on the problem's cases, each a tester file
  with the verdict it must get;
- compare: two testers compared until a sequential test decides.

Each `main(problem, argv=None, *, doc=None)` parses `argv` (sys.argv's by
default), `doc` giving its help's first line, and returns the exit status.
No command imports another: what two share is a library module of the SDK.
"""
