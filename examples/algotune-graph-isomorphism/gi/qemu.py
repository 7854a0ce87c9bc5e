"""The pinned emulator: Debian bookworm's qemu-user and the libraries it
links (with libc-bin, whose static ldconfig gi/tree.py runs), from the
pins of pins.json ("emulator"), unpacked under ROOT and run
through their own loader, so that every machine counts with the same
emulator, whatever its own packages hold (a grader image on another
Debian release included).

    qemu.ensure(pins, log=print)       # fetch, check, unpack, verify once
    [*qemu.COMMAND, "-cpu", ...]       # the emulator's command line

The .debs are downloaded with the same private apt configuration as the
guest tree's (fetch.fetch_debs) and checked against their sha256; `dpkg
-x` unpacks them; MANIFEST, written last, lists every file's sha256, so
its presence marks a finished unpacking and verify(pins) checks it. The
loader is ROOT's own (its /lib64 link points at the host's, so the real
file is named), with ROOT's library folders alone on its path.
"""

import subprocess

from gi import fetch

ROOT = fetch.HOME + "/qemu"                       # the unpacked packages
MANIFEST = fetch.HOME + "/qemu.manifest"          # sha256 of every file of ROOT
LIBRARIES = (ROOT + "/lib/x86_64-linux-gnu", ROOT + "/usr/lib/x86_64-linux-gnu")
LOADER = LIBRARIES[0] + "/ld-linux-x86-64.so.2"
BINARY = ROOT + "/usr/bin/qemu-x86_64"
COMMAND = (LOADER, "--library-path", ":".join(LIBRARIES), BINARY)
LDCONFIG = ROOT + "/sbin/ldconfig"                # libc-bin's, static: writes the tree's cache
VERSION_TIMEOUT = 60                             # seconds, `qemu-x86_64 --version`


def verify(pins):
    """The sha256 of MANIFEST, after checking ROOT against it and `pins`;
    RuntimeError naming what differs."""
    return fetch.check_manifest(ROOT, MANIFEST, "the emulator", pins["emulator"]["debs"])


def unpack(pins, *, log=print):
    """Fetch the pinned .debs and unpack them into ROOT, anew; the
    manifest's sha256."""
    debs = fetch.fetch_debs(pins, debs=pins["emulator"]["debs"], log=log)
    fetch.start_fresh(ROOT, MANIFEST)
    for deb in debs:
        fetch.run(["dpkg", "-x", deb, ROOT])
    return fetch.write_manifest(ROOT, MANIFEST, pins["emulator"]["debs"])


def version():
    """What the pinned emulator says of its version (one line)."""
    done = subprocess.run([*COMMAND, "--version"], capture_output=True, text=True,
                          timeout=VERSION_TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError("%s --version failed (status %d): %s"
                           % (BINARY, done.returncode, done.stderr.strip()[-500:]))
    return done.stdout.splitlines()[0]


def ensure(pins, *, log=print):
    """Unpack the emulator when it is missing or differs, else verify it;
    (manifest sha256, version line)."""
    try:
        digest = verify(pins)
    except RuntimeError as e:
        log("unpacking the emulator (%s)" % e)
        digest = unpack(pins, log=log)
    return digest, version()
