#!/usr/bin/env bash
# Graph isomorphism's emulated runs (examples/algotune-graph-isomorphism):
# installs Debian's qemu-user where qemu-x86_64 is missing (as root), builds
# or verifies the pinned guest tree and the counting plugin (gi/setup.py,
# about a minute the first time, then kept in /opt), and runs the tests that
# count real solvers under the emulator (tests/emulated/: the counterfeits'
# kinds, the same counts twice, the incumbent's 1.0), a few minutes of runs
# that the suite leaves out.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    echo "emulated: installing qemu-user"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null
fi
python=$(command -v python3)
"$python" examples/algotune-graph-isomorphism/gi/setup.py
"$python" -m unittest discover -s examples/algotune-graph-isomorphism/tests/emulated
echo "emulated: graph isomorphism's emulated runs passed"
