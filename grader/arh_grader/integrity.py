"""Has anything outside the editable folders changed? A local run takes a
baseline before it starts the worker and asks for the changes after the
worker is gone: a tester that rewrote the grader, shadowed one of its
modules or forged its bytecode is named, so that nobody trusts a result
made by a grader that is no longer the committed one.

    base = integrity.baseline(ROOT, editable=("src",), outputs=(args.out,))
    ...                                    # the run
    tampered = integrity.changes(base)     # sorted paths, relative to ROOT

In a git work tree (with a commit) the baseline holds git's view: the
files of HEAD's tree (`git ls-tree`, replace refs off) with their blob ids.
Nothing else of git is trusted: the working files are hashed here as git
hashes blobs, so the index, its assume-unchanged and skip-worktree bits,
fsmonitor and .gitattributes change nothing, and a commit made during the
run changes nothing either (the baseline's tree is the reference). A path
is then a change when it is
  - a file of that tree modified or deleted;
  - an untracked or ignored file in a code folder: a folder under one that
    holds a tracked .py file (grader/json.py shadowing the standard
    library's json, grader/json/, a .pyc beside its source);
  - a Python file (CODE_SUFFIXES: .py, .pyc, .pth, .so) elsewhere, untracked
    or ignored, that appeared, changed or went away during the run (a
    rewritten .loop/kept.py, the incumbent a comparison runs);
  - .git/config or a file of .git/hooks/ changed during the run (a hook
    runs at the next commit).
Outside git, the code folders are those holding a .py file at the start,
and a file of theirs, or a Python file elsewhere, that was added, changed
or deleted during the run is a change.

Data files outside the code folders that git does not track are never
looked at: logs, results, a kept result (.loop/run.log, .loop/results.tsv,
result-before/). The grader imports and runs none of them, and the
documented commands write them while a run goes on (a shell's `> run.log`
creates the file before the run starts and the run then writes it).

Either way the editable folders and the run's output folders (`outputs`:
result.json, the transcripts, the output lock) are not looked at, and a
__pycache__ folder's files are judged by what Python would do with them:
a .pyc of this Python's cache tag is legitimate when it is what compiling
its source gives (its code objects equal), or when Python would not load
it (no source beside the folder, another magic number, a stale timestamp
or hash: Python compiles the source again); any other file there, or a
.pyc of another Python that appeared or changed during the run (this one
never writes those), is a change. A forged .pyc is so found at the end of
the run that forged it; a later run would load it, so this module's own
check is only as good as the grader that runs it: the run in which the
files change says so, and so does every later one as long as the check
itself is intact.

Not covered: files outside `root` (the Python installation, site-packages,
$HOME, /tmp), .git's objects and refs, a file changed and restored within
the run, and the `git` command itself.
"""

import dataclasses
import hashlib
import importlib.util
import marshal
import os
import subprocess
import sys

WARNING = ("warning: files outside the editable folders differ from the committed ones "
           "(tampered): this result was made by another grader than the committed one "
           "and cannot be trusted; restore them (git status, git checkout -- PATH, or "
           "remove what is not committed) before the next run")
GIT_TIMEOUT = 60.0           # seconds `git ls-tree` may take
READ_BYTES = 1 << 20         # bytes read from a file at a time when hashing
GIT_WATCHED = ("config", "hooks")   # what of .git is digested, start and end
CACHE = "__pycache__"
CODE_SUFFIXES = (".py", ".pyc", ".pth", ".so")   # what Python imports or runs


@dataclasses.dataclass(frozen=True)
class Baseline:
    """What baseline() saw at the start of a run."""
    root: str               # the folder looked at, absolute
    skipped: tuple          # editable and output folders, relative to root
    tree: dict              # git: path -> blob id of HEAD's tree; None outside git
    code: frozenset         # the folders holding a .py file (in git, a tracked one)
    digests: dict           # path -> SHA-256 of the files watched for change during the run


def baseline(root, *, editable=("src",), outputs=()):
    """The state of `root` at the start of a run, for changes(). `editable`
    and `outputs` are folders never looked at: relative to `root`, or
    absolute (an output may be None, or lie outside root)."""
    root = os.path.abspath(root)
    skipped = tuple(sorted({p for p in (_relative(root, os.path.join(root, f))
                                        for f in (*editable, *outputs) if f)
                            if p is not None}))
    tree = _git_tree(root)
    base = Baseline(root=root, skipped=skipped, tree=tree, code=frozenset(), digests={})
    code = tree if tree is not None else _files(base)
    base = dataclasses.replace(base, code=frozenset(
        os.path.dirname(p) for p in code if p.endswith(".py")))
    base.digests.update(_watched(base))
    return base


def changes(base):
    """The sorted paths (relative to base.root, with /) outside the editable
    and output folders that differ from the committed ones or changed
    during the run (see the module's docstring)."""
    found = set()
    now = _watched(base)
    for path in base.digests.keys() | now.keys():
        if base.digests.get(path) != now.get(path):
            found.add(path)
    if base.tree is not None:
        for path, blob in base.tree.items():
            if not _skipped(base, path) and _blob_id(os.path.join(base.root, path)) != blob:
                found.add(path)
    for path in _files(base):
        if _in_cache(path):
            if _cache_verdict(os.path.join(base.root, path)) is False:
                found.add(path)
        elif base.tree is not None and path not in base.tree and _in_code(base, path):
            found.add(path)
    return sorted(found)


def _relative(root, folder):
    """`folder` relative to `root` with /, None outside it ("" for root)."""
    path = os.path.relpath(os.path.abspath(folder), root)
    if path == os.curdir:
        return ""
    if path == os.pardir or path.startswith(os.pardir + os.sep):
        return None
    return path.replace(os.sep, "/")


