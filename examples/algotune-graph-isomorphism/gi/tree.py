"""The guest tree and the counting plugin, built from pins.

The grader runs a solver as an x86-64 program under qemu-user, and counts
the instructions it executes. For that count to be the same on every
machine, everything the emulated program can read must be the same: the
Python, its libraries, numpy, scipy and networkx, and their compiled
bytecode. This module builds that world, the "tree", at the fixed path
TREE (the emulator is started with `-L TREE`, so the guest's /lib, /usr
and /etc come from it), and the counting plugin at PLUGIN:

1. The Debian trixie packages of pins.json are downloaded with apt-get,
   under a private configuration in CACHE (its own sources list, lists,
   status and archives: the machine's own apt sources are never read or
   changed), and checked against their pinned sha256.
2. They are unpacked with `dpkg -x`, the merged-/usr links are made
   (/bin, /lib, /lib64 -> usr/...), and a few files are added that the
   guest would otherwise read from the host: an empty /etc/ld.so.preload,
   a UTC /etc/localtime, the ld.so cache, an empty OpenSSL configuration,
   /proc/sys/vm/overcommit_memory and /sys/devices/system/cpu/possible.
3. The pinned cp313 wheels (downloaded with `pip download`, checked by
   sha256) are unzipped into SITE, the guest's one package folder.
4. Every .py file is compiled under the emulator itself, with
   unchecked-hash .pyc files (no timestamps in them), and every file's
   mtime is set to MTIME.
5. MANIFEST lists the sha256 of every file (and every link and folder);
   it is written last, so its presence marks a finished tree, and
   verify() recomputes it to check the tree is still the one built.
6. The plugin's header, qemu-plugin.h, is taken from Debian's bookworm
   qemu source package (fetched with `apt-get source` under the same
   private configuration; the orig tarball and the header are pinned),
   and GI/plugin/count.c is compiled against it with gcc into PLUGIN.

ensure() does all of it, and only what is missing: with everything in
place it just verifies. Host side: the standard library, apt-get,
dpkg, pip, gcc, ldconfig and qemu-x86_64; it must run as root (it writes
under /opt).
"""

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import time
import zipfile

HOME = "/opt/algotune-graph-isomorphism"
TREE = HOME + "/tree"                   # the guest's root, qemu's -L
SITE = TREE + "/opt/py"                 # numpy, scipy, networkx
PYTHON = TREE + "/usr/bin/python3.13"   # the guest's Python
PLUGIN = HOME + "/count.so"             # the counting plugin
MANIFEST = HOME + "/tree.manifest"      # sha256 of every file of TREE
CACHE = HOME + "/cache"                 # downloads and the private apt state
HERE = os.path.dirname(os.path.abspath(__file__))
PINS = os.path.join(HERE, "pins.json")
PLUGIN_SOURCE = os.path.join(os.path.dirname(HERE), "plugin", "count.c")
MTIME = 1700000000                      # seconds since the epoch, every file's mtime
QEMU = "qemu-x86_64"
CPU = "Haswell-noTSX"                   # the emulated CPU model
COMPILE_TIMEOUT = 3600                  # seconds, compiling the tree's .py under qemu
DOWNLOAD_TIMEOUT = 1800                 # seconds, each apt-get or pip command

# /usr/share/zoneinfo/Etc/UTC (TZif version 2, 114 bytes), written as /etc/localtime
UTC_TZIF = base64.b64decode(
    "VFppZjIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAAAAQAAAAAAABVVEMA"
    "VFppZjIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAAAAQAAAAAAABVVEMA"
    "ClVUQzAK")
USR_MERGE = ("bin", "lib", "lib64")     # links to usr/..., as in a merged-/usr system
SHADOW = {                               # tree path: contents
    "etc/ld.so.preload": b"",
    "etc/ld.so.conf": b"include /etc/ld.so.conf.d/*.conf\n",
    "etc/localtime": UTC_TZIF,
    "proc/sys/vm/overcommit_memory": b"0\n",
    "sys/devices/system/cpu/possible": b"0\n",
    "usr/lib/ssl/openssl.cnf": b"",     # else OpenSSL reads the host's
}


