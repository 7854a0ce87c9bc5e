"""A worker's conformance to its problem's HTTP contract, knowing no
problem: what every worker on the template must pass, whatever it solves.

Modules, one job each:
- tables: the rows of a contract's tables (the worker's replies, the
  oracle's, the grader's verdicts, the conformance check's rules), their
  versions, their lookup by cause, and their Markdown;
- http: the HTTP limits of the worker template and the oracle;
- requests: the rules about the requests a worker must refuse, sent over
  raw sockets, with a problem's /solve body and bad fields handed in by
  its subclass.

A problem's contract (group testing's: group_testing/contract.py) fills the
tables; its check (grader/conformance.py) runs the rules. Nothing here runs
at import, and none of it imports a problem.
"""
