"""Run the test modules in parallel processes, the longest first.

    python3 tests/run.py              # every module (the full suite)
    python3 tests/run.py --quick      # the quick tier: the modules under QUICK_UNDER seconds
    python3 tests/run.py test_fit     # the modules named

The tests are in three layers, a folder each (LAYERS): sdk/, the SDK's
modules, each on its own where it can be, on a toy problem (sdk/toy.py),
importing nothing of either problem; group_testing/, the problem's
modules; end_to_end/, whole runs through the commands, the containers and
the documents. Beside them: support.py, the fixtures every layer shares;
testers/ and workers/, the tester and worker files the tests run. The
modules of the other problems' own tests (EXAMPLES) run beside them, each
as one more module, so that one command covers both problems.

Each module runs as `python3 -m unittest discover -s FOLDER -p
<module>.py`, with tests/ and each layer on PYTHONPATH, in a process of
its own, JOBS at a time, on this Python in a virtual environment with no
packages (CLEAN). What a module prints is shown as
it ends: its own lines and, for a failing module, its failures in full;
then one summary as unittest's, and the status is 1 when a test failed or
erred, a module ended without a summary, or a .pyc appeared in the tree
(compiled_in_tree: no test writes into the checkout). Standard library only.
"""

import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import venv
import zlib

if sys.version_info < (3, 11):      # one line, as every command says it
    sys.exit("the grader needs Python 3.11 or newer; this is Python %s"
             % sys.version.split()[0])

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LAYERS = ("sdk", "group_testing", "end_to_end")     # the folders of test modules
EXAMPLES = tuple(os.path.join(ROOT, "examples", name, "tests")       # each problem's own
                 for name in ("twenty-questions", "algotune-graph-isomorphism"))
# Where the modules' Pythons keep their compiled files, outside the tree: a
# run's check of the tree (arh_grader/integrity.py) then never sees the .pyc
# another Python writes there meanwhile, such as the other version's suite.
# Every Python the tests start reads and writes it, the standard library's
# files included (a prefix moves those too), so each module is compiled once
# a version: the modules run with writing allowed, whatever
# PYTHONDONTWRITEBYTECODE says, or each of them would compile all it imports.
CACHE = os.path.join(tempfile.gettempdir(), "group-testing-tests-pycache")
# The Python every module runs on: this one, in a virtual environment with no
# packages, so that the tests and every Python they start see the standard
# library alone, as the containers do: a package or a .pth file this
# machine's site-packages holds is neither imported at each start (a .pth
# that imports a package costs each Python tens of milliseconds, hundreds of
# times a run) nor there for the code to lean on.
CLEAN = os.path.join(tempfile.gettempdir(), "group-testing-tests-python")
JOBS = 4                  # processes at a time: the CI machine's 2 cores, and two more for
                          # the modules that wait out deadlines (test_faults, test_contract and
                          # test_cheat wait for most of their time), so that both cores stay busy
MODULE_TIMEOUT = 1800     # seconds a module may take before it is stopped: a hang, never load
SECONDS = {               # what each module took in a full run, three at a time: the order
    "test_fit": 31, "test_conformance": 27, "test_cost": 20, "test_manual_loop": 10,
    "test_tq_loop": 9, "test_steps": 6, "test_raster": 4, "test_betting": 24, "test_doc_commands": 24,
    "test_faults": 24, "test_compare": 23, "test_cheat": 20, "test_tq_http": 19,
    "test_hostile_client": 16, "test_chain": 14, "test_contract": 12, "test_cheat_flag": 8,
    "test_docs": 8, "test_hostile_oracle": 8, "test_hostile_tester": 8, "test_cleanup": 7,
    "test_compare_stops": 7, "test_pipeline": 7, "test_tamper": 7, "test_walls_missing": 6,
    "test_tq_compare_state": 7, "test_compare_state": 6, "test_loop": 6, "test_report": 6,
    "test_any_worker": 5, "test_diagnose": 5, "test_mmi": 5, "test_total_gain": 5,
    "test_cheat_power": 4, "test_compare_walls": 4, "test_tq_report": 4,
    "test_seam_imports": 3, "test_tq_compare_walls": 3, "test_transcripts": 3,
    "test_bench": 2, "test_hostile_worker": 2, "test_instances": 2, "test_sprt_command": 2,
    "test_sprt_exact": 2, "test_sprt_state": 2, "test_tq_bound": 2, "test_tq_exporter": 2,
    "test_constant_time": 1, "test_doc_figures_sequential": 1,
    "test_doc_figures_testers": 1, "test_gi_worker": 1, "test_hostile_worker_template": 1,
    "test_oracle": 1, "test_problem": 1, "test_seam_problem": 1, "test_seam_sdk_tests": 1,
    "test_tq_baseline": 1, "test_tq_data": 1, "test_tq_draw": 1, "test_tq_policy": 1,
    "test_betting_rules": 1, "test_defaults": 1, "test_doc_figures_constants": 1,
    "test_doc_figures_settings": 1, "test_docker_files": 1, "test_gi_docs": 1, "test_gi_task": 1,
    "test_picture": 1, "test_policy": 1, "test_result_space": 1,
    "test_result_space_engine": 1, "test_runner": 1, "test_sandbox": 1,
    "test_seam_problem_class": 1, "test_stopping": 1, "test_tq_evaluator": 1,
    "test_tq_rules": 1, "test_workers": 1,
}
QUICK_UNDER = 5           # seconds: the quick tier is the modules under it (and any new one)
SLOW = {name for name, seconds in SECONDS.items() if seconds >= QUICK_UNDER}
SUMMARY = re.compile(r"\n-{70}\nRan (\d+) tests? in [0-9.]+s\n\n(OK|FAILED)(?: \((.*)\))?\n*\Z")


