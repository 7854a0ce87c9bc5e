"""Shared by the tests: paths, temporary folders, live servers and processes,
each cleaned up by the test that made it, and a small disk to fill.

Group testing's share (problem, PROBLEM, secret, evaluate_local, the
default rules of start_oracle and the worker of start_worker) is imported
when a test first asks for it, never by `import support` alone: the SDK's
tests (tests/sdk/) import this module and load nothing of either problem.
"""

import errno
import os
import struct
import shutil
import subprocess
import sys
import tempfile
import zlib

if sys.version_info < (3, 11):      # one line, not a failed import per test module
    sys.stderr.write("the grader needs Python 3.11 or newer; this is Python %s\n"
                     % sys.version.split()[0])
    sys.stderr.flush()
    os._exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRADER = os.path.join(ROOT, "grader")
if GRADER not in sys.path:
    sys.path.insert(0, GRADER)

from arh_grader import Oracle, Spec, engine, local_run, workers  # noqa: E402
from arh_grader.settings import Settings  # noqa: E402

GROUP_TESTING = ("problem", "PROBLEM")      # the names of group testing's, made on demand


def group_testing(name):
    """Group testing's rules (`problem`, group_testing/problem.py) or its
    plug-in (`PROBLEM`), imported on first use."""
    from group_testing import plugin, problem
    globals().update(problem=problem, PROBLEM=plugin.PROBLEM)
    return globals()[name]


def __getattr__(name):
    """support.PROBLEM and `from support import problem` (group_testing),
    as plain names, for the modules that use them."""
    if name not in GROUP_TESTING:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    return group_testing(name)


SAMPLE = os.path.join(ROOT, "sample", "items.jsonl")
SHIPPED = os.path.join(ROOT, "src", "tester.py")   # whatever tester is being improved
TESTERS = os.path.join(ROOT, "tests", "testers")
SPLITTING = os.path.join(TESTERS, "splitting.py")  # binary splitting, frozen: known counts
INFORMED = os.path.join(TESTERS, "informed.py")    # near the information floor


def settings(instance_timeout_s, run_timeout_s=60.0, worker_start_timeout_s=10.0):
    """A run's deadlines in seconds (arh_grader.settings.Settings)."""
    return Settings(instance_timeout_s=instance_timeout_s, run_timeout_s=run_timeout_s,
                    worker_start_timeout_s=worker_start_timeout_s)


def evaluate_local(items, **options):
    """local_run.evaluate_local with group testing: a whole run here."""
    return local_run.evaluate_local(items, problem=group_testing("PROBLEM"), **options)


def tmpdir(case):
    """A temporary folder removed when `case` ends."""
    path = tempfile.mkdtemp(prefix="gt-test-")
    case.addCleanup(shutil.rmtree, path, True)
    return path


