"""The run engine: grade a set of instances through a worker and a counting
oracle, one instance after another, and make the result. A problem plugs
into it; nothing here knows one.

    with engine.serving(settings=settings) as oracle:
        result = engine.evaluate(items, problem=PROBLEM, oracle=oracle,
                                 worker=WorkerClient(url), settings=settings)

A problem is an instance of problem.Problem, whose docstring says what
the engine calls, when, with what, and what each member returns. The
engine owns the console's verdict: summary_lines prints `status:` and
`kind:` (and a failed run's `instance:` and `message:`) and appends the
problem's own figures' lines, summary_lines(result), for a valid run.

The verdict of an instance is its earliest event: past the cap (before any
answer), then the worker's failure (timeout, no answer, a malformed reply),
then the problem's judgement of the answer; a fault of the oracle itself is
`grader_error`, whatever else happened. The run stops at its first failure.
Every deadline is whole (client.WorkerClient); the run's deadline also ends
the instance it falls in.
"""

import contextlib
import json
import os
import statistics
import sys
import time
import traceback

from .options import UsageError  # noqa: F401  (raised by run, for an --only past the set)
from .oracle import Oracle
from .result import Failure, release, reserve, strict_json, write_json
from .settings import SettingsError

CONSOLE_CHARS = 4000    # characters of a message printed at most
IDLE_MARGIN_S = 5       # seconds an idle session outlives an instance's deadline


# ---- one instance, then the run ---------------------------------------------

def solve_one(index, item, *, problem, oracle, worker, timeout):
    """Run one instance through worker and oracle: (session, Failure or None)."""
    token = oracle.open(problem.session(item))
    answer = failure = None
    try:
        answer = worker.solve(dict(problem.request(item), token=token, deadline=timeout),
                              timeout=timeout)
    except Failure as e:
        failure = e
    session = oracle.close(token)
    failure = verdict(problem, item, answer, failure, session)
    if failure is not None:
        failure.index = index
    return session, failure


def verdict(problem, item, answer, failure, session):
    """An instance's verdict from its closed session, the worker's
    `failure` (or None) and its `answer`, the earliest event winning: a
    fault of the oracle, the cap (before any answer), the worker's failure,
    then the problem's judgement. None when the instance passes."""
    if session.fault is not None:
        return Failure("grader_error", "the oracle failed: %s" % session.fault)
    if session.over_cap:
        return Failure("oracle_cap", "more than the cap of %d tests" % session.cap)
    if failure is not None:
        return failure
    return problem.judge(item, answer, session)


@contextlib.contextmanager
def serving(*, settings, record=False, host="127.0.0.1", port=0):
    """The oracle of a run, started, and stopped when the block ends: it
    forgets a session left idle for longer than an instance may take. The
    one place an oracle is made."""
    oracle = Oracle(host=host, port=port, record=record,
                    idle_timeout=settings.instance_timeout_s + IDLE_MARGIN_S).start()
    try:
        yield oracle
    finally:
        oracle.stop()


def evaluate(items, *, problem, oracle, worker, settings, transcripts=None, progress=None,
             indexes=None):
    """Grade `items` with a started oracle and a worker client within
    `settings`' deadlines; return the result dict. `indexes` are the
    items' places in their set (default 0, 1, ...), which the result, the
    transcripts and the messages use. Never raises for the submission's
    faults."""
    instance_timeout, run_timeout = settings.instance_timeout_s, settings.run_timeout_s
    started = time.monotonic()
    entries = []
    try:
        worker.wait_healthy(timeout=min(settings.worker_start_timeout_s, run_timeout))
        for index, item in zip(range(len(items)) if indexes is None else indexes, items):
            left = run_timeout - (time.monotonic() - started)
            if left <= 0:
                raise Failure("timeout", "the run's deadline of %g s passed" % run_timeout,
                              index)
            session, failure = solve_one(index, item, problem=problem, oracle=oracle,
                                         worker=worker, timeout=min(instance_timeout, left))
            if failure is not None and failure.kind == "timeout" and left < instance_timeout:
                failure.message = "the run's deadline of %g s passed during this instance" \
                    % run_timeout
            if transcripts:
                write_transcript(transcripts, index, session)
            entry = problem.entry(index, item, session)
            entries.append(entry)
            if failure is not None:
                entry["kind"] = failure.kind
                raise failure
            if progress:
                progress(index, entry)
    except Failure as failure:
        return summarize(problem, entries, failure)
    return summarize(problem, entries)


def summarize(problem, entries, failure=None):
    """The run's result from its entries and its failure, if any."""
    result = {"status": "valid" if failure is None else "invalid",
              "kind": None if failure is None else failure.kind,
              "message": None if failure is None else failure.message,
              "index": None if failure is None else failure.index,
              "instances": len(entries), "items": entries}
    result.update(problem.summary([] if failure is not None else entries))
    return result


def write_transcript(directory, index, session):
    """An instance's transcript as DIRECTORY/instance-IIII.jsonl."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "instance-%04d.jsonl" % index), "wb") as f:
        f.writelines(session.transcript)


# ---- the set, the command, the console --------------------------------------

def load_set(path, *, problem):
    """Read and check a set, one JSON object a line; Failure `invalid_set`
    names the file and the line."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise Failure("invalid_set", "cannot read %s: %s" % (path, e)) from None
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise Failure("invalid_set", "%s holds no instances" % path)
    items = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            raise Failure("invalid_set", "%s line %d is blank" % (path, number))
        try:
            item = strict_json(line)
            problem.check_instance(item)
        except ValueError as e:
            raise Failure("invalid_set", "%s line %d: %s" % (path, number, e)) from None
        items.append(item)
    return items


