# Sourced by .ci/docker.sh, last: the hostile testers of tests/testers/hostile/
# behind the worker's walls, in the worker's image of group-testing.sh.
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
