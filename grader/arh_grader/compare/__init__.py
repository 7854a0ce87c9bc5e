"""A comparison of two testers, knowing no problem: the sequential tests
that decide whether a challenger beats the incumbent, and what a run keeps
and writes, and the rules a problem gives it. The SDK's compare command
(arh_grader/commands/compare.py) runs a comparison of any problem with
these and the problem's rules; a problem's compare script (grader/compare.py,
twenty questions' tq/compare.py) hands it the problem.

Modules, one job each:
- betting: the default test, on the mean score difference, by betting
  (e-processes), and its confidence sequence;
- sprt: the sign test, Wald's sequential probability ratio test on wins,
  losses and draws;
- binomial: the exact binomial test and the fixed sample it needs;
- sprt_exact: the sign test's operating characteristics, exact and
  simulated (the caller gives the simulation's seed);
- cost: after a near-zero reject of the mean test, what a smaller delta
  would cost (the summary's `cost_to_decide` lines);
- intervals: the normal interval on a mean score difference;
- settings: which test a run decides by and its settings, as data and as
  command-line options;
- state: the state file, its lock, and the checks when it is taken up;
- log: the decision's summary lines and the results file's rows;
- total: the total gain against a fixed reference and what is left to win;
- rules: what a problem gives a comparison (Rules, which it subclasses);
- sprt_cli: the command line of the sign test's figures (grader/sprt.py).

Nothing here runs at import, and none of it imports a problem.
"""
