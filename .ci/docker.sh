#!/usr/bin/env bash
# Runs the benchmark with Docker Compose, as the README's Docker section says,
# and checks it against grader/local.py on the same set (sample/items.jsonl).
#
# As root on a Debian machine, it first makes an engine available: it installs
# Debian's docker.io, docker-compose (Compose v1) and debootstrap where missing,
# and starts dockerd (overlay2, else vfs; its iptables rules, which keep an
# internal network internal, but no docker0) when no
# engine answers. When the image python:3.13-slim-bookworm is absent it builds a
# LOCAL STAND-IN under that name: a minimal Debian trixie root with Python 3.13,
# made by debootstrap and loaded with `docker import`. It is not the official
# image, which needs an image registry; the project's images build FROM it, and
# it carries the label stand-in=... to say so. It is kept as a cache.
#
# Then it runs the three commands (`docker compose`, or `docker-compose -f
# compose.yaml` where only Compose v1 exists) and checks: the grader exits 0;
# result.json as the second command prints it is byte-identical to
# grader/local.py's; the worker runs on core 0 and the grader on core 1, read
# from /proc/1/status inside the running containers; the worker's container has
# only internal networks, and from inside a container of its service a probe on
# another network of this run is out of reach; the worker's image holds no
# instance file and no grader code; after `down --volumes` a second `up` starts
# with a fresh volume and gives the same bytes. Last, it draws a fresh set of
# 500 instances with a secret seed and grades it the way the platform gives the
# grader a held-out set: the file mounted into the grader's container only,
# named with --items, through Compose's `run`. Its result.json must be
# byte-identical to grader/local.py --items on the same file, and the worker's
# running container must have no mount and no instance file.
#
# The two examples run the same way (their compose.yaml, projects tq and gi),
# each result.json byte-identical to its own local run's: twenty questions, and
# graph isomorphism, whose grader's image builds the pinned emulator, tree and
# plugin (gi/setup.py) and counts the solver in its container (SYS_ADMIN for
# the emulator's PID namespace, core 1; what Landlock it has is printed).
#
# The walls around the tester (docs/local-run.md, "The walls around the tester"): the
# worker containers of all three problems carry compose.yaml's limits (read back with
# docker inspect), their images hold no setuid or setgid file, their network's
# bridge has no IPv4 address, and the host drops what its bridges send to the
# host itself (iptables INPUT, one rule a bridge, removed on exit). Last, each
# hostile tester of tests/testers/hostile/ runs as src/tester.py in the worker's
# image (a second compose file builds it, project gt-hostile; one instance,
# HOSTILE_TIMEOUT s): a memory bomb, a process bomb, a file bomb, a /tmp fill, a
# stdout flood and a network probe (the gateway, every address of the host where
# a listener of this script waits, DNS out; the oracle must answer). Each must
# end with result.json written, a submission's kind or a valid run, within the
# deadline and a grace, and the disk of Docker's root must not grow past a bound:
#   hostile: NAME kind: KIND seconds: S ok
#
# The checks after the base image are its stages, .ci/docker/*.sh, sourced
# in order into this shell, with its settings, helpers and cleanup:
# group-testing.sh (3 to 8), examples.sh (9, 10) and hostile.sh (11).
#
# It prints `key: value` lines and stops at the first failed check, non-zero,
# saying why. On exit it removes what it made: containers, volume, network, the
# images it built, and the engine if it started it.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$(pwd -P)

BASE=python:3.13-slim-bookworm
SUITE=trixie                     # Debian's release with Python 3.13
WORKER_CPUS=0                    # compose.yaml's cpuset of each service
GRADER_CPUS=1
ENGINE_TIMEOUT=60                # seconds dockerd has to answer
PROBE=group-testing-ci-probe     # a container and network of this run, out of the worker's reach
BRIDGES="gt-inner0 tq-inner0 gi-inner0"   # the worker networks' bridges, as the compose files name them
HOSTILE="memory_bomb process_bomb files_bomb tmp_fill stdout_flood network_probe socket_probe"
HOSTILE_TIMEOUT=8                # seconds: the grader's --instance-timeout in the hostile runs
HOSTILE_GRACE_S=30               # seconds a hostile run may take beyond its deadline
HOSTILE_DISK_MB=256              # MiB the disk of Docker's root may grow during one hostile run
LISTEN_PORT=47111                # TCP port where this script listens on every address of the host
T0=$EPOCHREALTIME
WORK=$(mktemp -d /tmp/docker-ci.XXXXXX)
ENGINE_PID=""
COMPOSE=()
TQ_COMPOSE=()
GI_COMPOSE=()
GI_SEEDED=""                     # the downloads/ folder this run seeded, emptied on exit
IMAGES=()
PASSED=0
FAILED=""
APT_UPDATED=""
HOST_RULES=()                    # bridges whose INPUT rule this run added
LISTENER_PID=""
HOSTILE_COMPOSE=()

