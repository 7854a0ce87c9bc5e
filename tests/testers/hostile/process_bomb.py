"""A hostile tester: forks children that sleep, up to 2000 (bounded). Behind
the worker's process wall (pids_limit 256) a fork fails, and the tester
raises that failure: the submission's `no_answer`, whose message says how
many children it got."""

import os
import time

FORKS = 2000        # children forked at most
CHILD_SLEEP_S = 30  # seconds each child sleeps before it ends


def find(n, priors, test):
    children = 0
    try:
        while children < FORKS:
            if os.fork() == 0:
                time.sleep(CHILD_SLEEP_S)
                os._exit(0)
            children += 1
    except OSError as e:
        raise RuntimeError("process_bomb: fork failed after %d children: %s" % (children, e)) from None
    raise RuntimeError("process_bomb: forked %d children and was not stopped" % children)