def run(argv, *, problem, evaluate_with, settings=None):
    """Shared by the grading commands: set aside the result's space
    (result.reserve), load the set (problem.load_set(argv.items)), keep the instances chosen
    by argv.limit or argv.only, call `evaluate_with(items, settings,
    indexes)`, `settings` (default: problem.settings(), read here) with
    argv.instance_timeout in it, and write argv.out/result.json into that space; (result,
    path). A fault of the grader's own becomes grader_error; UsageError for
    an --only past the set's end. When the result cannot be written (no
    room for the reservation before the run, or the write failing after
    it), one line on stderr names the path and the system's error, and
    SystemExit(2), grader_error's exit status, ends the command."""
    path = os.path.join(argv.out, "result.json")
    try:
        reserved = reserve(path)
    except OSError as e:
        cannot_write(path, e)
    try:
        try:
            items = problem.load_set(argv.items)
            indexes = list(range(len(items)))
            if argv.limit is not None:
                indexes = indexes[:argv.limit]
            if argv.only is not None:
                past = [k for k in argv.only if k >= len(items)]
                if past:
                    raise UsageError("--only names instance %d, but %s has %d (0..%d)"
                                     % (past[0], argv.items, len(items), len(items) - 1))
                indexes = argv.only
            items = [items[k] for k in indexes]
            if settings is None:
                try:
                    settings = problem.settings()
                except SettingsError as e:
                    raise Failure("grader_error", str(e)) from None
            settings = settings.replace(instance_timeout_s=argv.instance_timeout)
            result = evaluate_with(items, settings, indexes)
        except Failure as failure:
            result = summarize(problem, [], failure)
        except UsageError:
            raise
        except Exception:
            result = summarize(problem, [], Failure("grader_error",
                                                    traceback.format_exc(limit=-3)))
        try:
            write_json(path, result, reserved=reserved)
        except OSError as e:
            cannot_write(path, e)
    finally:
        release(reserved)
    return result, path


def cannot_write(path, error, *, stream=None):
    """The end of a command whose result cannot be written: one line naming
    `path` and the system's `error` on `stream` (stderr), then SystemExit(2)."""
    stream = sys.stderr if stream is None else stream
    command = os.path.splitext(os.path.basename(sys.argv[0] or "grade"))[0]
    stream.write("%s: cannot write %s: %s\n" % (command, path, error.strerror or error))
    stream.flush()
    raise SystemExit(2)


def summary_lines(result, *, problem):
    """`key: value` lines for the console: the verdict (`status:`, `kind:`),
    then the failure's instance and message (printable), or for a valid
    run the problem's own figures (problem.summary_lines)."""
    lines = ["status: %s" % result["status"], "kind: %s" % (result["kind"] or "none")]
    if result["status"] != "valid":
        lines.append("instance: %s" % ("none" if result["index"] is None else result["index"]))
        lines.append("message: %s" % printable(result["message"]).replace("\n", "\n    "))
        return lines
    return lines + problem.summary_lines(result)


# ---- verdicts of whole runs, for a self-check -------------------------------

def run_verdict(result):
    """A result's verdict: its kind, or `valid`, or `suspect` when the problem
    flagged a valid run (its `suspect` figure)."""
    if result["status"] != "valid":
        return result["kind"]
    return "suspect" if result.get("suspect") else "valid"


def check_cases(cases, *, stream=sys.stdout):
    """Run each (name, expected, run) of `cases`, where run() gives (the
    verdict got, a detail), printing one `case:` line each and the
    `selfcheck:` total; 0 when every case got its verdict, else 1. Each
    problem's self-check hands its own cases to this."""
    started = time.monotonic()
    failed = total = 0
    for name, expected, run in cases:
        got, detail = run()
        total += 1
        failed += got != expected
        stream.write("case: %-22s expected: %-16s got: %-16s %s%s\n" % (
            name, expected, got, "ok" if got == expected else "DIFFERS",
            "" if got == expected else "  (%s)" % detail.strip().split("\n")[-1]))
        stream.flush()
    stream.write("selfcheck: %d/%d cases as expected (%.1f s)\n"
                 % (total - failed, total, time.monotonic() - started))
    return 1 if failed else 0


# ---- the console -------------------------------------------------------------

def printable(text, *, limit=CONSOLE_CHARS):
    """`text` safe for any console: characters that are not printable (control
    characters, lone surrogates) escaped, line ends kept, and cut to `limit`
    characters with the number cut said."""
    if len(text) > limit:
        text = "%s ... [%d characters cut] ... %s" % (
            text[:limit // 4], len(text) - limit, text[-(limit - limit // 4):])
    return "".join(c if c.isprintable() or c == "\n" else ascii(c)[1:-1] for c in text)


def exit_status(result):
    """0 for a submission's verdict, 2 for the platform's."""
    return 2 if result["kind"] in ("invalid_set", "grader_error") else 0


def progress_printer(total, *, key, every=10, stream=sys.stderr):
    """A progress callback printing, every `every` instances, the mean of
    the entries' `key` so far to `stream`."""
    started = time.monotonic()
    scores = []

    def progress(index, entry):
        scores.append(entry[key])
        if len(scores) % every == 0 or len(scores) == total:
            stream.write("progress: %d/%d %s so far %.4f (%.1f s)\n"
                         % (len(scores), total, key, statistics.fmean(scores),
                            time.monotonic() - started))
            stream.flush()
    return progress


def dumps(value):
    """A figure as the console shows it: JSON (null, true, 0.5)."""
    return json.dumps(value)
