"""Pinned files, fetched and checked: the Debian packages (.debs, and
one source package's tarball) through a private apt configuration, each
against the sha256 of pins.json, and the wheels through pip, against
requirements.txt's hashes; and manifests,
the sha256 of every file of a folder, which mark a finished build and
check it later. gi/tree.py (the guest tree, the plugin) and gi/qemu.py
(the pinned emulator) build on it.

All of it lives under HOME: CACHE holds the downloads and the apt state
(its own sources list, lists, status and archives; the machine's own apt
sources are never read or changed).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile

HOME = "/opt/algotune-graph-isomorphism"
CACHE = HOME + "/cache"                 # downloads and the private apt state
PINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pins.json")
REQUIREMENTS = os.path.join(os.path.dirname(PINS), "requirements.txt")   # the wheels' pins
DOWNLOAD_TIMEOUT = 1800                 # seconds, each apt-get or pip command


def load_pins(path=PINS):
    """The pins of pins.json as a dict, with "wheels" from requirements.txt."""
    with open(path, encoding="utf-8") as f:
        pins = json.load(f)
    pins["wheels"] = load_requirements()
    return pins


def sha256_file(path):
    """The hex sha256 of the file at `path`."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check(path, want):
    got = sha256_file(path)
    if got != want:
        raise RuntimeError("%r has sha256 %r, pinned %r" % (path, got, want))


def run(cmd, *, cwd=None, timeout=DOWNLOAD_TIMEOUT, env=None):
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
    text = "\n".join([pins["debian_binary"], pins["emulator"]["source"],
                      pins["debian_source"]]) + "\n"
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


def fetch_debs(pins, *, debs=None, cache=CACHE, log=print):
    """Download the pinned .debs (`debs`, default the tree's) into
    cache/debs (those not yet there with the right sha256) and return their
    paths, in pins order."""
    debs = pins["debs"] if debs is None else debs
    folder = os.path.join(cache, "debs")
    os.makedirs(folder, exist_ok=True)
    paths, missing = [], []
    for package, version, arch, sha in debs:
        path = os.path.join(folder, _deb_name(package, version, arch))
        paths.append(path)
        if not (os.path.exists(path) and sha256_file(path) == sha):
            missing.append("%s=%s" % (package, version))
    if missing:
        opts = apt_options(pins, cache=cache)
        log("apt-get update (private configuration under %s)" % cache)
        run(["apt-get", "-q"] + opts + ["update"])
        log("apt-get download %d packages" % len(missing))
        run(["apt-get", "-q"] + opts + ["download"] + missing, cwd=folder)
    for path, (_, _, _, sha) in zip(paths, debs):
        check(path, sha)
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
        run(["apt-get", "-q"] + opts + ["update"])
        run(["apt-get", "-q"] + opts + ["source", "--download-only",
                                         "%s=%s" % (src["package"], src["version"])], cwd=folder)
    check(orig, src["orig_sha256"])
    with tarfile.open(orig, "r:xz") as tar:
        data = tar.extractfile(tar.getmember(src["header"])).read()
    if hashlib.sha256(data).hexdigest() != src["header_sha256"]:
        raise RuntimeError("%r in %r is not the pinned header" % (src["header"], orig))
    os.makedirs(os.path.dirname(header), exist_ok=True)
    with open(header, "wb") as f:
        f.write(data)
    return header


def load_requirements(path=REQUIREMENTS):
    """[[name, version, sha256], ...] of requirements.txt's lines
    `NAME==VERSION --hash=sha256:HEX`, in order; RuntimeError naming a
    line that is not one."""
    wheels = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            found = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+) --hash=sha256:([0-9a-f]{64})", line)
            if not found:
                raise RuntimeError("%s line %d is not NAME==VERSION --hash=sha256:HEX: %r"
                                   % (path, number, line))
            wheels.append(list(found.groups()))
    return wheels


def fetch_wheels(pins, *, cache=CACHE, log=print):
    """Download the pinned wheels (pins["wheels"], from requirements.txt)
    into cache/wheels with pip, hash-checked, unless a file of each sha256
    is there; their paths, in pins order."""
    folder = os.path.join(cache, "wheels")
    os.makedirs(folder, exist_ok=True)

    def found():
        return {sha256_file(os.path.join(folder, name)): os.path.join(folder, name)
                for name in sorted(os.listdir(folder)) if name.endswith(".whl")}

    have = found()
    if any(sha not in have for _, _, sha in pins["wheels"]):
        log("pip download %d wheels" % len(pins["wheels"]))
        run(["python3", "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--python-version", "3.13", "--implementation", "cp", "--abi", "cp313",
             "--platform", "manylinux_2_28_x86_64", "--require-hashes",
             "-r", REQUIREMENTS, "-d", folder])
        have = found()
    missing = ["%s==%s" % (name, version) for name, version, sha in pins["wheels"]
               if sha not in have]
    if missing:
        raise RuntimeError("no wheel of the pinned sha256 for %s in %r" % (missing, folder))
    return [have[sha] for _, _, sha in pins["wheels"]]


def walk(root):
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


def manifest_text(root, pinned):
    """The manifest of `root`, built from the pins `pinned` (any JSON
    value): a first line 'P sha256-of-the-pins', then one line per entry,
    'F sha256 mode path', 'L target path' or 'D mode path', sorted by path.
    A change of pins thus fails the check as a changed file would."""
    pins = json.dumps(pinned, sort_keys=True, separators=(",", ":")).encode()
    lines = ["P %s" % hashlib.sha256(pins).hexdigest()]
    for rel, kind in walk(root):
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


def start_fresh(root, manifest):
    """Remove `manifest`, then `root`, and make `root` anew, empty: a build
    that stops half way leaves no manifest, so it is never taken for done."""
    if os.path.exists(manifest):
        os.unlink(manifest)
    if os.path.lexists(root):
        shutil.rmtree(root)
    os.makedirs(root)


def write_manifest(root, manifest, pinned):
    """Write the manifest of `root`, built from `pinned`, to the file
    `manifest`, last of a build (its presence marks the build done); its
    sha256."""
    text = manifest_text(root, pinned)
    with open(manifest + ".new", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(manifest + ".new", manifest)
    return hashlib.sha256(text.encode()).hexdigest()


def check_manifest(root, manifest, what, pinned):
    """The sha256 of the file `manifest`, after checking `root`, built from
    `pinned`, against it; RuntimeError naming `what` and the first entry
    that differs (a 'P' line: the pins changed)."""
    if not os.path.exists(manifest):
        raise RuntimeError("no manifest at %r: %s is not built" % (manifest, what))
    with open(manifest, encoding="utf-8") as f:
        want = f.read()
    got = manifest_text(root, pinned)
    if got != want:
        bad = sorted(set(want.splitlines()) ^ set(got.splitlines()))
        raise RuntimeError("%s %r differs from its manifest %r, first at %r"
                           % (what, root, manifest, bad[0] if bad else "?"))
    return hashlib.sha256(want.encode()).hexdigest()
