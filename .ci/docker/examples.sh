# Sourced by .ci/docker.sh, after group-testing.sh (whose check_walls it
# uses): the two examples' runs in Docker, twenty questions and graph
# isomorphism, each against its own local run.
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
