"""The grader: check the set, serve the oracle, ask the worker to solve each
instance, check every answer, write result.json.

    python3 grader/grade.py --items sample/items.jsonl --out /result \\
        --worker http://worker:8080 --oracle-port 8081

The run stops at the first failure, which names its kind (arh_grader.KINDS),
the instance and what went wrong. A result is written in every case. Exit
status: 0 when a result with the submission's verdict was written (valid or
not), 2 when the set or the grader failed (invalid_set, grader_error).
"""

import argparse
import json
import os
import statistics
import sys
import time
import traceback

import cheat
import problem
from arh_grader import Failure, Oracle, WorkerClient, write_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETTINGS = os.path.join(ROOT, "autoresearch.toml")
SAMPLE = os.path.join(ROOT, "sample", "items.jsonl")
DIGITS = 6              # decimals kept of every float in the result
CONSOLE_CHARS = 4000    # characters of a message printed at most


def load_settings(path=SETTINGS, *, table="grader"):
    """A table of autoresearch.toml: [grader] unless `table` says another."""
    import tomllib         # here, so that Python 3.10 reaches the version check
    with open(path, "rb") as f:
        return tomllib.load(f)[table]


def load_set(path):
    """Read and check an instance file; Failure `invalid_set` names the line."""
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
            item = json.loads(line, parse_constant=_reject)
            problem.check_instance(item)
        except (ValueError, problem.SetError) as e:
            raise Failure("invalid_set", "%s line %d: %s" % (path, number, e)) from None
        items.append(item)
    return items


def _reject(name):
    raise ValueError("%s is not JSON" % name)


def _round(x):
    return round(x, DIGITS)


def solve_one(index, item, *, oracle, worker, timeout):
    """Run one instance through worker and oracle: (session, failure or None)."""
    n = item["n"]
    token = oracle.open(problem.secret_of(item), cap=problem.cap(n),
                        max_body=problem.max_body(n))
    answer = failure = None
    try:
        answer = worker.solve({"token": token, "n": n, "priors": item["priors"],
                               "deadline": timeout}, timeout=timeout)
    except Failure as e:
        failure = e
    session = oracle.close(token)
    if session.fault is not None:
        failure = Failure("grader_error", "the oracle failed: %s" % session.fault)
    else:
        failure = judge(item, answer, failure, over_cap=session.over_cap, cap=session.cap)
    if failure is not None:
        failure.index = index
    return session, failure


def judge(item, answer, failure, *, over_cap, cap):
    """An instance's verdict, the earliest event winning: over the cap (before
    any answer), then the worker's `failure`, then the answer's check. None
    when the instance passes."""
    if over_cap:
        return Failure("oracle_cap", "more than the cap of %d tests (2n + 64)" % cap)
    if failure is None:
        try:
            problem.check_answer(answer, item["defectives"], item["n"])
        except problem.AnswerError as e:
            failure = Failure(e.kind, str(e))
    return failure


def item_entry(index, item, session):
    """One instance's entry in result.json."""
    bound = problem.entropy_bound(item["priors"])
    return {
        "index": index, "family": item["family"], "n": item["n"],
        "tests": session.tests, "baseline": item["baseline"],
        "score": _round(session.tests / item["baseline"]),
        "invalid_tests": session.invalid,
        "query_bytes": session.query_bytes, "answer_bytes": session.answer_bytes,
        "bound": _round(bound), "bound_ratio": _round(bound / item["baseline"]),
        "surprise": _round(problem.surprise(item["priors"], item["defectives"])),
        "count_surprise": _round(problem.count_surprise(item["priors"], item["defectives"])),
        "defective_count": len(item["defectives"]),
        "transcript": session.digest,
    }


