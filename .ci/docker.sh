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
# The walls around the tester (PROGRAM.md, "The walls around the tester"): the
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
HOSTILE="memory_bomb process_bomb files_bomb tmp_fill stdout_flood network_probe"
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

# --- 3. the same set, locally ------------------------------------------------
t=$EPOCHREALTIME
set +e
python3 grader/local.py --out "$WORK/local" >"$WORK/local.log" 2>&1
status=$?
set -e
[ -s "$WORK/local/result.json" ] || { show "$WORK/local.log"; fail "grader/local.py wrote no result (exit $status)"; }
say local_exit "$status ($(since "$t") s)"

# --- 4. the first command, with the cores read inside the running containers -
"${COMPOSE[@]}" down --volumes --remove-orphans >/dev/null 2>&1 </dev/null || true

running() {      # running containers of compose service $1 (any project; matched to ours below)
    docker ps -q --no-trunc --filter "label=com.docker.compose.service=$1" \
        --filter "label=com.docker.compose.oneoff=False" --filter status=running
}
ours() {         # this project's container of service $1, as compose itself names it
    "${COMPOSE[@]}" ps -a -q "$1" </dev/null 2>/dev/null | head -n 1
}
cpus_in() {      # Cpus_allowed_list of PID 1 in running container $1
    docker exec "$1" cat /proc/1/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:[[:space:]]*//p'
}

t=$EPOCHREALTIME
"${COMPOSE[@]}" up --build --abort-on-container-exit --exit-code-from grader \
    </dev/null >"$WORK/up1.log" 2>&1 &
up=$!
declare -A live=()      # container id -> cores, read while the first up runs
while kill -0 "$up" 2>/dev/null; do
    for service in worker grader; do
        for id in $(running "$service"); do
            [ -n "${live[$id]:-}" ] && continue
            cpus=$(cpus_in "$id" || true)
            [ -n "$cpus" ] && live[$id]=$cpus
        done
    done
    sleep 0.05
done
set +e
wait "$up"
status=$?
set -e
say first_up_s "$(since "$t")"
[ "$status" = 0 ] || { show "$WORK/up1.log" 40; fail "the first command exited $status (the grader's exit status)"; }

worker_id=$(ours worker)
grader_id=$(ours grader)
[ -n "$worker_id" ] && [ -n "$grader_id" ] || fail "the first command left no worker and grader containers to inspect"
worker_id=$(docker inspect -f '{{.Id}}' "$worker_id")
grader_id=$(docker inspect -f '{{.Id}}' "$grader_id")
PROJECT=$(docker inspect -f '{{index .Config.Labels "com.docker.compose.project"}}' "$grader_id")
worker_image=$(docker inspect -f '{{.Image}}' "$worker_id")
grader_image=$(docker inspect -f '{{.Image}}' "$grader_id")
IMAGES+=("$worker_image" "$grader_image")
say project "$PROJECT"
code=$(docker inspect -f '{{.State.ExitCode}}' "$grader_id")
[ "$code" = 0 ] || fail "the grader's container exited $code"
pass grader_exit "$code"
sed 's/\x1b\[[0-9;]*m//g' "$WORK/up1.log" \
    | sed -n -E 's/^grader[^|]*\| (status|kind|relative_tests|instances): /grader_\1: /p'

for service in worker grader; do
    id=$([ "$service" = worker ] && echo "$worker_id" || echo "$grader_id")
    want=$([ "$service" = worker ] && echo "$WORKER_CPUS" || echo "$GRADER_CPUS")
    if [ -n "${live[$id]:-}" ]; then
        cpus=${live[$id]}
        how="docker exec into its running container, /proc/1/status of the main process"
    else   # it ended before docker exec reached it: a container of the same service reads it
        cpus=$("${COMPOSE[@]}" run --rm --no-deps --entrypoint cat "$service" /proc/1/status \
            </dev/null 2>/dev/null | sed -n 's/^Cpus_allowed_list:[[:space:]]*//p')
        how="compose run --rm of the service (it ended before docker exec), /proc/1/status"
    fi
    cpuset=$(docker inspect -f '{{.HostConfig.CpusetCpus}}' "$id")
    [ "$cpus" = "$want" ] || fail "the $service ran on cores '${cpus:-unread}', not $want"
    [ "$cpuset" = "$want" ] || fail "the $service container's cpuset is '$cpuset', not $want"
    pass "${service}_cpus" "$cpus"
    say "${service}_cpus_read" "$how; its container's cpuset: $cpuset"
