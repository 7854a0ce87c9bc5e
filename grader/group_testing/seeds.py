"""Group testing's seeds for the problem-free tools it runs: each names
the random draws of one command, so its figures come out the same.
"""

SPRT = "group-testing-sprt"     # grader/sprt.py --characteristics: the simulated runs
MMI = "group-testing-mmi"       # grader/mmi.py: the bootstrap's resamples
