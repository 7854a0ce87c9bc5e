"""Group testing, the template's first problem: find the defective items
of an instance with the fewest pooled tests.

Modules, one job each:
- problem: the oracle's rules, the answer check, the baseline's count, the
  instance check and the information measures;
- calibration: binary splitting and the grouped tester, as tester files;
- instances: the drawing of instance sets and a set's statistics;
- cheat: the statistics that flag a run that saved too many bits;
- comparison: its part of a comparison (arh_grader.compare): the cheat
  watch, each instance's cap and floor, an entry's baseline and cap;
- seeds: the seeds of the problem-free tools it runs;
- contract: its HTTP contract's tables and limits, on the SDK's
  (arh_grader.conformance);
- conformance: its part of the conformance check: the known instance, a
  /solve body, its fields' bad values;
- plugin: the problem as the run engine (arh_grader.engine) sees it.

Only group testing's entry points and tools (grader/*.py) import this
package; the SDK (arh_grader) knows nothing of it.
"""