done

for network in $(docker inspect -f '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}} {{end}}' "$worker_id"); do
    internal=$(docker network inspect -f '{{.Internal}}' "$network")
    [ "$internal" = true ] || fail "the worker's network $network is not internal"
    pass worker_network "$network, internal: $internal"
done
check_walls() {   # the walls of worker container $1 ($2 names it), read back from the engine
    local got want
    got=$(docker inspect -f 'memory={{.HostConfig.Memory}} swap={{.HostConfig.MemorySwap}} pids={{.HostConfig.PidsLimit}} nofile={{range .HostConfig.Ulimits}}{{.Name}}:{{.Soft}}:{{.Hard}}{{end}} read_only={{.HostConfig.ReadonlyRootfs}} tmpfs={{range $k, $v := .HostConfig.Tmpfs}}{{$k}}:{{$v}}{{end}} log={{.HostConfig.LogConfig.Type}}:{{index .HostConfig.LogConfig.Config "max-size"}}x{{index .HostConfig.LogConfig.Config "max-file"}} cap_drop={{join .HostConfig.CapDrop ","}} security_opt={{join .HostConfig.SecurityOpt ","}} dns={{join .HostConfig.DNS ","}} oom_score_adj={{.HostConfig.OomScoreAdj}} user={{.Config.User}}' "$1")
    want="memory=536870912 swap=536870912 pids=256 nofile=nofile:1024:1024 read_only=true tmpfs=/tmp:size=64m log=json-file:1mx1 cap_drop=ALL security_opt=no-new-privileges:true dns=127.0.0.1 oom_score_adj=1000 user=nobody"
    [ "$got" = "$want" ] || fail "the $2 container's walls are '$got', not '$want'"
    pass "$2_walls" "$got"
}
check_walls "$worker_id" worker
bridge_ipv4=$(ip -4 -o addr show dev gt-inner0 2>&1 || true)
[ -z "$bridge_ipv4" ] || fail "the worker network's bridge gt-inner0 has an IPv4 address: $bridge_ipv4"
pass worker_bridge "gt-inner0, no IPv4 address (inhibit_ipv4): no route from the worker to the host"

# From inside a container of the worker's service, on its networks: a probe
# listening on a network of its own (an address of this run, nothing else) is
# out of reach, while a container on the probe's network reaches it.
docker network create --label "group-testing-ci=$PROJECT" "$PROBE" >/dev/null
docker run -d --name "$PROBE" --network "$PROBE" --entrypoint python3 "$BASE" -c \
    "import socket; s = socket.create_server(('0.0.0.0', 9)); [s.accept()[0].close() for _ in iter(int, 1)]" >/dev/null
probe_ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$PROBE")
connect="import socket, sys
try:
    socket.create_connection(('$probe_ip', 9), timeout=3).close(); print('reached')
except OSError as e:
    print('unreachable (%s)' % e)"
from_worker=$("${COMPOSE[@]}" run --rm --no-deps --entrypoint python3 worker -c "$connect" </dev/null 2>/dev/null | tail -n 1)
from_probe_net=$(docker run --rm --network "$PROBE" --entrypoint python3 "$BASE" -c "$connect" 2>/dev/null | tail -n 1)
[ "$from_probe_net" = reached ] || fail "the probe at $probe_ip is not reachable even from its own network: $from_probe_net"
case "$from_worker" in unreachable*) ;; *) fail "the worker's container reached a probe outside its network ($probe_ip): $from_worker";; esac
pass worker_reaches_outside "$from_worker; the probe's own network: $from_probe_net"

