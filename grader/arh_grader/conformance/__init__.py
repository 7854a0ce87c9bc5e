"""A worker's conformance to its problem's HTTP contract, knowing no
problem: what every worker on the template must pass, whatever it solves.

Modules, one job each:
- tables: the rows of a contract's tables (the worker's replies, the
  oracle's, the grader's verdicts, the conformance check's rules), their
  versions, their lookup by cause, and their Markdown;
- http: the HTTP limits of the worker template and the oracle;
- requests: the rules about the requests a worker must refuse, sent over
  raw sockets, with a problem's /solve body and bad fields handed in by
  its subclass;
- service: the rules about how a worker serves (its /health, port 0, its
  oracle link, a late answer, a /solve its client left), on requests';
- run: a problem's rules run in order against one worker, and the report;
- cli: the command line, which a problem's command calls with its rules.

A problem's contract (group testing's: group_testing/contract.py) fills the
tables; its checker (group_testing/conformance.py) subclasses
service.ServiceRules with its own part, and its command
(grader/conformance.py) hands that to cli.main. Nothing here runs at
import, and none of it imports a problem.
"""
