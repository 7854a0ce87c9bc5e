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

import cheat
import problem
from arh_grader import Failure, Oracle, WorkerClient, engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETTINGS = os.path.join(ROOT, "autoresearch.toml")
SAMPLE = os.path.join(ROOT, "sample", "items.jsonl")
DIGITS = 6              # decimals kept of every float in the result
CONSOLE_CHARS = engine.CONSOLE_CHARS


def load_settings(path=SETTINGS, *, table="grader"):
    """A table of autoresearch.toml: [grader] unless `table` says another."""
    import tomllib         # here, so that Python 3.10 reaches the version check
    with open(path, "rb") as f:
        return tomllib.load(f)[table]


# ---- group testing, as the engine sees it (arh_grader.engine) ----------------

SCORE = "score"                 # the entry key that progress lines average


def check_instance(item):
    problem.check_instance(item)


def session(item):
    """The oracle session of an instance: its secret, cap and body limit."""
    n = item["n"]
    return {"secret": problem.secret_of(item), "cap": problem.cap(n),
            "max_body": problem.max_body(n)}


def request(item):
    return {"n": item["n"], "priors": item["priors"]}


def judge(item, answer, session):
    """The answer's verdict: Failure `schema` or `wrong`, or None."""
    try:
        problem.check_answer(answer, item["defectives"], item["n"])
    except problem.AnswerError as e:
        return Failure(e.kind, str(e))
    return None


def entry(index, item, session):
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


def summary(entries):
    """The run's figures: the score, the measures of the possible, the
    bytes, the cheat statistics and the families' figures."""
    figures = {"relative_tests": None, "tests": None, "entropy_bound": None,
               "information_floor": None,
               "query_bytes": sum(e["query_bytes"] for e in entries),
               "answer_bytes": sum(e["answer_bytes"] for e in entries),
               "families": {}}
    figures.update(cheat.statistics(entries))
    if not entries:
        return figures
    figures.update(relative_tests=_round(statistics.fmean(e["score"] for e in entries)),
                   tests=_round(statistics.fmean(e["tests"] for e in entries)),
                   entropy_bound=_round(statistics.fmean(e["bound_ratio"] for e in entries)),
                   information_floor=_floor(entries))
    for family in problem.FAMILIES:
        mine = [e for e in entries if e["family"] == family]
        if mine:
            figures["families"][family] = {
                "instances": len(mine),
                "relative_tests": _round(statistics.fmean(e["score"] for e in mine)),
                "entropy_bound": _round(statistics.fmean(e["bound_ratio"] for e in mine)),
                "information_floor": _floor(mine)}
    return figures


def summary_lines(result):
    """`key: value` lines of a result for the console (engine.summary_lines)."""
    if result["status"] != "valid":
        return engine.summary_lines(result, problem=PROBLEM)
    lines = ["status: %s" % result["status"], "kind: none"]
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


def _round(x):
    return round(x, DIGITS)


def _floor(entries):
    """Mean over instances of surprise / baseline: the score no tester beats on
    average, since a deterministic tester saves s bits with probability <= 2**-s."""
    return _round(statistics.fmean(e["surprise"] / e["baseline"] for e in entries))


class _Plugin:
    """This module's functions as the engine's problem object."""

    SCORE = SCORE
    check_query = staticmethod(problem.check_query)
    answer_query = staticmethod(problem.answer_query)
    check_instance = staticmethod(check_instance)
    session = staticmethod(session)
    request = staticmethod(request)
    judge = staticmethod(judge)
    entry = staticmethod(entry)
    summary = staticmethod(summary)

    @staticmethod
    def summary_lines(result):
        return summary_lines(result)[2:]


PROBLEM = _Plugin()


# ---- the engine, bound to group testing --------------------------------------

def load_set(path):
    """Read and check an instance file; Failure `invalid_set` names the line."""
    return engine.load_set(path, problem=PROBLEM)


def summarize(entries, failure=None):
    """The run's result from its item entries and its failure, if any."""
    return engine.summarize(PROBLEM, entries, failure)


def evaluate(items, **options):
    """engine.evaluate for group testing (its options, problem aside)."""
    return engine.evaluate(items, problem=PROBLEM, **options)


def progress_printer(total, **options):
    return engine.progress_printer(total, key=SCORE, **options)


def run(argv, *, evaluate_with):
    """engine.run for group testing, with autoresearch.toml's [grader]."""
    return engine.run(argv, problem=PROBLEM, settings=load_settings(),
                      evaluate_with=evaluate_with)


UsageError, printable, exit_status = engine.UsageError, engine.printable, engine.exit_status


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