# --- 5. the second command: the result, against the local run's --------------
result_of() {    # the second command, into file $1
    "${COMPOSE[@]}" run --rm --no-deps --entrypoint cat grader /result/result.json \
        </dev/null >"$1" 2>"$1.err" || { show "$1.err"; fail "the second command failed"; }
}
compare() {      # file $1 (what $2 printed) against local result $3 (the sample's), byte for byte
    local want=${3:-$WORK/local/result.json}
    if ! cmp -s "$1" "$want"; then
        { diff "$1" "$want" || true; } | head -n 20 | sed 's/^/    /' >&2
        fail "result.json printed by $2 differs from grader/local.py's (diff above: < Docker, > local)"
    fi
}
result_of "$WORK/docker-result.json"
compare "$WORK/docker-result.json" "the second command"
pass docker_result_sha256 "$(sha256sum <"$WORK/docker-result.json" | cut -d' ' -f1)"
say local_result_sha256 "$(sha256sum <"$WORK/local/result.json" | cut -d' ' -f1)"
say result_bytes "$(wc -c <"$WORK/docker-result.json")"

# --- 6. what the worker's image holds ----------------------------------------
in_worker() { docker run --rm --network none --user 0 --entrypoint "$1" "$worker_image" "${@:2}"; }
found=$(in_worker find / -xdev \( -name '*.jsonl' -o -name autoresearch.toml -o -name grade.py \
    -o -name problem.py -o -name arh_grader -o -name group_testing -o -name 'grader' -o -name items.jsonl \) -print)
