"""The guest tree and the counting plugin, built from pins.

The grader runs a solver as an x86-64 program under qemu-user (the pinned
one of gi/qemu.py), and counts
the instructions it executes. For that count to be the same on every
machine, everything the emulated program can read must be the same: the
Python, its libraries, numpy, scipy and networkx, and their compiled
bytecode. This module builds that world, the "tree", at the fixed path
TREE (the emulator is started with `-L TREE`, so the guest's /lib, /usr
and /etc come from it), and the counting plugin at PLUGIN:

1. The Debian trixie packages of pins.json are downloaded with apt-get,
   under a private configuration, and checked against their pinned sha256
   (gi/fetch.py).
2. They are unpacked with `dpkg -x`, the merged-/usr links are made
   (/bin, /lib, /lib64 -> usr/...), and a few files are added that the
   guest would otherwise read from the host: an empty /etc/ld.so.preload,
   a UTC /etc/localtime, the ld.so cache (written by the pinned, static
   ldconfig of gi/qemu.py's packages, so the host's own glibc does not
   enter the tree), an empty OpenSSL configuration,
   /proc/sys/vm/overcommit_memory and /sys/devices/system/cpu/possible.
3. The pinned cp313 wheels (downloaded with `pip download`, checked by
   sha256) are unzipped into SITE, the guest's one package folder.
4. Every .py file is compiled under the emulator itself, with
   unchecked-hash .pyc files (no timestamps in them), and every file's
   mtime is set to MTIME.
5. MANIFEST lists the sha256 of every file (and every link and folder);
   it is written last, so its presence marks a finished tree, and
   verify(pins) recomputes it to check the tree is still the one built
   from these pins.
6. The plugin's header, qemu-plugin.h, is taken from Debian's bookworm
   qemu source package (fetched with `apt-get source` under the same
   private configuration; the orig tarball and the header are pinned),
   and the plugin's .c files (plugin/count.c and the files beside it)
   are compiled against it with gcc into PLUGIN, one .so.

ensure() does all of it, the emulator's unpacking first (gi/qemu.py),
and only what is missing: with everything in place it just verifies. Host
side: the standard library, apt-get, dpkg, pip and gcc; it must
run as root (it writes under /opt).
"""

import base64
import hashlib
import os
import shutil
import subprocess
import time
import zipfile

from gi import fetch, qemu

