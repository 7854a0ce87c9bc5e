"""A hostile tester: opens files until it is refused, up to 100000
(bounded). Behind the worker's file wall (nofile 1024) an open fails, and
the tester raises that failure: the submission's `no_answer`, whose message
says how many it held."""

FILES = 100000      # files opened at most


def find(n, priors, test):
    held = []
    try:
        while len(held) < FILES:
            held.append(open("/dev/null", "rb"))
    except OSError as e:
        count = len(held)
        for f in held:
            f.close()
        raise RuntimeError("files_bomb: open failed after %d files: %s" % (count, e)) from None
    raise RuntimeError("files_bomb: held %d files and was not stopped" % len(held))