[ -z "$found" ] || fail "the worker's image holds instance or grader files: $(echo $found)"
top=$(in_worker find /app -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')
[ "$top" = "harness src " ] || fail "the worker's /app holds '$top', not harness and src only"
image_sums=$(in_worker sh -c 'cd /app && find . -type f -printf "%P\n" | LC_ALL=C sort | xargs sha256sum')
host_sums=$(find harness src -type f ! -name '*.pyc' ! -path '*/__pycache__/*' | LC_ALL=C sort | xargs sha256sum)
[ "$image_sums" = "$host_sums" ] || {
    { diff <(echo "$image_sums") <(echo "$host_sums") || true; } | sed 's/^/    /' >&2
    fail "the worker's /app differs from the project's harness/ and src/"
}
pass worker_image_app "$(echo "$image_sums" | awk '{ printf "%s ", $2 }')(same bytes as the project's)"
say worker_image_instance_or_grader_files none
setuid=$(in_worker find / -xdev -perm /6000 -type f -print)
[ -z "$setuid" ] || fail "the worker's image holds setuid or setgid files: $(echo $setuid)"
pass worker_image_setuid "none (no file with the setuid or setgid bit)"
base_size=$(docker image inspect -f '{{.Size}}' "$BASE")
for side in worker grader; do
    image=$([ "$side" = worker ] && echo "$worker_image" || echo "$grader_image")
    say "${side}_image_added_bytes" "$(( $(docker image inspect -f '{{.Size}}' "$image") - base_size ))"
done

# --- 7. the third command, then a second up that must start clean ------------
leftovers() {    # this project's containers, volumes and networks, one line each
    docker ps -aq --filter "label=com.docker.compose.project=$PROJECT"
    docker volume ls -q --filter "label=com.docker.compose.project=$PROJECT"
    docker network ls -q --filter "label=com.docker.compose.project=$PROJECT"
}
"${COMPOSE[@]}" run --rm --no-deps --entrypoint touch grader /result/left-by-the-first-run \
    </dev/null >/dev/null 2>&1 || fail "could not mark the first run's volume"
"${COMPOSE[@]}" down --volumes </dev/null >"$WORK/down1.log" 2>&1 \
    || { show "$WORK/down1.log"; fail "the third command failed"; }
[ -z "$(leftovers)" ] || fail "down --volumes left: $(leftovers | tr '\n' ' ')"
pass down_left "nothing (no container, volume or network of project $PROJECT)"

t=$EPOCHREALTIME
set +e
"${COMPOSE[@]}" up --build --abort-on-container-exit --exit-code-from grader \
    </dev/null >"$WORK/up2.log" 2>&1
status=$?
set -e
say second_up_s "$(since "$t")"
for service in worker grader; do
    id=$(ours "$service"); [ -z "$id" ] || IMAGES+=("$(docker inspect -f '{{.Image}}' "$id")")
done
[ "$status" = 0 ] || { show "$WORK/up2.log" 40; fail "the second up exited $status"; }
listing=$("${COMPOSE[@]}" run --rm --no-deps --entrypoint ls grader -A /result </dev/null 2>/dev/null | tr '\n' ' ')
[ "$listing" = "result.json " ] || fail "the second up's /result holds '$listing', not a fresh result.json only"
pass second_up_result_dir "$listing(the first run's volume is gone)"
result_of "$WORK/docker-result-2.json"
compare "$WORK/docker-result-2.json" "the second command after the second up"
pass second_result_sha256 "$(sha256sum <"$WORK/docker-result-2.json" | cut -d' ' -f1)"
"${COMPOSE[@]}" down --volumes </dev/null >"$WORK/down2.log" 2>&1 \
    || { show "$WORK/down2.log"; fail "the third command failed after the second up"; }
[ -z "$(leftovers)" ] || fail "the second down --volumes left: $(leftovers | tr '\n' ' ')"

# --- 8. a held-out set given at run time ---------------------------------------
HELD_OUT_COUNT=500
t=$EPOCHREALTIME
python3 grader/instances.py --count "$HELD_OUT_COUNT" --out "$WORK/held-out.jsonl" \
    >"$WORK/draw.log" 2>&1 || { show "$WORK/draw.log"; fail "grader/instances.py could not draw the held-out set"; }
chmod 0644 "$WORK/held-out.jsonl"
set +e
python3 grader/local.py --items "$WORK/held-out.jsonl" --out "$WORK/local-held-out" \
    >"$WORK/local-held-out.log" 2>&1
status=$?
set -e
[ -s "$WORK/local-held-out/result.json" ] || { show "$WORK/local-held-out.log"; fail "grader/local.py wrote no result for the held-out set (exit $status)"; }
say held_out "$HELD_OUT_COUNT instances drawn with a secret seed; local.py exit $status ($(since "$t") s)"

t=$EPOCHREALTIME
set +e
"${COMPOSE[@]}" run --rm --use-aliases -v "$WORK/held-out.jsonl:/sets/held-out.jsonl:ro" grader --items /sets/held-out.jsonl \
    </dev/null >"$WORK/held-out-run.log" 2>&1
status=$?
set -e
say held_out_run_s "$(since "$t")"
[ "$status" = 0 ] || { show "$WORK/held-out-run.log" 40; fail "the held-out run exited $status (the grader's exit status)"; }
pass held_out_grader_exit "$status"
result_of "$WORK/docker-held-out.json"
compare "$WORK/docker-held-out.json" "the second command after the held-out run" \
    "$WORK/local-held-out/result.json"
instances=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["items"]))' \
    "$WORK/docker-held-out.json")
[ "$instances" = "$HELD_OUT_COUNT" ] || fail "the held-out result has $instances instances, not $HELD_OUT_COUNT"
pass held_out_result_sha256 "$(sha256sum <"$WORK/docker-held-out.json" | cut -d' ' -f1) ($instances instances, same bytes as local.py --items)"

