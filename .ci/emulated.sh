#!/usr/bin/env bash
# Graph isomorphism's emulated runs (examples/algotune-graph-isomorphism):
# builds or verifies, as root, the pinned emulator (bookworm's qemu-user and
# its libraries), the guest tree and the counting plugin (gi/setup.py, about a
# minute the first time, then kept in /opt), and runs the tests that count
# real solvers under the emulator (tests/emulated/: the counterfeits' kinds,
# the self-check, the same counts twice, the incumbent's 1.0), a few minutes
# of runs that the suite leaves out.
set -euo pipefail
cd "$(dirname "$0")/.."

python=$(command -v python3)
"$python" examples/algotune-graph-isomorphism/gi/setup.py
"$python" -m unittest discover -s examples/algotune-graph-isomorphism/tests/emulated
echo "emulated: graph isomorphism's emulated runs passed"
