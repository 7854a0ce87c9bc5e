"""Run the test modules in parallel processes, the longest first.

    python3 tests/run.py              # every module (the full suite)
    python3 tests/run.py --quick      # the quick tier: the modules not in SLOW
    python3 tests/run.py test_fit     # the modules named

Each module runs as `python3 -m unittest discover -s tests -p <module>.py`
in a process of its own, JOBS at a time. What a module prints is shown as
it ends: its own lines and, for a failing module, its failures in full;
then one summary as unittest's, and the status is 1 when a test failed or
erred, or a module ended without a summary. Standard library only.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
JOBS = 2                  # processes at a time: the CI machine's cores
MODULE_TIMEOUT = 1800     # seconds a module may take before it is stopped: a hang, never load
SLOW = (                  # the modules left out of --quick, longest first (seconds, roughly)
    "test_fit", "test_doc_commands", "test_betting", "test_examples", "test_compare",
    "test_conformance", "test_pipeline", "test_hostile_client", "test_faults", "test_docs",
    "test_cheat_flag", "test_tamper", "test_contract", "test_hostile_tester", "test_cheat",
    "test_hostile",
)
SUMMARY = re.compile(r"\n-{70}\nRan (\d+) tests? in [0-9.]+s\n\n(OK|FAILED)(?: \((.*)\))?\n*\Z")


def modules():
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(HERE, "test_*.py")))


def ordered(names):
    """Longest first: SLOW's order, then the rest by name."""
    rank = {name: i for i, name in enumerate(SLOW)}
    return sorted(names, key=lambda name: (rank.get(name, len(SLOW)), name))


def run_module(name):
    """(seconds, status, output) of one module in a process of its own."""
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "unittest", "discover", "-s", "tests",
                             "-p", name + ".py"], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=MODULE_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        output, _ = proc.communicate()
        output += b"\nrun.py: %s stopped after %d s\n" % (name.encode(), MODULE_TIMEOUT)
    return time.monotonic() - started, proc.returncode, output.decode("utf-8", "replace")


def counts(output):
    """(tests, {kind: count}, passed) from a module's unittest summary, or
    None when it printed none."""
    found = SUMMARY.search(output)
    if not found:
        return None
    kinds = {}
    for part in (found.group(3) or "").split(", "):
        if "=" in part:
            kind, value = part.split("=")
            kinds[kind] = int(value)
    return int(found.group(1)), kinds, found.group(2) == "OK"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="modules to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="only the modules not in SLOW")
    parser.add_argument("--jobs", type=int, default=JOBS, help="processes at a time")
    parser.add_argument("--times", action="store_true", help="print each module's seconds")
    args = parser.parse_args(argv)
    names = [n[:-3] if n.endswith(".py") else n for n in args.names] or modules()
    unknown = sorted(set(names) - set(modules()))
    if unknown:
        parser.error("no such module: %s" % ", ".join(unknown))
    if args.quick:
        names = [n for n in names if n not in SLOW]
    queue = ordered(names)
    lock = threading.Lock()
    done = []

    def work():
        while True:
            with lock:
                if not queue:
                    return
                name = queue.pop(0)
            seconds, status, output = run_module(name)
            found = counts(output)
            with lock:
                done.append((name, seconds, status, found))
                shown = SUMMARY.sub("\n", output) if found and found[2] else output
                sys.stderr.write(shown.rstrip("\n") + "\n" if shown.strip() else "")
                if found is None or not found[2] or status != 0:
                    sys.stderr.write("run.py: %s failed (status %s)\n" % (name, status))
                sys.stderr.flush()

    started = time.monotonic()
    threads = [threading.Thread(target=work) for _ in range(max(1, args.jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - started
    tests, kinds, failed = 0, {}, []
    for name, seconds, status, found in done:
        if found is None or not found[2] or status != 0:
            failed.append(name)
        if found:
            tests += found[0]
            for kind, value in found[1].items():
                kinds[kind] = kinds.get(kind, 0) + value
    if args.times:
        for name, seconds, _, _ in sorted(done, key=lambda row: -row[1]):
            sys.stderr.write("%7.1f s  %s\n" % (seconds, name))
    extra = ", ".join("%s=%d" % item for item in sorted(kinds.items()))
    sys.stderr.write("\n%s\nRan %d tests in %.3fs\n\n%s%s\n" % (
        "-" * 70, tests, took, "FAILED" if failed else "OK",
        " (%s)" % extra if extra else ""))
    if failed:
        sys.stderr.write("failed modules: %s\n" % " ".join(sorted(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