worker_id=$(ours worker)
[ -n "$worker_id" ] || fail "the held-out run left no worker container to inspect"
IMAGES+=("$(docker inspect -f '{{.Image}}' "$worker_id")")
mounts=$(docker inspect -f '{{range .Mounts}}{{.Destination}} {{end}}' "$worker_id")
[ -z "$mounts" ] || fail "the worker's container of the held-out run mounts: $mounts"
found=$(docker exec --user 0 "$worker_id" find / -xdev -name '*.jsonl' -print 2>/dev/null || true)
[ -z "$found" ] || fail "the worker's container of the held-out run holds instance files: $(echo $found)"
pass held_out_worker "no mount, no instance file in its running container"
"${COMPOSE[@]}" down --volumes </dev/null >"$WORK/down3.log" 2>&1 \
    || { show "$WORK/down3.log"; fail "the third command failed after the held-out run"; }
[ -z "$(leftovers)" ] || fail "down --volumes after the held-out run left: $(leftovers | tr '\n' ' ')"

# --- 9. the second problem, twenty questions, on the same template -----------
compose_for() {   # array $1 := the compose command of project $2 with file $3
    local -n into=$1
    if [ "${COMPOSE[0]}" = docker-compose ]; then into=(docker-compose -p "$2" -f "$3")
    else into=(docker compose -p "$2" -f "$3"); fi
}
example_up() {    # the first command of the compose command in array $1, logged to $2;
    local -n with=$1    # its status, the images it built kept for the cleanup
    local status=0 service id
    "${with[@]}" up --build --abort-on-container-exit --exit-code-from grader \
        </dev/null >"$2" 2>&1 || status=$?
    for service in worker grader; do
        id=$("${with[@]}" ps -a -q "$service" </dev/null 2>/dev/null | head -n 1)
        [ -z "$id" ] || IMAGES+=("$(docker inspect -f '{{.Image}}' "$id")")
    done
    return "$status"
}
TQ=examples/twenty-questions
compose_for TQ_COMPOSE tq "$TQ/compose.yaml"
t=$EPOCHREALTIME
python3 "$TQ/tq/local.py" --out "$WORK/tq-local" >"$WORK/tq-local.log" 2>&1 \
    || { show "$WORK/tq-local.log"; fail "$TQ/tq/local.py failed"; }
status=0
example_up TQ_COMPOSE "$WORK/tq-up.log" || status=$?
say tq_up_s "$(since "$t")"
tq_worker=$("${TQ_COMPOSE[@]}" ps -a -q worker </dev/null 2>/dev/null | head -n 1)
[ -n "$tq_worker" ] || fail "twenty questions' first command left no worker container to inspect"
check_walls "$tq_worker" tq_worker
tq_setuid=$(docker run --rm --network none --user 0 --entrypoint find "$(docker inspect -f '{{.Image}}' "$tq_worker")" / -xdev -perm /6000 -type f -print)
[ -z "$tq_setuid" ] || fail "twenty questions' worker image holds setuid or setgid files: $(echo $tq_setuid)"
[ "$status" = 0 ] || { show "$WORK/tq-up.log" 40; fail "twenty questions' first command exited $status"; }
"${TQ_COMPOSE[@]}" run --rm --no-deps --entrypoint cat grader /result/result.json \
    </dev/null >"$WORK/tq-docker.json" 2>"$WORK/tq-docker.err" \
    || { show "$WORK/tq-docker.err"; fail "twenty questions' second command failed"; }
cmp -s "$WORK/tq-docker.json" "$WORK/tq-local/result.json" \
    || fail "twenty questions' result.json from Docker differs from $TQ/tq/local.py's"
pass tq_result_sha256 "$(sha256sum <"$WORK/tq-docker.json" | cut -d' ' -f1) (the same bytes as $TQ/tq/local.py; $(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print("mean_score %s, bound %s, found %s of %s" % (r["mean_score"], r["bound"], r["found"], r["instances"]))' "$WORK/tq-docker.json"))"
"${TQ_COMPOSE[@]}" down --volumes </dev/null >"$WORK/tq-down.log" 2>&1 \
    || { show "$WORK/tq-down.log"; fail "twenty questions' third command failed"; }

