"""The command line of a problem's conformance check: `--worker URL` (a
worker already running, which sends its tests to this command's oracle:
--oracle-host, --oracle-port, 127.0.0.1:8081 by default) or
`--worker-command CMD` (one started here on a free port, its oracle a free
port too); the report on stdout (run.report). A problem's command (group
testing's: grader/conformance.py) calls `main` with its checker class.

    sys.exit(cli.main(checker=Checker, description="Check a worker ..."))

Exit status 0 when the worker conforms, 1 when a MUST failed, 2 when the
check could not run (a bad option, a worker that never listens, the
oracle's port taken). The worker's output goes to a log whose last
LOG_LINES are shown on stderr in the last two cases.
"""

import argparse
import sys
import tempfile

from .. import workers
from . import run

LOG_LINES = 20          # lines of the worker's log shown after a failure
WORKER_ORACLE_PORT = 8081   # the oracle's port with --worker: the worker's default AR_ORACLE_URL


def main(argv=None, *, checker, description):
    """Parse `argv` (None: the command line's), check the worker with the
    rules of `checker` (a service.ServiceRules subclass) and return the
    exit status; `description` heads the --help text."""
    parser = argparse.ArgumentParser(description=description)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--worker", metavar="URL", help="a running worker, http://HOST:PORT")
    which.add_argument("--worker-command", metavar="CMD", help="a command that starts one")
    parser.add_argument("--oracle-host", default="127.0.0.1",
                        help="where the oracle listens (default 127.0.0.1)")
    parser.add_argument("--oracle-port", type=int, metavar="PORT",
                        help="the oracle's port (default: %d with --worker, a free one "
                             "with --worker-command)" % WORKER_ORACLE_PORT)
    args = parser.parse_args(argv)
    port = args.oracle_port if args.oracle_port is not None else (
        WORKER_ORACLE_PORT if args.worker else 0)
    if not 0 <= port <= 65535:
        parser.error("--oracle-port must be in 0..65535, got %r" % args.oracle_port)
    try:
        if args.worker:
            workers.address(args.worker)
        else:
            workers.split_command(args.worker_command)
    except ValueError as e:
        parser.error(str(e))
    with tempfile.TemporaryFile() as log:
        try:
            results = run.check(checker, url=args.worker, command=args.worker_command,
                                oracle_host=args.oracle_host, oracle_port=port, log=log)
        except (workers.WorkerError, OSError) as e:
            sys.stderr.write("conformance: cannot check: %s\n" % e)
            _show_log(log)
            return 2
        if not run.conforms(results, checks=checker.CHECKS):
            _show_log(log)
            return 1
    return 0


def _show_log(log):
    """The end of the worker's log, on stderr."""
    log.seek(0)
    lines = log.read().decode("utf-8", "replace").splitlines()
    if lines:
        sys.stderr.write("conformance: the worker's output ends:\n%s\n"
                         % "\n".join("    " + line for line in lines[-LOG_LINES:]))