def _skipped(base, path):
    return any(path == s or path.startswith(s + "/") or s == "" for s in base.skipped)


def _git_tree(root):
    """{path: blob id} of HEAD's tree below `root`, None when `root` is not
    in a git work tree with a commit (or git cannot be run)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        done = subprocess.run(["git", "--no-replace-objects", "-C", root, "ls-tree", "-r",
                               "-z", "HEAD"], capture_output=True, timeout=GIT_TIMEOUT,
                              stdin=subprocess.DEVNULL, env=env)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    tree = {}
    for entry in done.stdout.split(b"\0"):
        if entry:
            meta, _, name = entry.partition(b"\t")
            mode, kind, blob = meta.split()
            if kind == b"blob":
                tree[os.fsdecode(name)] = (mode == b"120000", blob.decode())
    return tree


def _blob_id(path):
    """(is a link, git's blob id of the file at `path`), None when it is gone
    or not a file: what `git hash-object` would say, worked out here."""
    try:
        if os.path.islink(path):
            data = os.fsencode(os.readlink(path))
            return True, hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        if not os.path.isfile(path):
            return None
        digest = hashlib.sha1(b"blob %d\0" % os.path.getsize(path))
        with open(path, "rb") as f:
            while chunk := f.read(READ_BYTES):
                digest.update(chunk)
        return False, digest.hexdigest()
    except OSError:
        return None


def _sha256(path):
    try:
        if os.path.islink(path):
            return "link:" + os.readlink(path)
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            while chunk := f.read(READ_BYTES):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None


def _files(base):
    """Every file and link below base.root (links to folders not followed),
    relative with /, but for .git and the skipped folders."""
    for folder, dirs, names in os.walk(base.root):
        here = _relative(base.root, folder)
        kept = []
        for name in sorted(dirs):
            path = name if not here else here + "/" + name
            if path == ".git" or _skipped(base, path):
                continue
            if os.path.islink(os.path.join(folder, name)):
                names.append(name)
            else:
                kept.append(name)
        dirs[:] = kept
        for name in sorted(names):
            path = name if not here else here + "/" + name
            if not _skipped(base, path):
                yield path


def _watched(base):
    """{path: SHA-256} of the files whose change during the run counts: the
    Python files outside code folders, the .pyc files of other Pythons,
    and, outside git, the code folders' files; in git, .git's GIT_WATCHED."""
    digests = {}
    for path in _files(base):
        if _in_cache(path):
            if _cache_tag(path) in (None, sys.implementation.cache_tag):
                continue        # judged at the end by what it is, not by when it came
        elif base.tree is not None and (path in base.tree or _in_code(base, path)):
            continue
        elif not path.endswith(CODE_SUFFIXES) and not _in_code(base, path):
            continue            # data outside the code folders: never looked at
        digests[path] = _sha256(os.path.join(base.root, path))
    git = os.path.join(base.root, ".git")
    if base.tree is not None and os.path.isdir(git):
        for name in GIT_WATCHED:
            top = os.path.join(git, name)
            paths = [top] if os.path.isfile(top) else [
                os.path.join(folder, f) for folder, _, files in os.walk(top) for f in files]
            for path in paths:
                digests[_relative(base.root, path)] = _sha256(path)
    return digests


def _in_cache(path):
    return os.path.basename(os.path.dirname(path)) == CACHE


def _in_code(base, path):
    folder = os.path.dirname(path)
    while True:
        if folder in base.code:
            return True
        if not folder:
            return False
        folder = os.path.dirname(folder)


def _cache_name(path):
    """(module, cache tag, optimization level) of a __pycache__ file named
    as Python names a .pyc (MODULE.TAG.pyc, MODULE.TAG.opt-N.pyc), else None."""
    pieces = os.path.basename(path).split(".")
    if pieces[-1] != "pyc" or len(pieces) not in (3, 4) or not all(pieces[:-1]):
        return None
    if len(pieces) == 3:
        return pieces[0], pieces[1], 0
    level = pieces[2][len("opt-"):]
    if not pieces[2].startswith("opt-") or not level.isdigit():
        return None
    return pieces[0], pieces[1], int(level)


def _cache_tag(path):
    named = _cache_name(path)
    return named and named[1]


def _cache_verdict(path):
    """A __pycache__ file judged: True when it is legitimate (see the
    module's docstring), False when it is a change, None when this Python
    cannot tell (a .pyc of another Python's cache tag)."""
    named = _cache_name(path)
    if named is None:
        return False
    stem, tag, optimize = named
    if tag != sys.implementation.cache_tag:
        return None
    source = os.path.join(os.path.dirname(os.path.dirname(path)), stem + ".py")
    try:
        with open(path, "rb") as f:
            data = f.read()
        with open(source, "rb") as f:
            text = f.read()
        stat = os.stat(source)
    except FileNotFoundError:
        return True             # no source: Python does not load a .pyc from __pycache__
    except OSError:
        return False
    if len(data) < 16 or data[:4] != importlib.util.MAGIC_NUMBER:
        return True             # Python compiles the source again
    flags = int.from_bytes(data[4:8], "little")
    if flags & 1:
        if flags & 2 and data[8:16] != importlib.util.source_hash(text):
            return True
    elif (int.from_bytes(data[8:12], "little") != int(stat.st_mtime) & 0xFFFFFFFF
          or int.from_bytes(data[12:16], "little") != stat.st_size & 0xFFFFFFFF):
        return True
    try:
        return marshal.loads(data[16:]) == compile(text, source, "exec", dont_inherit=True,
                                                   optimize=optimize)
    except Exception:       # noqa: BLE001  (unmarshal or compile: either way not genuine)
        return False