# --- 10. the third problem, graph isomorphism, counted by an emulator --------
# Its grader's image builds the pinned tree, emulator and plugin (gi/setup.py),
# and runs the solver under the emulator as the local run does: the same bytes.
GI=examples/algotune-graph-isomorphism
compose_for GI_COMPOSE gi "$GI/compose.yaml"
t=$EPOCHREALTIME
python3 "$GI/gi/setup.py" >"$WORK/gi-setup.log" 2>&1 \
    || { show "$WORK/gi-setup.log"; fail "$GI/gi/setup.py failed"; }
python3 "$GI/gi/local.py" --out "$WORK/gi-local" >"$WORK/gi-local.log" 2>&1 \
    || { show "$WORK/gi-local.log"; fail "$GI/gi/local.py failed"; }
say gi_local_s "$(since "$t")"
# The local setup's downloads seed the image's build (downloads/README.md; each
# is checked against its pin there too): this machine reaches PyPI only through
# a proxy whose certificate authority a fresh image does not hold.
GI_SEEDED="$GI/downloads"
for part in debs wheels include; do
    cp -a "/opt/algotune-graph-isomorphism/cache/$part" "$GI_SEEDED/"
done
say gi_seeded "$(find "$GI_SEEDED" -type f ! -name README.md | wc -l) pinned files of the local setup"
t=$EPOCHREALTIME
status=0
example_up GI_COMPOSE "$WORK/gi-up.log" || status=$?
say gi_up_s "$(since "$t") (the grader's image built from the pins, then the run)"
[ "$status" = 0 ] || { show "$WORK/gi-up.log" 40; fail "graph isomorphism's first command exited $status"; }
gi_worker=$("${GI_COMPOSE[@]}" ps -a -q worker </dev/null 2>/dev/null | head -n 1)
gi_grader=$("${GI_COMPOSE[@]}" ps -a -q grader </dev/null 2>/dev/null | head -n 1)
[ -n "$gi_worker" ] && [ -n "$gi_grader" ] || fail "graph isomorphism's first command left no containers to inspect"
check_walls "$gi_worker" gi_worker
gi_worker_image=$(docker inspect -f '{{.Image}}' "$gi_worker")
gi_top=$(docker run --rm --network none --user 0 --entrypoint sh "$gi_worker_image" -c \
    'cd /app && find . -type f | LC_ALL=C sort | tr "\n" " "; find / -xdev -perm /6000 -type f')
[ "$gi_top" = "./harness/arh_oracle_link.py ./harness/arh_worker.py ./harness/worker.py ./src/solver.py " ] \
    || fail "graph isomorphism's worker image holds '$gi_top', not the template, its worker and src/ alone (or a setuid file)"
pass gi_worker_image "$gi_top(no package, no setuid or setgid file)"
gi_grader_walls=$(docker inspect -f 'cap_add={{join .HostConfig.CapAdd ","}} cpuset={{.HostConfig.CpusetCpus}}' "$gi_grader")
[ "$gi_grader_walls" = "cap_add=SYS_ADMIN cpuset=1" ] \
    || fail "graph isomorphism's grader container is '$gi_grader_walls'"
pass gi_grader_container "$gi_grader_walls"
landlock=$(docker run --rm --network none --entrypoint python3 "$(docker inspect -f '{{.Image}}' "$gi_grader")" \
    -c 'import sys; sys.path.insert(0, "grader"); from arh_grader import sandbox; print(sandbox.Walls().describe())' 2>&1 | tail -n 1)
say gi_grader_landlock "$landlock (the emulator's walls in the grader's container)"
"${GI_COMPOSE[@]}" run --rm --no-deps --entrypoint cat grader /result/result.json \
    </dev/null >"$WORK/gi-docker.json" 2>"$WORK/gi-docker.err" \
    || { show "$WORK/gi-docker.err"; fail "graph isomorphism's second command failed"; }