def summarize(entries, failure=None):
    """The run's result from its item entries and its failure, if any."""
    result = {"status": "valid" if failure is None else "invalid",
              "kind": None if failure is None else failure.kind,
              "message": None if failure is None else failure.message,
              "index": None if failure is None else failure.index,
              "instances": len(entries), "items": entries,
              "relative_tests": None, "tests": None, "entropy_bound": None,
              "information_floor": None,
              "query_bytes": sum(e["query_bytes"] for e in entries),
              "answer_bytes": sum(e["answer_bytes"] for e in entries),
              "families": {}}
    result.update(cheat.statistics([]))
    if failure is not None or not entries:
        return result
    result.update(relative_tests=_round(statistics.fmean(e["score"] for e in entries)),
                  tests=_round(statistics.fmean(e["tests"] for e in entries)),
                  entropy_bound=_round(statistics.fmean(e["bound_ratio"] for e in entries)),
                  information_floor=_floor(entries))
    result.update(cheat.statistics(entries))
    for family in problem.FAMILIES:
        mine = [e for e in entries if e["family"] == family]
        if mine:
            result["families"][family] = {
                "instances": len(mine),
                "relative_tests": _round(statistics.fmean(e["score"] for e in mine)),
                "entropy_bound": _round(statistics.fmean(e["bound_ratio"] for e in mine)),
                "information_floor": _floor(mine)}
    return result


def _floor(entries):
    """Mean over instances of surprise / baseline: the score no tester beats on
    average, since a deterministic tester saves s bits with probability <= 2**-s."""
    return _round(statistics.fmean(e["surprise"] / e["baseline"] for e in entries))


def evaluate(items, *, oracle, worker, instance_timeout, run_timeout,
             start_timeout, transcripts=None, progress=None, indexes=None):
    """Grade `items` with a started oracle and a worker client; return the
    result dict. `indexes` are the items' places in their set (default 0,
    1, ...), which the result, the transcripts and the messages use. Never
    raises for the submission's faults."""
    started = time.monotonic()
    entries = []
    try:
        worker.wait_healthy(timeout=min(start_timeout, run_timeout))
        for index, item in zip(range(len(items)) if indexes is None else indexes, items):
            left = run_timeout - (time.monotonic() - started)
            if left <= 0:
                raise Failure("timeout", "the run's deadline of %g s passed" % run_timeout,
                              index)
            session, failure = solve_one(index, item, oracle=oracle, worker=worker,
                                         timeout=min(instance_timeout, left))
            if failure is not None and failure.kind == "timeout" and left < instance_timeout:
                failure.message = "the run's deadline of %g s passed during this instance" \
                    % run_timeout
            if transcripts:
                _write_transcript(transcripts, index, session)
            entry = item_entry(index, item, session)
            if failure is not None:
                entry["kind"] = failure.kind
                entries.append(entry)
                raise failure
            entries.append(entry)
            if progress:
                progress(index, entry)
    except Failure as failure:
        return summarize(entries, failure)
    return summarize(entries)


def _write_transcript(directory, index, session):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "instance-%04d.jsonl" % index), "wb") as f:
        f.writelines(session.transcript)


def summary_lines(result):
    """`key: value` lines for the console."""
    lines = ["status: %s" % result["status"], "kind: %s" % (result["kind"] or "none")]
    if result["status"] != "valid":
        lines.append("instance: %s" % ("none" if result["index"] is None else result["index"]))
        lines.append("message: %s" % printable(result["message"]).replace("\n", "\n    "))
        return lines
    for key in ("relative_tests", "information_floor", "entropy_bound", "tests",
                "instances", "saved_bits", "weighted_saved_bits", "max_saved_bits",
                "cheat_bits", "suspect"):
        lines.append("%s: %s" % (key, json.dumps(result[key])))
    for family, row in result["families"].items():
        for key in ("relative_tests", "information_floor", "entropy_bound"):
            lines.append("%s.%s: %s" % (key, family, row[key]))
    if result["suspect"]:
        lines.append("warning: the tester saved more bits below the information its "
                     "instances hold than an honest tester does with probability 2**-%.1f"
                     % result["cheat_bits"])
    return lines


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


