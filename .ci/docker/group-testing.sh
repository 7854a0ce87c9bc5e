# Sourced by .ci/docker.sh, after the engine and the base image: group
# testing's run in Docker (sections 3 to 8 of that script's header), with its
# settings, helpers and cleanup.
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
    local want=${3:-$WORK/local/result.json} missing
    # On a host whose kernel refused local.py a wall, its result names them
    # ("walls_missing"), which the container's grader never writes: said
    # here, and the bytes compared without that key (as local.py writes them).
    if grep -q '"walls_missing"' "$want"; then
        missing=$(python3 -c 'import json, sys; sys.path.insert(0, "grader")
from arh_grader.result import json_bytes
result = json.load(open(sys.argv[1]))
print(", ".join(result.pop("walls_missing")))
open(sys.argv[2], "wb").write(json_bytes(result))' "$want" "$want.walled") \
            || fail "cannot read the walls_missing of $want"
        say local_walls_missing "$missing (compared without that key)"
        want=$want.walled
    fi
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