if ! cmp -s "$WORK/gi-docker.json" "$WORK/gi-local/result.json"; then
    { diff "$WORK/gi-docker.json" "$WORK/gi-local/result.json" || true; } | head -n 20 | sed 's/^/    /' >&2
    fail "graph isomorphism's result.json from Docker differs from $GI/gi/local.py's (diff above: < Docker, > local)"
fi
pass gi_result_sha256 "$(sha256sum <"$WORK/gi-docker.json" | cut -d' ' -f1) (the same bytes as $GI/gi/local.py; $(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print("instruction_ratio %s, instructions %s, instances %s" % (r["instruction_ratio"], r["instructions"], r["instances"]))' "$WORK/gi-docker.json"))"
"${GI_COMPOSE[@]}" down --volumes </dev/null >"$WORK/gi-down.log" 2>&1 \
    || { show "$WORK/gi-down.log"; fail "graph isomorphism's third command failed"; }
GI_COMPOSE=()

# --- 11. hostile testers behind the walls -------------------------------------
# A listener of this script on every address of the host (TCP LISTEN_PORT, and
# DNS on UDP 53 where free) logs whoever reaches it (for DNS: the probe's name,
# wherever it comes from, dockerd's own forwarding included); the network probe
# is given every address of the host but loopback, and finds its gateway itself.
host_addresses=$(ip -4 -o addr show | awk '$2 != "lo" { sub("/.*", "", $4); print $4 }' | tr '\n' ' ')
python3 - "$LISTEN_PORT" >"$WORK/listener.log" 2>&1 </dev/null <<'LISTENER' &
import socket, sys, threading
tcp = socket.create_server(("0.0.0.0", int(sys.argv[1])))
def dns():
    try:
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind(("0.0.0.0", 53))
    except OSError as e:
        print("dns listener: not bound (%s)" % e, flush=True)
        return
    while True:         # the probe's own queries; the host's lookups of its own are not
        data, peer = udp.recvfrom(2048)
        print("%s: udp 53 from %s:%d" % (("reached" if b"leak-check" in data else "other",) + peer),
              flush=True)
threading.Thread(target=dns, daemon=True).start()
print("listening", flush=True)
while True:
    conn, peer = tcp.accept()
    print("reached: tcp %s from %s:%d" % ((sys.argv[1],) + peer), flush=True)
    conn.close()
LISTENER
LISTENER_PID=$!
for _ in $(seq 50); do grep -q listening "$WORK/listener.log" && break; sleep 0.1; done
grep -q listening "$WORK/listener.log" || { show "$WORK/listener.log"; fail "the host's listener did not start"; }
targets=""
for address in $host_addresses; do targets+="$address:$LISTEN_PORT "; done
say hostile_targets "${targets% } (the host's addresses; the gateway the probe finds itself)"

docker_root=$(docker info -f '{{.DockerRootDir}}')
disk_used() { df -B1 --output=used "$docker_root" | tail -n 1 | tr -d ' '; }
docker tag "$worker_image" group-testing-ci-worker:hostile     # the worker's image, the tester replaced below
IMAGES+=(group-testing-ci-worker:hostile)
hostile_t=$EPOCHREALTIME
for name in $HOSTILE; do
    dir="$WORK/hostile/$name"
    mkdir -p "$dir"
    cp "tests/testers/hostile/$name.py" "$dir/tester.py"
    printf 'FROM group-testing-ci-worker:hostile\nCOPY tester.py src/tester.py\n' >"$dir/Dockerfile"
    cat >"$dir/compose.yaml" <<OVERRIDE
services:
  worker:
    build: {context: $dir, dockerfile: Dockerfile}
    environment:
      AR_PROBE_TARGETS: "${targets% }"
  grader:
    command: ["--limit", "1", "--instance-timeout", "$HOSTILE_TIMEOUT"]