def progress_printer(total, *, every=10, stream=sys.stderr):
    """A progress callback printing every `every` instances to `stream`."""
    started = time.monotonic()
    scores = []

    def progress(index, entry):
        scores.append(entry["score"])
        if len(scores) % every == 0 or len(scores) == total:
            stream.write("progress: %d/%d relative_tests so far %.4f (%.1f s)\n"
                         % (len(scores), total, statistics.fmean(scores),
                            time.monotonic() - started))
            stream.flush()
    return progress


class UsageError(ValueError):
    """A command line that does not fit the set (an --only past its end)."""


def run(argv, *, evaluate_with):
    """Shared by grade.py and local.py: load settings and set, call
    `evaluate_with(items, settings, indexes)` on the chosen instances and
    write the result; returns (result, path). Any fault of the grader's own
    becomes grader_error; UsageError for an --only past the set's end."""
    try:
        settings = load_settings()
        items = load_set(argv.items)
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
        if argv.instance_timeout is not None:
            settings["instance_timeout_s"] = argv.instance_timeout
        result = evaluate_with(items, settings, indexes)
    except Failure as failure:
        result = summarize([], failure)
    except UsageError:
        raise
    except Exception:
        result = summarize([], Failure("grader_error", traceback.format_exc(limit=-3)))
    path = os.path.join(argv.out, "result.json")
    write_json(path, result)
    return result, path


def positive(kind):
    """An argparse type: a number of `kind` (int or float) above 0."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise argparse.ArgumentTypeError("must be a number above 0, got %r" % text)
        return value
    return parse


def instance_list(text):
    """An argparse type: "7" or "3,0,12" as a sorted list of distinct
    instance indexes."""
    try:
        indexes = sorted({int(part) for part in text.split(",")})
    except ValueError:
        indexes = [-1]
    if indexes[0] < 0:
        raise argparse.ArgumentTypeError("must be instance indexes 0, 1, ... separated by "
                                         "commas, got %r" % text)
    return indexes


def add_common_options(parser):
    parser.add_argument("--items", default=SAMPLE, help="instance set (JSON Lines)")
    parser.add_argument("--instance-timeout", type=positive(float), metavar="SECONDS",
                        help="per-instance deadline (default: autoresearch.toml)")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--limit", type=positive(int), metavar="N", help="grade the first N only")
    chosen.add_argument("--only", type=instance_list, metavar="K[,K...]",
                        help="grade these instances only (0 is the first), keeping their "
                             "indexes in the result")
    parser.add_argument("--transcripts", metavar="DIR",
                        help="write each instance's queries and answers here")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_options(parser)
    parser.add_argument("--out", default="/result", help="folder for result.json")
    parser.add_argument("--worker", default="http://worker:8080", help="worker URL")
    parser.add_argument("--oracle-host", default="0.0.0.0")
    parser.add_argument("--oracle-port", type=int, default=8081)
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(errors="backslashreplace")   # a console of any encoding

    def evaluate_with(items, settings, indexes):
        oracle = Oracle(check=problem.check_query, answer=problem.answer_query,
                        host=args.oracle_host, port=args.oracle_port,
                        record=bool(args.transcripts),
                        idle_timeout=settings["instance_timeout_s"] + 5)
        oracle.start()
        try:
            return evaluate(items, oracle=oracle, worker=WorkerClient(args.worker),
                            instance_timeout=settings["instance_timeout_s"],
                            run_timeout=settings["run_timeout_s"],
                            start_timeout=settings["worker_start_timeout_s"],
                            transcripts=args.transcripts,
                            progress=progress_printer(len(items)), indexes=indexes)
        finally:
            oracle.stop()

    try:
        result, path = run(args, evaluate_with=evaluate_with)
    except UsageError as e:
        parser.error(str(e))
    print("\n".join(summary_lines(result)))
    print("result: %s" % path)
    return exit_status(result)


if __name__ == "__main__":
    sys.exit(main())