def modules():
    """{module: its folder} of every test module."""
    return {os.path.basename(path)[:-3]: folder
            for folder in [os.path.join(HERE, layer) for layer in LAYERS] + list(EXAMPLES)
            for path in glob.glob(os.path.join(folder, "test_*.py"))}


def ordered(names):
    """Longest first (a module not in SECONDS first of all: it may be long)."""
    return sorted(names, key=lambda name: (-SECONDS.get(name, 1e9), name))


def module_env(path):
    """The environment of a module's process: `path` on PYTHONPATH, compiled
    files kept in CACHE (and written there)."""
    env = dict(os.environ, PYTHONPATH=path, PYTHONPYCACHEPREFIX=CACHE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def forget_gone(cache=CACHE):
    """Remove the compiled files of folders in the temporary folder that are
    gone (the tests' copies of the project), so CACHE does not grow run
    after run; those of folders still there, another run's, stay."""
    mirrored = os.path.join(cache, os.path.relpath(tempfile.gettempdir(), os.sep))
    for name in os.listdir(mirrored) if os.path.isdir(mirrored) else ():
        if not os.path.exists(os.path.join(tempfile.gettempdir(), name)):
            shutil.rmtree(os.path.join(mirrored, name), ignore_errors=True)


def clean_python(folder=CLEAN):
    """The path of this interpreter in a package-free virtual environment
    under `folder`, one per interpreter, made the first time (in a folder of
    its own, then renamed into place, so that runs at once share it)."""
    real = os.path.realpath(sys.executable)
    home = os.path.join(folder, "%d.%d-%08x" % (*sys.version_info[:2],
                                               zlib.crc32(real.encode())))
    python = os.path.join(home, "bin", "python3")
    if os.path.realpath(python) != real:
        os.makedirs(folder, exist_ok=True)
        made = tempfile.mkdtemp(dir=folder)
        venv.create(made, symlinks=True, with_pip=False)
        try:
            os.rename(made, home)
        except OSError:
            if os.path.realpath(python) == real:    # another run made it first
                shutil.rmtree(made, ignore_errors=True)
            else:                                   # a broken one is in the way
                shutil.rmtree(home, ignore_errors=True)
                os.rename(made, home)
    return python


def compiled_in_tree(root=ROOT):
    """The .pyc files below `root`, .git aside. The modules' Pythons write
    theirs to CACHE, so one that appears during a run is a test writing into
    the checkout: a Python started with -I ignores the prefix, and needs -B."""
    found = set()
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        found.update(os.path.join(folder, n) for n in names if n.endswith(".pyc"))
    return found


def run_module(name, python=sys.executable):
    """(seconds, status, output) of one module in a process of its own,
    run by `python`."""
    started = time.monotonic()
    folder = modules()[name]
    path = os.pathsep.join([HERE] + [os.path.join(HERE, other) for other in LAYERS])
    proc = subprocess.Popen([python, "-m", "unittest", "discover", "-s",
                             folder, "-p", name + ".py"], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            env=module_env(path))
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
    parser.add_argument("--quick", action="store_true",
                        help="only the quick tier: the modules under %d s" % QUICK_UNDER)
    parser.add_argument("--jobs", type=int, default=JOBS, help="processes at a time")
    parser.add_argument("--times", action="store_true", help="print each module's seconds")
    args = parser.parse_args(argv)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:   # started in the background:
        signal.signal(signal.SIGINT, signal.default_int_handler)   # Ctrl-C's default
    names = [os.path.basename(n)[:-3] if n.endswith(".py") else n for n in args.names] \
        or list(modules())
    unknown = sorted(set(names) - set(modules()))
    if unknown:
        parser.error("no such module: %s" % ", ".join(unknown))
    if args.quick:
        names = [n for n in names if n not in SLOW]
    forget_gone()
    python = clean_python()
    queue = ordered(names)
    lock = threading.Lock()
    done = []

    def work():
        while True:
            with lock:
                if not queue:
                    return
                name = queue.pop(0)
            seconds, status, output = run_module(name, python)
            found = counts(output)
            with lock:
                done.append((name, seconds, status, found))
                shown = SUMMARY.sub("\n", output) if found and found[2] else output
                sys.stderr.write(shown.rstrip("\n") + "\n" if shown.strip() else "")
                if found is None or not found[2] or status != 0:
                    sys.stderr.write("run.py: %s failed (status %s)\n" % (name, status))
                sys.stderr.flush()

    compiled = compiled_in_tree()
    started = time.monotonic()
    threads = [threading.Thread(target=work) for _ in range(max(1, args.jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - started
    wrote = sorted(os.path.relpath(p, ROOT) for p in compiled_in_tree() - compiled)
    if wrote:
        sys.stderr.write("run.py: the tests wrote compiled files into the tree: %s\n"
                         % " ".join(wrote))
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
        "-" * 70, tests, took, "FAILED" if failed or wrote else "OK",
        " (%s)" % extra if extra else ""))
    if failed:
        sys.stderr.write("failed modules: %s\n" % " ".join(sorted(failed)))
    return 1 if failed or wrote else 0


if __name__ == "__main__":
    sys.exit(main())
