"""A test fixture: binary splitting, exactly as tests/testers/splitting.py,
that also tries to make the other tester of a comparison lose, or the
judge decide for it, by every route open to a process on this machine.

Its attempts, each of which must fail: wrap the incumbent's `test` found in
the frames above find, patch the judge's modules in sys.modules, cancel an
in-process deadline, leave a daemon that kills every other worker it sees,
rewrite the incumbent's file and append a forged `keep` row to the log
(both named in the judge's command line), and signal the judge. Kept apart,
it makes exactly binary splitting's tests and ties it on every instance.
"""

import importlib.util
import os
import signal
import sys


def _splitting():
    """binary splitting's find, from tests/testers/splitting.py beside this
    file (the folder its worker may read): the frozen copy, never a new one."""
    spec = importlib.util.spec_from_file_location(
        "splitting_beside", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "splitting.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.find


SPLITTING = _splitting()

DAEMON_SECONDS = 20    # how long the daemon hunts, at most
FORGED = "-\taccept\t17\t-1.0000 [-1.0, -1.0]\t0.5\tkeep\tforged\n"
WORSE = "def find(n, priors, test):\n    for _ in range(n):\n        test([0])\n" \
        "    return []\n"


def _attempt(action):
    try:
        action()
    except Exception:
        pass


def _frames():
    frame = sys._getframe(2)
    while frame is not None:
        for name in ("finds", "contenders"):
            other = frame.f_locals.get(name)
            if isinstance(other, dict) and "incumbent" in other:
                inner = other["incumbent"]
                other["incumbent"] = lambda n, priors, test: inner(
                    n, priors, lambda pool: (test(pool), test(pool))[0])
        frame = frame.f_back


def _modules():
    for name in ("compare_state", "sprt"):
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "outcome"):
            module.outcome = lambda challenger, incumbent: "win"


def _judge_words():
    with open("/proc/%d/cmdline" % os.getppid(), "rb") as f:
        return f.read().decode("utf-8", "replace").split("\0")


def _rewrite_incumbent():
    """The judge's --incumbent and --log, from its command line, or where a
    tester guesses them (a test names them in GT_GUESSED_INCUMBENT and
    GT_GUESSED_LOG, as a manual's example paths would)."""
    targets = {"--incumbent": os.environ.get("GT_GUESSED_INCUMBENT"),
               "--log": os.environ.get("GT_GUESSED_LOG")}
    try:
        words = _judge_words()
        targets.update({w: words[k + 1] for k, w in enumerate(words[:-1]) if w in targets})
    except OSError:
        pass
    if targets["--incumbent"]:
        with open(targets["--incumbent"], "w") as f:
            f.write(WORSE)
    if targets["--log"]:
        with open(targets["--log"], "a") as f:
            f.write(FORGED)


def _daemon():
    """A setsid daemon that, for DAEMON_SECONDS, kills every other worker of
    the judge that started this one (the incumbent's, when it comes)."""
    judge, worker = os.getppid(), os.getpid()
    if os.fork() != 0:
        return
    try:
        os.setsid()
        if os.fork() == 0:
            _kill_workers(judge, worker)
    finally:
        os._exit(0)         # a child never returns into find


def _kill_workers(judge, worker):
    import time
    stop = time.monotonic() + DAEMON_SECONDS
    while time.monotonic() < stop:
        for name in os.listdir("/proc"):
            try:
                with open("/proc/%s/stat" % name, "rb") as f:
                    parent = int(f.read().rpartition(b")")[2].split()[1])
                if parent == judge and int(name) != worker:
                    os.kill(int(name), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass
        time.sleep(0.01)


ATTEMPTS = (_frames, _modules, lambda: signal.alarm(0), _rewrite_incumbent,
            lambda: os.kill(os.getppid(), signal.SIGSTOP) or os.kill(os.getppid(),
                                                                     signal.SIGCONT))


def find(n, priors, test):
    for action in ATTEMPTS:
        _attempt(action)
    if not getattr(find, "forked", False):
        find.forked = True
        _attempt(_daemon)
    return SPLITTING(n, priors, test)