HOME = fetch.HOME
TREE = HOME + "/tree"                   # the guest's root, qemu's -L
SITE = TREE + "/opt/py"                 # numpy, scipy, networkx
PYTHON = TREE + "/usr/bin/python3.13"   # the guest's Python
PLUGIN = HOME + "/count.so"             # the counting plugin
MANIFEST = HOME + "/tree.manifest"      # sha256 of every file of TREE
HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN_FOLDER = os.path.join(os.path.dirname(HERE), "plugin")   # count.c, its .c and .h files
MTIME = 1700000000                      # seconds since the epoch, every file's mtime
CPU = "Haswell-noTSX"                   # the emulated CPU model
COMPILE_TIMEOUT = 3600                  # seconds, compiling the tree's .py under qemu

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
    cmd = [*qemu.COMMAND, "-cpu", CPU, "-L", TREE, PYTHON, "-s", "-S", "-m", "compileall", "-q",
           "--invalidation-mode", "unchecked-hash", TREE + "/usr/lib/python3.13", SITE]
    log("compiling the tree's .py under the pinned qemu-x86_64")
    r = subprocess.run(cmd, env=env, timeout=COMPILE_TIMEOUT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = r.stdout.decode(errors="replace")
    if r.returncode not in (0, 1):
        raise RuntimeError("%r failed with exit code %r:\n%s" % (cmd, r.returncode, out[-4000:]))
    if out.strip():
        log("compileall said (files it could not compile keep no .pyc):\n" + out[-2000:])


def _set_mtimes(root):
    for rel, _ in sorted(fetch.walk(root), reverse=True):
        os.utime(os.path.join(root, rel), (MTIME, MTIME), follow_symlinks=False)
    os.utime(root, (MTIME, MTIME))


def build_tree(pins, *, log=print):
    """Build TREE from scratch and write MANIFEST; returns the manifest's sha256."""
    debs = fetch.fetch_debs(pins, log=log)
    wheels = fetch.fetch_wheels(pins, log=log)
    fetch.start_fresh(TREE, MANIFEST)
    for deb in debs:
        fetch.run(["dpkg", "-x", deb, TREE])
    for link in USR_MERGE:                   # what base-files would make
        os.symlink("usr/" + link, os.path.join(TREE, link))
    for rel, data in SHADOW.items():
        path = os.path.join(TREE, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    fetch.run([qemu.LDCONFIG, "-r", TREE])
    os.makedirs(SITE, exist_ok=True)
    for wheel in wheels:
        _unzip_wheel(wheel, SITE)
    _compile(log=log)
    _set_mtimes(TREE)
    return fetch.write_manifest(TREE, MANIFEST, built_from(pins))


def built_from(pins):
    """The pins the tree is built from: its .debs and wheels, and the
    emulator's packages, which compile it and write its loader cache."""
    return [pins["debs"], pins["wheels"], pins["emulator"]["debs"]]


def verify(pins):
    """Recompute the tree's manifest; raise RuntimeError naming the first
    entry that differs from MANIFEST, or pins it was not built from.
    Returns the manifest's sha256."""
    return fetch.check_manifest(TREE, MANIFEST, "the tree", built_from(pins))


def plugin_sources():
    """The plugin's files, sorted: every .c of PLUGIN_FOLDER (compiled into
    one .so) and every .h (which they include)."""
    return sorted(os.path.join(PLUGIN_FOLDER, name) for name in os.listdir(PLUGIN_FOLDER)
                  if name.endswith((".c", ".h")))


def build_plugin(pins, *, log=print):
    """Compile PLUGIN from plugin/'s .c files against the pinned header,
    unless the stamp beside it says it was built from these very sources.
    Only qemu_plugin_* is exported (-fvisibility=hidden)."""
    header = fetch.fetch_header(pins, log=log)
    sources = plugin_sources()
    stamp = hashlib.sha256()
    for path in sources + [header]:
        stamp.update(("%s %s\n" % (os.path.basename(path), fetch.sha256_file(path))).encode())
    stamp = stamp.hexdigest()
    stamp_path = PLUGIN + ".source-sha256"
    if os.path.exists(PLUGIN) and os.path.exists(stamp_path):
        with open(stamp_path, encoding="utf-8") as f:
            if f.read().strip() == stamp:
                return PLUGIN
    c_files = [path for path in sources if path.endswith(".c")]
    log("gcc %s -> %s" % (" ".join(c_files), PLUGIN))
    fetch.run(["gcc", "-shared", "-fPIC", "-O2", "-Wall", "-fvisibility=hidden",
               "-I", os.path.dirname(header), "-o", PLUGIN + ".new", *c_files])
    os.replace(PLUGIN + ".new", PLUGIN)
    with open(stamp_path, "w", encoding="utf-8") as f:
        f.write(stamp + "\n")
    return PLUGIN


def ensure(*, log=print):
    """Build what is missing of the tree and the plugin, verify the rest.
    Returns {"tree", "manifest_sha256", "plugin", "seconds"}."""
    t0 = time.monotonic()
    pins = fetch.load_pins()
    os.makedirs(HOME, exist_ok=True)
    emulator_digest, emulator_version = qemu.ensure(pins, log=log)
    try:
        digest = verify(pins)
    except RuntimeError as e:
        log("building the tree (%s)" % e)
        digest = build_tree(pins, log=log)
    want = pins.get("tree_manifest_sha256")
    if want and digest != want:
        raise RuntimeError("the tree's manifest has sha256 %r, pinned %r" % (digest, want))
    plugin = build_plugin(pins, log=log)
    return {"tree": TREE, "manifest_sha256": digest, "plugin": plugin,
            "emulator": emulator_version, "emulator_manifest_sha256": emulator_digest,
            "seconds": round(time.monotonic() - t0, 1)}