say() { printf '%s: %s\n' "$1" "$2"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
fail() {
    FAILED=$*
    printf 'docker: FAILED: %s\n' "$*" >&2
    exit 1
}
pass() { PASSED=$((PASSED + 1)); say "$1" "$2"; }
show() {    # the last lines of log $1, indented, on stderr
    [ -s "$1" ] && tail -n "${2:-30}" "$1" | sed 's/^/    /' >&2
    return 0
}

cleanup() {
    local status=$? mount
    set +e
    trap - EXIT INT TERM
    if [ -n "$ENGINE_PID" ] || docker info >/dev/null 2>&1; then
        if [ ${#COMPOSE[@]} -gt 0 ]; then
            "${COMPOSE[@]}" down --volumes --remove-orphans >/dev/null 2>&1 </dev/null
        fi
        if [ ${#TQ_COMPOSE[@]} -gt 0 ]; then
            "${TQ_COMPOSE[@]}" down --volumes --remove-orphans >/dev/null 2>&1 </dev/null
        fi
        if [ ${#GI_COMPOSE[@]} -gt 0 ]; then
            "${GI_COMPOSE[@]}" down --volumes --remove-orphans >/dev/null 2>&1 </dev/null
        fi
        if [ ${#HOSTILE_COMPOSE[@]} -gt 0 ]; then
            "${HOSTILE_COMPOSE[@]}" down --volumes --remove-orphans >/dev/null 2>&1 </dev/null
        fi
        docker rm -f "$PROBE" >/dev/null 2>&1
        docker network rm "$PROBE" >/dev/null 2>&1
        if [ ${#IMAGES[@]} -gt 0 ]; then
            docker rmi -f $(printf '%s\n' "${IMAGES[@]}" | sort -u) >/dev/null 2>&1
        fi
    fi
    for bridge in "${HOST_RULES[@]}"; do
        iptables -D INPUT -i "$bridge" -j DROP 2>/dev/null
        ip6tables -D INPUT -i "$bridge" -j DROP 2>/dev/null
    done
    [ -z "$GI_SEEDED" ] || find "$GI_SEEDED" -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
    [ -z "$LISTENER_PID" ] || { kill "$LISTENER_PID" 2>/dev/null; wait "$LISTENER_PID" 2>/dev/null; }
    if [ -n "$ENGINE_PID" ]; then
        kill "$ENGINE_PID" 2>/dev/null
        for _ in $(seq 150); do kill -0 "$ENGINE_PID" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$ENGINE_PID" 2>/dev/null
        wait "$ENGINE_PID" 2>/dev/null
        say engine_stopped "dockerd (pid $ENGINE_PID)"
    fi
    # debootstrap mounts /proc and /sys in its root; never delete through them
    for mount in $(awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r); do
        umount -l "$mount"
    done
    rm -rf --one-file-system "$WORK"
    say docker_wall_s "$(since "$T0")"
    if [ "$status" = 0 ]; then
        printf 'docker: %d passed, 0 failed\n' "$PASSED"
    else
        [ -n "$FAILED" ] || printf 'docker: FAILED: exit status %s (see above)\n' "$status" >&2
        printf 'docker: %d passed, 1 failed\n' "$PASSED"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

apt_install() {   # Debian's packages $@, with one apt-get update per run
    [ "$(id -u)" = 0 ] || fail "installing $* needs root (apt-get)"
    if [ -z "$APT_UPDATED" ]; then
        apt-get update -qq >"$WORK/apt.log" 2>&1 || { show "$WORK/apt.log"; fail "apt-get update failed"; }
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" \
        >>"$WORK/apt.log" 2>&1 || { show "$WORK/apt.log"; fail "apt-get install $* failed"; }
}

# --- 1. the engine and Compose -------------------------------------------
t=$EPOCHREALTIME
need=()
if ! docker info >/dev/null 2>&1; then
    command -v dockerd >/dev/null 2>&1 && command -v docker >/dev/null 2>&1 || need+=(docker.io)
fi
if ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null 2>&1; then
    need+=(docker-compose)
fi
if [ ${#need[@]} -gt 0 ]; then
    apt_install "${need[@]}"
    say installed "${need[*]} ($(since "$t") s)"
fi

if docker info >/dev/null 2>&1; then
    say engine "already running; left running"
else
    [ "$(id -u)" = 0 ] || fail "no Docker engine answers, and starting dockerd needs root"
    pidfile=/var/run/docker.pid     # a pid file left by a dockerd that was killed
    if [ -f "$pidfile" ] && ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then rm -f "$pidfile"; fi
    t=$EPOCHREALTIME
    for driver in overlay2 vfs; do
        log="$WORK/dockerd-$driver.log"
        dockerd --storage-driver="$driver" --bridge=none >"$log" 2>&1 </dev/null &
        ENGINE_PID=$!
        deadline=$((SECONDS + ENGINE_TIMEOUT))
        until docker info >/dev/null 2>&1; do
            if ! kill -0 "$ENGINE_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
                kill "$ENGINE_PID" 2>/dev/null || true
                wait "$ENGINE_PID" 2>/dev/null || true
                ENGINE_PID=""
                echo "docker: dockerd --storage-driver=$driver did not start; its log ends:" >&2
                show "$log" 15
                break
            fi
            sleep 0.2
        done
        [ -n "$ENGINE_PID" ] && break
    done
    [ -n "$ENGINE_PID" ] || fail "the Docker engine could not be started (dockerd with overlay2 and with vfs; logs above)"
    say engine "started dockerd (storage driver $driver, pid $ENGINE_PID) in $(since "$t") s"
fi
say engine_version "$(docker version --format '{{.Server.Version}}')"

if docker compose version >/dev/null 2>&1; then
    COMPOSE=(docker compose)
    say compose "docker compose ($(docker compose version --short))"
else
    COMPOSE=(docker-compose -f compose.yaml)
    say compose "docker-compose -f compose.yaml (Compose v1 $(docker-compose version --short))"
fi

# The host's wall: what a worker network's bridge sends to the host itself
# (the INPUT chain, which Docker's isolation rules leave open) is dropped.
for bridge in $BRIDGES; do
    iptables -I INPUT -i "$bridge" -j DROP || fail "iptables could not add the INPUT rule for $bridge"
    HOST_RULES+=("$bridge")
    ip6tables -I INPUT -i "$bridge" -j DROP 2>/dev/null || true
    iptables -C INPUT -i "$bridge" -j DROP || fail "the INPUT rule for $bridge is not in place"
done
pass host_input_rules "iptables -I INPUT -i BRIDGE -j DROP for $BRIDGES (removed on exit)"

# --- 2. the base image -----------------------------------------------------
if docker image inspect "$BASE" >/dev/null 2>&1; then
    standin=$(docker image inspect -f '{{index .Config.Labels "stand-in"}}' "$BASE")
    say base_image "$BASE, present${standin:+ (the local stand-in: $standin)}"
else
    t=$EPOCHREALTIME
    if ! command -v debootstrap >/dev/null 2>&1; then
        apt_install debootstrap
        say installed debootstrap
    fi
    root="$WORK/rootfs"
    debootstrap --variant=minbase --include=python3 "$SUITE" "$root" >"$WORK/debootstrap.log" 2>&1 \
        || { show "$WORK/debootstrap.log"; fail "debootstrap $SUITE failed"; }
    rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/var/log/* "$root"/tmp/* \
        "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
        "$root"/usr/share/locale/* "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old
    tar --numeric-owner -C "$root" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -c . |
        docker import \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'ENV LANG=C.UTF-8' \
            --change 'CMD ["python3"]' \
            --change "LABEL stand-in=\"debootstrap --variant=minbase --include=python3 $SUITE, not the official image\"" \
            --message "local stand-in for $BASE" - "$BASE" >/dev/null \
        || fail "docker import of the debootstrap root as $BASE failed"
    rm -rf --one-file-system "$root"
    say base_image "$BASE, built as the local stand-in (debootstrap $SUITE) in $(since "$t") s"
fi
say base_python "$(docker run --rm --network none "$BASE" python3 --version)"

# --- 3 to 11. the stages, one file each, in this shell ----------------------
for stage in group-testing examples hostile; do
    # shellcheck source=/dev/null
    source ".ci/docker/$stage.sh"
done