OVERRIDE
    if [ "${COMPOSE[0]}" = docker-compose ]; then
        HOSTILE_COMPOSE=(docker-compose -p gt-hostile -f compose.yaml -f "$dir/compose.yaml")
    else
        HOSTILE_COMPOSE=(docker compose -p gt-hostile -f compose.yaml -f "$dir/compose.yaml")
    fi
    "${HOSTILE_COMPOSE[@]}" build </dev/null >"$dir/build.log" 2>&1 \
        || { show "$dir/build.log"; fail "the hostile worker $name did not build"; }
    before=$(disk_used)
    t=$EPOCHREALTIME
    set +e
    # the worker's output reaches this script through `up`: kept to its end, off the disk
    "${HOSTILE_COMPOSE[@]}" up --abort-on-container-exit --exit-code-from grader </dev/null 2>&1 \
        | tail -c 20000 >"$dir/up.log"
    status=${PIPESTATUS[0]}
    set -e
    seconds=$(since "$t")
    grown=$(( ($(disk_used) - before) / 1048576 ))
    for service in worker grader; do
        id=$("${HOSTILE_COMPOSE[@]}" ps -a -q "$service" </dev/null 2>/dev/null | head -n 1)
        [ -z "$id" ] || IMAGES+=("$(docker inspect -f '{{.Image}}' "$id")")
    done
    why=""
    "${HOSTILE_COMPOSE[@]}" run --rm --no-deps --entrypoint cat grader /result/result.json \
        </dev/null >"$dir/result.json" 2>"$dir/result.err" || why="no result.json (grader exit $status)"
    kind=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print("valid" if r["status"] == "valid" else r["kind"])' \
        "$dir/result.json" 2>/dev/null || echo unreadable)
    message=$(python3 -c 'import json, sys; print((json.load(open(sys.argv[1]))["message"] or "")[-300:].replace("\n", " "))' \
        "$dir/result.json" 2>/dev/null || true)
    if [ -z "$why" ]; then
        case "$kind" in
            valid|wrong|oracle_cap|no_answer|schema|timeout) ;;
            *) why="kind $kind is not a submission's (grader exit $status)";;
        esac
    fi
    [ -n "$why" ] || [ "$status" = 0 ] || why="the grader exited $status"
    awk -v s="$seconds" -v m=$((HOSTILE_TIMEOUT + HOSTILE_GRACE_S)) 'BEGIN { exit !(s > m) }' \
        && why="${why:+$why; }$seconds s, past the deadline and its grace ($((HOSTILE_TIMEOUT + HOSTILE_GRACE_S)) s)"
    [ "$grown" -le "$HOSTILE_DISK_MB" ] || why="${why:+$why; }the disk of $docker_root grew $grown MiB (bound $HOSTILE_DISK_MB)"
    if [ "$name" = network_probe ]; then
        [ "$kind" = valid ] || why="${why:+$why; }the probe reached past the oracle or missed it: $message"
        if grep -q '^reached' "$WORK/listener.log"; then
            why="${why:+$why; }the host's listener was reached: $(grep '^reached' "$WORK/listener.log" | tr '\n' ' ')"
        fi
        found=$("${HOSTILE_COMPOSE[@]}" logs --no-color worker </dev/null 2>/dev/null | sed -n 's/.*network_probe: //p' | tail -n 1)
        say hostile_network_probe_saw "${found:-nothing printed}; the host's listener: $(grep -c '^reached' "$WORK/listener.log" || true) connections"
    fi
    [ -z "$message" ] || say "hostile_${name}_message" "$message"
    "${HOSTILE_COMPOSE[@]}" down --volumes --remove-orphans </dev/null >"$dir/down.log" 2>&1 || true
    if [ -n "$why" ]; then
        show "$dir/up.log" 20
        printf 'hostile: %s kind: %s seconds: %s FAILED: %s\n' "$name" "$kind" "$seconds" "$why"
        fail "hostile tester $name: $why"
    fi
    PASSED=$((PASSED + 1))
    printf 'hostile: %s kind: %s seconds: %s ok (disk grew %d MiB)\n' "$name" "$kind" "$seconds" "$grown"
done
HOSTILE_COMPOSE=()
say hostile_s "$(since "$hostile_t")"