def load_pins(path=PINS):
    """The pins of pins.json as a dict."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def sha256_file(path):
    """The hex sha256 of the file at `path`."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _check(path, want):
    got = sha256_file(path)
    if got != want:
        raise RuntimeError("%r has sha256 %r, pinned %r" % (path, got, want))


def _run(cmd, *, cwd=None, timeout=DOWNLOAD_TIMEOUT, env=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, timeout=timeout,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise RuntimeError("%r failed with exit code %r:\n%s" % (
            cmd, r.returncode, r.stdout.decode(errors="replace")[-4000:]))
    return r.stdout.decode(errors="replace")


def apt_options(pins, *, cache=CACHE):
    """apt-get options for the private configuration under `cache`: its own
    sources list (pins' trixie binaries and bookworm sources), lists, status,
    archives and no preferences; the machine's own apt state is not used."""
    state = os.path.join(cache, "apt")
    for d in ("lists/partial", "archives/partial"):
        os.makedirs(os.path.join(state, d), exist_ok=True)
    sources = os.path.join(state, "sources.list")
    text = pins["debian_binary"] + "\n" + pins["debian_source"] + "\n"
    with open(sources, "w", encoding="utf-8") as f:
        f.write(text)
    status = os.path.join(state, "status")
    if not os.path.exists(status):
        open(status, "w").close()
    opts = {
        "Dir::Etc::SourceList": sources, "Dir::Etc::SourceParts": "/dev/null",
        "Dir::Etc::Preferences": "/dev/null", "Dir::Etc::PreferencesParts": "/dev/null",
        "Dir::State::Lists": state + "/lists", "Dir::State::Status": status,
        "Dir::Cache": state, "Dir::Cache::Archives": state + "/archives",
        "APT::Architecture": "amd64", "APT::Architectures": "amd64",
        "APT::Sandbox::User": "root", "Acquire::Languages": "none",
    }
    return [a for k, v in opts.items() for a in ("-o", "%s=%s" % (k, v))]


def _deb_name(package, version, arch):
    return "%s_%s_%s.deb" % (package, version.replace(":", "%3a"), arch)


def fetch_debs(pins, *, cache=CACHE, log=print):
    """Download the pinned .debs into cache/debs (those not yet there with
    the right sha256) and return their paths, in pins order."""
    folder = os.path.join(cache, "debs")
    os.makedirs(folder, exist_ok=True)
    paths, missing = [], []
    for package, version, arch, sha in pins["debs"]:
        path = os.path.join(folder, _deb_name(package, version, arch))
        paths.append(path)
        if not (os.path.exists(path) and sha256_file(path) == sha):
            missing.append("%s=%s" % (package, version))
    if missing:
        opts = apt_options(pins, cache=cache)
        log("apt-get update (private configuration under %s)" % cache)
        _run(["apt-get", "-q"] + opts + ["update"])
        log("apt-get download %d packages" % len(missing))
        _run(["apt-get", "-q"] + opts + ["download"] + missing, cwd=folder)
    for path, (_, _, _, sha) in zip(paths, pins["debs"]):
        _check(path, sha)
    return paths


def fetch_header(pins, *, cache=CACHE, log=print):
    """The path of qemu-plugin.h taken from the pinned qemu source package."""
    src = pins["qemu_source"]
    header = os.path.join(cache, "include", "qemu-plugin.h")
    if os.path.exists(header) and sha256_file(header) == src["header_sha256"]:
        return header
    folder = os.path.join(cache, "src")
    os.makedirs(folder, exist_ok=True)
    orig = os.path.join(folder, src["orig"])
    if not (os.path.exists(orig) and sha256_file(orig) == src["orig_sha256"]):
        opts = apt_options(pins, cache=cache)
        log("apt-get source --download-only %s=%s" % (src["package"], src["version"]))
        _run(["apt-get", "-q"] + opts + ["update"])
        _run(["apt-get", "-q"] + opts + ["source", "--download-only",
                                         "%s=%s" % (src["package"], src["version"])], cwd=folder)
    _check(orig, src["orig_sha256"])
    with tarfile.open(orig, "r:xz") as tar:
        data = tar.extractfile(tar.getmember(src["header"])).read()
    if hashlib.sha256(data).hexdigest() != src["header_sha256"]:
        raise RuntimeError("%r in %r is not the pinned header" % (src["header"], orig))
    os.makedirs(os.path.dirname(header), exist_ok=True)
    with open(header, "wb") as f:
        f.write(data)
    return header


def fetch_wheels(pins, *, cache=CACHE, log=print):
    """Download the pinned wheels into cache/wheels with pip (hash-checked)
    and return their paths, in pins order."""
    folder = os.path.join(cache, "wheels")
    os.makedirs(folder, exist_ok=True)
    paths = [os.path.join(folder, w[2]) for w in pins["wheels"]]
    if not all(os.path.exists(p) and sha256_file(p) == w[3]
               for p, w in zip(paths, pins["wheels"])):
        req = os.path.join(folder, "requirements.txt")
        with open(req, "w", encoding="utf-8") as f:
            for name, version, _, sha in pins["wheels"]:
                f.write("%s==%s --hash=sha256:%s\n" % (name, version, sha))
        log("pip download %d wheels" % len(paths))
        _run(["python3", "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
              "--python-version", "3.13", "--implementation", "cp", "--abi", "cp313",
              "--platform", "manylinux_2_28_x86_64", "--require-hashes",
              "-r", req, "-d", folder])
    for path, w in zip(paths, pins["wheels"]):
        _check(path, w[3])
    return paths


def _unzip_wheel(path, site):
    """Install a wheel by unzipping it into `site` (its .data/purelib and
    platlib into site too; its scripts and headers are left out)."""
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            name = info.filename
            parts = name.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                name = "/".join(parts[2:])
            if name.endswith("/") or ".." in parts or name.startswith("/"):
                continue
            dest = os.path.join(site, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(info) as src, open(dest, "wb") as out:
                shutil.copyfileobj(src, out)
            mode = (info.external_attr >> 16) & 0o777
            os.chmod(dest, 0o755 if mode & 0o111 else 0o644)


def _compile(log=print):
    """Compile every .py of the tree under the emulator, unchecked-hash."""
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "PYTHONHASHSEED": "0"}
    cmd = [QEMU, "-cpu", CPU, "-L", TREE, PYTHON, "-s", "-S", "-m", "compileall", "-q",
           "--invalidation-mode", "unchecked-hash", TREE + "/usr/lib/python3.13", SITE]
    log("compiling the tree's .py under %s" % QEMU)
    r = subprocess.run(cmd, env=env, timeout=COMPILE_TIMEOUT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = r.stdout.decode(errors="replace")
    if r.returncode not in (0, 1):
        raise RuntimeError("%r failed with exit code %r:\n%s" % (cmd, r.returncode, out[-4000:]))
    if out.strip():
        log("compileall said (files it could not compile keep no .pyc):\n" + out[-2000:])


def _walk(root):
    """(relative path, kind) of everything under root, sorted; kind is
    'D' folder, 'L' link or 'F' file."""
    items = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            kind = "L" if os.path.islink(full) else "D" if os.path.isdir(full) else "F"
            items.append((rel, kind))
    return sorted(items)


def manifest_text(root=TREE):
    """The manifest of `root`: one line per entry, 'F sha256 mode path',
    'L target path' or 'D mode path', sorted by path."""
    lines = []
    for rel, kind in _walk(root):
        full = os.path.join(root, rel)
        if kind == "L":
            lines.append("L %s %s" % (os.readlink(full), rel))
        else:
            mode = "%o" % (os.lstat(full).st_mode & 0o7777)
            if kind == "D":
                lines.append("D %s %s" % (mode, rel))
            else:
                lines.append("F %s %s %s" % (sha256_file(full), mode, rel))
    return "\n".join(lines) + "\n"


def _set_mtimes(root):
    for rel, _ in sorted(_walk(root), reverse=True):
        os.utime(os.path.join(root, rel), (MTIME, MTIME), follow_symlinks=False)
    os.utime(root, (MTIME, MTIME))


def build_tree(pins, *, log=print):
    """Build TREE from scratch and write MANIFEST; returns the manifest's sha256."""
    debs = fetch_debs(pins, log=log)
    wheels = fetch_wheels(pins, log=log)
    if os.path.exists(MANIFEST):
        os.unlink(MANIFEST)
    if os.path.lexists(TREE):
        shutil.rmtree(TREE)
    os.makedirs(TREE)
    for deb in debs:
        _run(["dpkg", "-x", deb, TREE])
    for link in USR_MERGE:                   # what base-files would make
        os.symlink("usr/" + link, os.path.join(TREE, link))
    for rel, data in SHADOW.items():
        path = os.path.join(TREE, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    _run(["ldconfig", "-r", TREE])
    os.makedirs(SITE, exist_ok=True)
    for wheel in wheels:
        _unzip_wheel(wheel, SITE)
    _compile(log=log)
    _set_mtimes(TREE)
    text = manifest_text(TREE)
    with open(MANIFEST + ".new", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(MANIFEST + ".new", MANIFEST)
    return hashlib.sha256(text.encode()).hexdigest()


def manifest_sha256():
    """The sha256 of the stored MANIFEST, or None when there is none."""
    if not os.path.exists(MANIFEST):
        return None
    return sha256_file(MANIFEST)


def verify():
    """Recompute the tree's manifest; raise RuntimeError naming the first
    entry that differs from MANIFEST. Returns the manifest's sha256."""
    if not os.path.exists(MANIFEST):
        raise RuntimeError("no manifest at %r: the tree is not built" % MANIFEST)
    with open(MANIFEST, encoding="utf-8") as f:
        want = f.read()
    got = manifest_text(TREE)
    if got != want:
        a, b = set(want.splitlines()), set(got.splitlines())
        bad = sorted((a - b) | (b - a))
        raise RuntimeError("the tree %r differs from its manifest %r, first at %r"
                           % (TREE, MANIFEST, bad[0] if bad else "?"))
    return hashlib.sha256(want.encode()).hexdigest()


def build_plugin(pins, *, log=print):
    """Compile PLUGIN from count.c against the pinned header, unless the
    stamp beside it says it was built from these very sources."""
    header = fetch_header(pins, log=log)
    stamp = hashlib.sha256()
    for path in (PLUGIN_SOURCE, header):
        stamp.update(sha256_file(path).encode())
    stamp = stamp.hexdigest()
    stamp_path = PLUGIN + ".source-sha256"
    if os.path.exists(PLUGIN) and os.path.exists(stamp_path):
        with open(stamp_path, encoding="utf-8") as f:
            if f.read().strip() == stamp:
                return PLUGIN
    log("gcc %s -> %s" % (PLUGIN_SOURCE, PLUGIN))
    _run(["gcc", "-shared", "-fPIC", "-O2", "-Wall", "-I", os.path.dirname(header),
          "-o", PLUGIN + ".new", PLUGIN_SOURCE])
    os.replace(PLUGIN + ".new", PLUGIN)
    with open(stamp_path, "w", encoding="utf-8") as f:
        f.write(stamp + "\n")
    return PLUGIN


def ensure(*, log=print):
    """Build what is missing of the tree and the plugin, verify the rest.
    Returns {"tree", "manifest_sha256", "plugin", "seconds"}."""
    t0 = time.monotonic()
    pins = load_pins()
    os.makedirs(HOME, exist_ok=True)
    try:
        digest = verify()
    except RuntimeError as e:
        log("building the tree (%s)" % e)
        digest = build_tree(pins, log=log)
    want = pins.get("tree_manifest_sha256")
    if want and digest != want:
        raise RuntimeError("the tree's manifest has sha256 %r, pinned %r" % (digest, want))
    plugin = build_plugin(pins, log=log)
    return {"tree": TREE, "manifest_sha256": digest, "plugin": plugin,
            "seconds": round(time.monotonic() - t0, 1)}
