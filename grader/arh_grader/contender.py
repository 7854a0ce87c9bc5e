"""A tester of a comparison, run in a worker process of its own, never in
the process that counts and decides.

    oracle = Oracle().start()          # its sessions get their rules from PROBLEM
    with Contender("src/tester.py", role="challenger", problem=PROBLEM,
                   oracle=oracle, start_timeout=30) as challenger:
        session, failure = challenger.run(index, item, timeout=10)

A comparison judges two testers, so each must be kept from the other and
from the judge. Each tester gets the problem's harness/worker.py of its
own (problem.WORKER, unless `worker_file` names another), in a fresh
working directory, inside the walls of sandbox.py (it reads
no `private` path, such as the comparison's state file, whose seed draws
the instances). Between its runs a worker is frozen: every process of its
tree is stopped (SIGSTOP, reaper.freeze) and the orphans any worker left
are killed, so the two testers never run at the same time and neither can
act while the other is judged. A run thaws it (SIGCONT), hands it the
instance, and freezes it again. A worker that fails a run (past its
deadline, dropped, a bad reply) is killed with everything it started and
a fresh one starts for the next run. The tests go over HTTP to the oracle
in this process, which counts them exactly as a local run or the platform
does (engine.solve_one), and the verdict is the engine's.

A wall the kernel refuses the worker (sandbox.missing) is kept in the
contender's `walls_missing`, over all its workers: the comparison then
keeps nothing (compare/log.py), since a tester outside a wall could have
read the seed or changed the other's count.

The tester file is read once here and its SHA-256 kept; before each worker
starts, the file must still have it (TesterChanged otherwise): a tester
that rewrites the other's file, or its own, ends the comparison instead of
changing it.
"""

import hashlib
import os
import shutil
import tempfile

from . import engine, local_run, reaper
from .client import WorkerClient


class TesterChanged(Exception):
    """A tester file no longer holds what it held when the comparison began."""


def sha256_of(path):
    """The SHA-256 of the file at `path`, in hex."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Contender:
    """One tester file in the comparison's role `role` ("challenger",
    "incumbent"), run one instance at a time by `run`."""

    def __init__(self, tester, *, role, problem, oracle, start_timeout, worker_file=None,
                 quiet=False, private=()):
        self.tester, self.role, self.problem = os.path.abspath(tester), role, problem
        self.worker_file, self.oracle = worker_file or problem.WORKER, oracle
        self.start_timeout, self.quiet, self.private = start_timeout, quiet, tuple(private)
        self.digest = sha256_of(self.tester)
        self.proc = self.home = self.worker = None
        self.walls_missing = []     # the walls any of its workers went without

    def check_file(self):
        """TesterChanged unless the tester file still holds what it held."""
        try:
            now = sha256_of(self.tester)
        except OSError as e:
            raise TesterChanged("the %s %s cannot be read any more: %s"
                                % (self.role, self.tester, e.strerror)) from None
        if now != self.digest:
            raise TesterChanged("the %s %s changed during the comparison (SHA-256 %s, now "
                                "%s): a tester rewrote it, or it was edited"
                                % (self.role, self.tester, self.digest[:12], now[:12]))

    def start(self):
        """A fresh worker for the tester: TesterChanged if its file changed,
        Failure `no_answer` if it does not start."""
        self.check_file()
        self.home = tempfile.mkdtemp(prefix="contender-")    # its cwd, TMPDIR and HOME
        self.proc, url = local_run.start_worker(
            oracle_url=self.oracle.url, tester=self.tester, timeout=self.start_timeout,
            worker=self.worker_file, quiet=self.quiet, cwd=self.home, private=self.private,
            readable=self.problem.WORKER_READS)
        self.walls_missing += [wall for wall in self.proc.walls_missing
                               if wall not in self.walls_missing]
        self.worker = WorkerClient(url)
        self.worker.wait_healthy(timeout=self.start_timeout)

    def run(self, index, item, *, timeout):
        """Run the tester on `item`: (the closed session, Failure or None),
        as engine.solve_one gives them. A worker that does not start is
        Failure `no_answer`; past `timeout` seconds, `timeout`. The worker
        is frozen afterwards, or killed when the run failed."""
        try:
            if self.proc is None:
                self.start()
            else:
                reaper.thaw(self.proc)
        except engine.Failure as failure:
            self.stop()
            failure.index = index
            token = self.oracle.open(self.problem.session(item))
            return self.oracle.close(token), failure
        session, failure = engine.solve_one(index, item, problem=self.problem,
                                            oracle=self.oracle, worker=self.worker,
                                            timeout=timeout)
        if failure is not None or not reaper.freeze(self.proc):
            self.stop()
        self.check_file()
        return session, failure

    def check_frozen(self, index):
        """At the end of the other contender's turn: None while this worker
        is still frozen (or has none), else Failure `escape` at comparison
        `index`, this contender's own failure, after which the worker is
        killed. Frozen by its cgroup it always is; frozen by SIGSTOP
        (reaper.py, where no cgroup v2 can be made), a process of its tree
        may have continued itself (a timer that sends it SIGCONT) and run
        during the other's turn: the comparison then ends with this
        failure, charged to this contender and never to the other."""
        if self.proc is None or reaper.stopped(self.proc):
            return None
        self.stop()
        return engine.Failure("escape", "the %s's worker ran while it was frozen and the "
                              "other contender played (a process of its tree continued "
                              "itself)" % self.role, index)

    def stop(self):
        """Kill the worker with everything it started, and remove its folder."""
        if self.proc is not None:
            local_run.stop_worker(self.proc)
            self.proc = None
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