def write(case, name, text):
    """Write `text` to a new file `name` in a temporary folder; its path."""
    path = os.path.join(tmpdir(case), name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def secret(n, defectives):
    """What the oracle keeps for an instance of `n` items and these defectives."""
    return group_testing("problem").secret_of({"n": n, "defectives": sorted(defectives)})


class RulesOracle(Oracle):
    """An oracle whose open(secret, cap=, max_body=, policy=) opens a
    session.Spec of one set of rules (`check`, `answer`): the tests'
    shorthand for sessions made by hand. A Spec (a problem's session) is
    opened as it is."""

    def __init__(self, *, check, answer, **options):
        super().__init__(**options)
        self.rules = {"check": check, "answer": answer}

    def open(self, spec, **session):
        if isinstance(spec, Spec):
            return super().open(spec)
        return super().open(Spec(spec, **session, **self.rules))


def start_oracle(case, *, check=None, answer=None, **options):
    """A live oracle on a loopback port (a RulesOracle: group testing's rules
    unless `check` and `answer` are given), stopped at cleanup."""
    if check is None or answer is None:
        rules = group_testing("problem")
        check, answer = check or rules.check_query, answer or rules.answer_query
    oracle = RulesOracle(check=check, answer=answer, **options)
    oracle.start()
    case.addCleanup(oracle.stop)
    return oracle


def start_worker(case, oracle_url, tester=SPLITTING, *, home=None):
    """A live worker process (harness/worker.py) whose folder is `home`
    (the one it may write in; default a fresh one); (process, URL)."""
    proc, url = local_run.start_worker(oracle_url=oracle_url, tester=tester, timeout=20,
                                       worker=group_testing("PROBLEM").WORKER,
                                       cwd=home or tmpdir(case),
                                       quiet=not SHOW)        # its stacks, with GT_SHOW=1
    case.addCleanup(local_run.stop_worker, proc)
    return proc, url


REFERENCE = [sys.executable, os.path.join(ROOT, "harness", "worker.py")]   # as a command


def reference_at_url(case):
    """harness/worker.py started from its command on a free port, expecting
    its oracle on another free port; (the worker's URL, the oracle's port)."""
    port = workers.free_port()
    log = open(os.devnull, "wb")
    case.addCleanup(log.close)
    proc, url = workers.start(REFERENCE, oracle_url="http://127.0.0.1:%d/" % port, log=log)
    case.addCleanup(workers.stop, proc)
    workers.wait_listening(proc, url, timeout=30)
    return url, port


def run_command(case, *args, timeout=300):
    """Run a Python script of the project as a real process; (status, stdout, stderr)."""
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def read_png(case, data):
    """(width, height, rows) of the bytes of an 8-bit RGB PNG file, each row
    a list of (r, g, b): read here with zlib and struct alone, failing
    `case` at a bad signature, chunk CRC, header or filter type."""
    case.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n", "not a PNG signature")
    at, chunks = 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        crc, = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        case.assertEqual(crc, zlib.crc32(kind + body), "the CRC of chunk %r" % kind)
        chunks.append((kind, body))
        at += 12 + length
    case.assertEqual([kind for kind, _ in chunks][0], b"IHDR")
    case.assertEqual(chunks[-1], (b"IEND", b""))
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", chunks[0][1])
    case.assertEqual((depth, colour, compression, filtering, interlace), (8, 2, 0, 0, 0))
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = 3 * width
    case.assertEqual(len(raw), height * (stride + 1))
    rows, above = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        case.assertIn(kind, range(5), "row %d's filter type" % y)
        for x in range(stride if kind else 0):      # type 0, none: the bytes as they are
            a, b = line[x - 3] if x >= 3 else 0, above[x]
            c = above[x - 3] if x >= 3 else 0
            p = a + b - c
            paeth = min((abs(p - a), 0, a), (abs(p - b), 1, b), (abs(p - c), 2, c))[2]
            line[x] = (line[x] + (0, a, b, (a + b) // 2, paeth)[kind]) & 255
        rows.append(list(zip(line[0::3], line[1::3], line[2::3])))
        above = line
    return width, height, rows


def lines_of(stdout):
    """The `key: value` lines of a command's output, as a dict."""
    return dict(line.split(": ", 1) for line in stdout.splitlines() if ": " in line)


# The documents: the agents' manual, and the reference behind it (docs/),
# one file a reader's job. A test names the one where its figure lives.
MANUAL = "PROGRAM.md"
DATA = "docs/data.md"               # the families' fit, the public sets
SCORING = "docs/scoring.md"         # the baseline, the floors, the MMI, the headroom
COMPARISON = "docs/comparison.md"   # the sequential comparison, its state file, the chain
LOCAL_RUN = "docs/local-run.md"     # the summary's keys, cleanup, tamper check, walls
CHEATING = "docs/cheating.md"       # the cheat flag's derivation, the planner's tables
REFERENCE_DOCS = (DATA, SCORING, COMPARISON, LOCAL_RUN, CHEATING)
DOCUMENTS = ("README.md", MANUAL, "docs/README.md") + REFERENCE_DOCS


def documents(doc):
    """`doc` as a tuple of document names: one name, or several."""
    return (doc,) if isinstance(doc, str) else tuple(doc)


def assert_quoted(case, text, doc=MANUAL):
    """Fail `case` unless the document `doc` (a path from the root, or a
    tuple of them: each) holds `text`: a figure a test computes, quoted
    where the documents show it."""
    for name in documents(doc):
        with open(os.path.join(ROOT, name), encoding="utf-8") as f:
            if text not in f.read():
                case.fail("%s does not quote what the test computes: %r" % (name, text))


def section(doc, heading):
    """The text of the section of `doc` whose heading line is `heading`
    (`## The walls around the tester`), up to the next heading of its level
    or above."""
    text = read(doc)
    start = text.index("\n" + heading + "\n") + 1
    level = heading.split(" ", 1)[0]
    ends = [text.find("\n" + "#" * k + " ", start + len(heading))
            for k in range(1, len(level) + 1)]
    ends = [end for end in ends if end >= 0]
    return text[start:min(ends) + 1 if ends else len(text)]


SHOW = os.environ.get("GT_SHOW") == "1"     # GT_SHOW=1: tests print the figures they measure


def show(text):
    """Print a figure a test measures on stderr, only when GT_SHOW=1: a
    passing run prints nothing but unittest's own lines."""
    if SHOW:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def python_files(folder):
    """The paths of the .py files under `folder`, its subfolders' included
    (each folder's in name order), __pycache__ left out."""
    for path, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(path, name)


def read(name):
    """The text of the file `name`, a path from the repository's root."""
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def flat(text):
    """`text` with each run of spaces and line breaks made one space."""
    return " ".join(text.split())


def said(case, text, doc=MANUAL):
    """Fail unless `doc` (a name, or a tuple of names: each) holds `text`,
    line breaks and spaces aside."""
    for name in documents(doc):
        case.assertTrue(flat(text) in flat(read(name)), "%s does not say %r" % (name, text))


def table_rows(doc, header):
    """The body rows of the Markdown table of `doc` whose header line starts
    with `header`, as lists of stripped cells."""
    text = read(doc)
    start = text.index(header)
    lines = text[start:].split("\n\n")[0].splitlines()[2:]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]


DISK_BYTES = 16 * 1024 * 1024   # size of the tmpfs mount_small_disk mounts
FILL_CHUNK_BYTES = 64 * 1024    # bytes a write while filling it


def mount_small_disk(case, size=DISK_BYTES):
    """A fresh tmpfs of `size` bytes, unmounted at cleanup; the test is
    skipped, saying why, where mounting is not permitted (it needs root)."""
    path = tempfile.mkdtemp(prefix="gt-space-")
    case.addCleanup(os.rmdir, path)
    if os.geteuid() != 0:
        case.skipTest("mounting a tmpfs needs root (euid %d)" % os.geteuid())
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%d" % size, "tmpfs", path],
                          capture_output=True, text=True)
    if done.returncode != 0:
        case.skipTest("mount -t tmpfs is not permitted here: %s"
                      % (done.stderr.strip() or "exit %d" % done.returncode))
    case.addCleanup(subprocess.run, ["umount", "-l", path], check=True)
    return path


def fill(directory):
    """Fill the disk of `directory` with a file of someone else's, to the last
    byte; the bytes written."""
    written = 0
    chunk = b"x" * FILL_CHUNK_BYTES
    fd = os.open(os.path.join(directory, "someone-else.bin"), os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            try:
                written += os.write(fd, chunk)
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
                break
    finally:
        os.close(fd)
    return written
