#!/usr/bin/env bash
# HTTP throughput and latency of `POST /v1/decision` against the engine's own in-process
# decisions/s, measured in the same run.
#
# 1. `cargo bench --bench inprocess`: decisions/s of BuiltinEngine::decide_blocking on the same
#    request, as 1 and as one task per core of rayon's pool (the baseline: where the server
#    runs its decisions), and on 8 calling threads, run before and after the HTTP runs; the
#    mean of the two is the baseline, so load drift on a shared machine hits both.
# 2. `arbiter serve --listen 127.0.0.1:0` on a fresh ARBITER_HOME (rate limit raised), driven
#    by wrk with the 3-question request of examples/support/request.json (model mo) at
#    concurrency 1, 8 and 64 for DURATION seconds each.
# Reports requests/s, p50/p99, the ratios HTTP / in-process at the same parallelism (c=1 vs
# 1 task, c=8 and c=64 vs all cores; target >= 0.9 at c=8; c=8 also vs 8 in-process
# calling threads, the same number in flight), p99/p50 (target < 3), and the
# server's VmRSS idle, under c=8 and c=64 and a minute after the load (bounded concurrency:
# c=64/c=8 RSS <= 1.5, throughput c=64/c=8 >= 0.95, RSS after within 20% of post-warm-up).
# Traffic goes to 127.0.0.1 only.
#
# MODE=metrics measures instead what `server.metrics_listen` costs: the same load (c=8, the
# numbered requests below) on a server with the metrics listener and on one without, each
# fresh, in ROUNDS rounds of DURATION seconds each way, alternating which goes first; a run
# with metrics is scraped halfway. Prints each run's requests/s and the ratio of the totals,
# on / off (target: within 2%, i.e. >= 0.98).
#
# MODE=otlp measures what exporting traces costs: the same load (c=8) on a server with
# OTEL_EXPORTER_OTLP_ENDPOINT pointed at a local sink (a python3 HTTP server that answers
# 200 to every POST and counts the bytes) and on one without, each fresh, in ROUNDS rounds
# of DURATION seconds each way, alternating which goes first. Prints each run's requests/s
# and the server's CPU time per request, and the ratios of the totals, on / off (target for
# throughput: within 5%, i.e. >= 0.95; CPU per request is the steadier figure on a machine
# other work shares); a run with export on must have sent the sink spans, one with it off
# none.
#
# MODE=against measures whether a change made the server slower: a fresh server of this
# build and one of the build at AGAINST (e.g. the commit before the change, built in a
# `git worktree`), each warmed up, then loaded at c=1 and at c=8 for DURATION seconds each,
# in ROUNDS rounds alternating which goes first. Prints each run's requests/s and the ratios
# of the totals, this build / AGAINST (the issue's bound: no worse than 0.97).
#
# Run from anywhere: bash benches/http.sh            (DURATION=10 by default)
#                    MODE=metrics bash benches/http.sh   (ROUNDS=3 by default)
#                    MODE=otlp bash benches/http.sh      (ROUNDS=3 by default)
#                    MODE=against AGAINST=path/to/arbiter bash benches/http.sh  (ROUNDS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
MODE=${MODE:-http}
case "$MODE" in http|metrics|otlp|against) ;; *) echo "MODE is http, metrics, otlp or against, not $MODE" >&2; exit 2 ;; esac
if [ "$MODE" = against ] && [ ! -x "${AGAINST:-}" ]; then
    echo "MODE=against needs AGAINST, the other build's arbiter binary" >&2; exit 2
fi

# --- tools --------------------------------------------------------------------------------
apt_install() { apt-get install -y "$@" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y "$@" >/dev/null; }; }
command -v wrk >/dev/null || apt_install wrk
command -v jq >/dev/null || apt_install jq
command -v curl >/dev/null || apt_install curl

cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/arbiter"

WORK=$(mktemp -d)
. benches/served.sh

# Every request a state the server has not seen (the example's, numbered with "_n"), as
# benches/inprocess.rs decides them, so the engine's state cache never answers. Each run
# numbers from its own offset: post_lua N numbers from N x 10^8.
post_lua() {
    cat >"$WORK/post$1.lua" <<EOF
wrk.method = "POST"
local f = assert(io.open("$WORK/body.json", "r"))
local body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
local n = $1 * 100000000
request = function()
    n = n + 1
    local numbered = body:gsub('"state":{', '"state":{"_n":' .. n .. ',', 1)
    return wrk.format(nil, nil, nil, numbered)
end
EOF
    echo "$WORK/post$1.lua"
}

# answered_rps FILE WHAT: the requests/s of the wrk run in FILE; the bench stops if any
# answer was not 2xx.
answered_rps() {
    local bad
    bad=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$1")
    [ -z "$bad" ] || { echo "$bad non-2xx answers in $2" >&2; exit 1; }
    awk '/^Requests\/sec:/ {print $2}' "$1"
}

# alternate A B FORMAT: ROUNDS rounds of `run_once VARIANT RUN` for variants A and B, in an
# order that turns each round; prints each run as "round N  " then FORMAT of the variant
# and the run's fields, and keeps them in $WORK/runs.txt for `total`.
alternate() {
    local round variant order out run=0
    : >"$WORK/runs.txt"
    for round in $(seq "$ROUNDS"); do
        if [ $((round % 2)) = 1 ]; then order="$1 $2"; else order="$2 $1"; fi
        for variant in $order; do
            run=$((run + 1))
            # Explicitly: a command substitution's shell runs without `set -e`.
            out=$(run_once "$variant" "$run") || exit 1
            # shellcheck disable=SC2086,SC2059 # the fields are words; FORMAT is the caller's
            printf "round %d  $3\n" "$round" "$variant" $out
            echo "$variant $out" >>"$WORK/runs.txt"
        done
    done
}

# total VARIANT N: the sum of the Nth field of VARIANT's runs.
total() { awk -v v="$1" -v f="$(($2 + 1))" '$1 == v {s += $f} END {print s + 0}' "$WORK/runs.txt"; }

if [ "$MODE" = metrics ]; then
    ROUNDS=${ROUNDS:-3}
    jq -c '.model = "mo"' examples/support/request.json >"$WORK/body.json"
    # One run: a fresh server with the metrics listener (on) or without (off), warmed up,
    # then loaded at c=8 (and, when on, scraped halfway); prints its requests/s.
    run_once() {
        local variant=$1 run=$2 scraper="" metrics
        rm -rf "$WORK/home"
        if [ "$variant" = on ]; then
            SERVER_SETTINGS=$'  metrics_listen: 127.0.0.1:0\n' start_server
        else
            SERVER_SETTINGS='' start_server
        fi
        local url="http://$ADDR/v1/decision"
        timeout 30 wrk -t1 -c8 -d3s -s "$(post_lua $((run * 2)))" "$url" >/dev/null
        if [ "$variant" = on ]; then
            metrics=$(sed -n 's|^metrics on \(http://127\.0\.0\.1:[0-9]*/metrics\)$|\1|p' "$WORK/server.out")
            [ -n "$metrics" ] || { echo "no metrics listener in:" >&2; cat "$WORK/server.out" >&2; exit 1; }
            (sleep $((DURATION / 2)); curl -s -m 10 "$metrics" >"$WORK/scrape.txt") &
            scraper=$!
        fi
        timeout $((DURATION + 30)) wrk -t1 -c8 -d"${DURATION}s" --timeout 10s \
            -s "$(post_lua $((run * 2 + 1)))" "$url" >"$WORK/wrk-$run.txt"
        if [ -n "$scraper" ]; then
            wait "$scraper"
            grep -q '^arbiter_http_requests_total{' "$WORK/scrape.txt" \
                || { echo "the scrape counted no request" >&2; exit 1; }
        fi
        stop_server
        answered_rps "$WORK/wrk-$run.txt" "run $run ($variant)"
    }
    echo "== metrics on vs off: c=8, $ROUNDS rounds of ${DURATION} s each way, alternating"
    alternate on off 'metrics %-3s %8s req/s'
    awk -v on="$(total on 1)" -v off="$(total off 1)" -v n="$ROUNDS" 'BEGIN {
        r = on / off
        printf("metrics summary: on %.1f req/s, off %.1f req/s (means of %d runs each); on / off = %.3f (target >= 0.98: %s)\n", on / n, off / n, n, r, (r >= 0.98) ? "met" : "NOT met")
    }'
    exit 0
fi

if [ "$MODE" = otlp ]; then
    ROUNDS=${ROUNDS:-3}
    command -v python3 >/dev/null || apt_install python3
    jq -c '.model = "mo"' examples/support/request.json >"$WORK/body.json"
    # The sink: answers 200 to every POST and appends the size of what it received to a
    # file; prints its port on its first line.
    cat >"$WORK/sink.py" <<'EOF'
import http.server, sys
class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        with open(sys.argv[1], "a") as f:
            f.write(f"{len(body)}\n")
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
print(server.server_address[1], flush=True)
server.serve_forever()
EOF
    : >"$WORK/sink.txt"
    python3 "$WORK/sink.py" "$WORK/sink.txt" >"$WORK/sink.out" &
    SINK_PID=$!
    trap 'kill "$SINK_PID" 2>/dev/null; served_cleanup' EXIT
    for _ in $(seq 100); do [ -s "$WORK/sink.out" ] && break; sleep 0.1; done
    [ -s "$WORK/sink.out" ] || { echo "the sink did not start" >&2; exit 1; }
    SINK="http://127.0.0.1:$(head -n 1 "$WORK/sink.out")"
    # One run: a fresh server exporting its traces to the sink (on) or not (off), warmed
    # up, then loaded at c=8; prints its requests/s. Export on must reach the sink, off
    # must not.
    run_once() {
        local variant=$1 run=$2 before after rps
        rm -rf "$WORK/home"
        if [ "$variant" = on ]; then
            OTEL_EXPORTER_OTLP_ENDPOINT=$SINK start_server
        else
            start_server
        fi
        # Counted once the server listens: `tokens create` exported its own spans.
        before=$(wc -l <"$WORK/sink.txt")
        local url="http://$ADDR/v1/decision"
        timeout 30 wrk -t1 -c8 -d3s -s "$(post_lua $((run * 2)))" "$url" >/dev/null
        local ticks_before ticks_after
        ticks_before=$(cpu_ticks)
        timeout $((DURATION + 30)) wrk -t1 -c8 -d"${DURATION}s" --timeout 10s \
            -s "$(post_lua $((run * 2 + 1)))" "$url" >"$WORK/wrk-$run.txt"
        ticks_after=$(cpu_ticks)
        stop_server
        after=$(wc -l <"$WORK/sink.txt")
        if [ "$variant" = on ] && [ "$after" -le "$before" ]; then
            echo "the sink received no spans in run $run" >&2; exit 1
        elif [ "$variant" = off ] && [ "$after" -ne "$before" ]; then
            echo "spans were sent with export off in run $run" >&2; exit 1
        fi
        rps=$(answered_rps "$WORK/wrk-$run.txt" "run $run ($variant)") || exit 1
        # requests/s, and the server's CPU milliseconds per request over the loaded run
        # (user + system, 100 ticks a second): a figure that other work on the machine
        # disturbs less than throughput.
        awk -v rps="$rps" -v t=$((ticks_after - ticks_before)) '/ requests in / {n = $1}
            END {printf("%s %.2f\n", rps, t * 10 / n)}' "$WORK/wrk-$run.txt"
    }
    # The server's CPU time so far, in clock ticks (utime + stime: fields 14 and 15 of its
    # stat, counted after the parenthesized command).
    cpu_ticks() { sed 's/^.*) //' "/proc/$SERVER_PID/stat" | awk '{print $12 + $13}'; }
    echo "== OTLP export on vs off: c=8, $ROUNDS rounds of ${DURATION} s each way, alternating"
    alternate on off 'export %-3s %8s req/s  %6s ms CPU per request'
    POSTS=$(wc -l <"$WORK/sink.txt")
    BYTES=$(awk '{s += $1} END {print s + 0}' "$WORK/sink.txt")
    awk -v on="$(total on 1)" -v off="$(total off 1)" -v n="$ROUNDS" -v posts="$POSTS" -v bytes="$BYTES" \
        -v on_cpu="$(total on 2)" -v off_cpu="$(total off 2)" 'BEGIN {
        r = on / off
        printf("otlp summary: export on %.1f req/s, off %.1f req/s (means of %d runs each); on / off = %.3f (target >= 0.95: %s); the sink received %d exports, %.1f MiB\n", on / n, off / n, n, r, (r >= 0.95) ? "met" : "NOT met", posts, bytes / 1048576)
        printf("  server CPU per request: export on %.2f ms, off %.2f ms; on / off = %.3f\n", on_cpu / n, off_cpu / n, on_cpu / off_cpu)
    }'
    exit 0
fi


if [ "$MODE" = against ]; then
    ROUNDS=${ROUNDS:-3}
    AGAINST=$(realpath "$AGAINST")
    THIS=$BIN
    jq -c '.model = "mo"' examples/support/request.json >"$WORK/body.json"
    # One run: a fresh server of build $1 (`this` or `against`), warmed up, then c=1 and
    # c=8; prints both requests/s.
    run_once() {
        local run=$2 bin=$THIS c k=0 answered rps=()
        [ "$1" = this ] || bin=$AGAINST
        rm -rf "$WORK/home"
        BIN=$bin start_server
        local url="http://$ADDR/v1/decision"
        timeout 30 wrk -t1 -c8 -d3s -s "$(post_lua $((run * 3)))" "$url" >/dev/null
        for c in 1 8; do
            k=$((k + 1))
            timeout $((DURATION + 30)) wrk -t1 -c"$c" -d"${DURATION}s" --timeout 10s \
                -s "$(post_lua $((run * 3 + k)))" "$url" >"$WORK/wrk-$run-$c.txt"
            answered=$(answered_rps "$WORK/wrk-$run-$c.txt" "run $run ($1, c=$c)") || exit 1
            rps+=("$answered")
        done
        stop_server
        echo "${rps[*]}"
    }
    echo "== this build vs $AGAINST: c=1 and c=8, $ROUNDS rounds of ${DURATION} s each, alternating"
    alternate this against '%-7s c=1 %8s req/s  c=8 %8s req/s'
    awk -v t1="$(total this 1)" -v t8="$(total this 2)" -v a1="$(total against 1)" -v a8="$(total against 2)" -v n="$ROUNDS" 'BEGIN {
        printf("against summary: c=1 this %.1f, against %.1f req/s: %.3f; c=8 this %.1f, against %.1f req/s: %.3f (means of %d runs each; bound >= 0.97: %s)\n", t1 / n, a1 / n, t1 / a1, t8 / n, a8 / n, t8 / a8, n, (t1 / a1 >= 0.97 && t8 / a8 >= 0.97) ? "met" : "NOT met")
    }'
    exit 0
fi


# --- baseline: the engine in process, run before and after the HTTP runs ------------------
cargo bench --quiet --bench inprocess --no-run
inprocess() {
    echo "== in-process baseline ($1; cargo bench --bench inprocess)"
    cargo bench --quiet --bench inprocess 2>/dev/null | tee "$WORK/inprocess-$1.txt"
    grep -q '^inprocess_n_dps=' "$WORK/inprocess-$1.txt" || { echo "inprocess bench printed no figures" >&2; exit 1; }
}
inprocess before

# --- server -------------------------------------------------------------------------------
start_server
URL="http://$ADDR/v1/decision"

RSS_IDLE=$(rss_kib)

jq -c '.model = "mo"' examples/support/request.json >"$WORK/body.json"
STATE_BYTES=$(jq -c .state "$WORK/body.json" | tr -d '\n' | wc -c)
QUESTIONS=$(jq '.questions | length' "$WORK/body.json")
STATUS=$(curl -s -m 30 -o "$WORK/first.json" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data-binary @"$WORK/body.json" "$URL")
[ "$STATUS" = 200 ] || { echo "first request answered $STATUS:" >&2; cat "$WORK/first.json" >&2; exit 1; }
RSS_WARM=$(rss_kib)
echo "== server on $ADDR; request: model mo, $QUESTIONS questions, $STATE_BYTES bytes of state"
echo "   first answer: $(jq -c '.answers | map_values(.choice // .score // .noul)' "$WORK/first.json")"


# Warm-up: a few seconds at c=8 so the outcome cache and connection pools are hot.
timeout 30 wrk -t1 -c8 -d3s -s "$(post_lua 9)" "$URL" >/dev/null
RSS_POSTWARM=$(rss_kib)

# wrk latency figures come as 12.34us / 5.67ms / 1.20s: print milliseconds.
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); print v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v); print v} else if (v ~ /m$/) {sub(/m$/,"",v); print v*60000} else {sub(/s$/,"",v); print v*1000}}'; }

# Probe: the HTTP layer alone (auth, JSON, a 422 problem document; no engine) at c=1.
cat >"$WORK/probe.lua" <<EOF
wrk.method = "POST"
wrk.body = '{"model":"mo","state":{"a":1}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
EOF
timeout 30 wrk -t1 -c1 -d3s --latency -s "$WORK/probe.lua" "$URL" >"$WORK/probe.txt"
PROBE_P50=$(awk '$1 == "50%" {print $2}' "$WORK/probe.txt" | to_ms)
PROBE_RPS=$(awk '/^Requests\/sec:/ {print $2}' "$WORK/probe.txt")
printf 'probe: HTTP layer without the engine (422: no questions), c=1: %s req/s, p50 %.3f ms\n' "$PROBE_RPS" "$PROBE_P50"

RESULTS=()
for C in 1 8 64; do
    SAMPLER_PID=""
    if [ "$C" != 1 ]; then
        # VmRSS every 0.25 s during the run, bounded by the run's length.
        (end=$((SECONDS + DURATION + 2)); while [ $SECONDS -lt $end ] && kill -0 "$SERVER_PID" 2>/dev/null; do
            rss_kib; sleep 0.25; done >"$WORK/rss$C.txt") &
        SAMPLER_PID=$!
    fi
    timeout $((DURATION + 30)) wrk -t1 -c"$C" -d"${DURATION}s" --timeout 10s --latency -s "$(post_lua "$C")" "$URL" >"$WORK/wrk$C.txt"
    [ -n "$SAMPLER_PID" ] && { wait "$SAMPLER_PID" || true; SAMPLER_PID=""; }
    RPS=$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk$C.txt")
    P50=$(awk '$1 == "50%" {print $2}' "$WORK/wrk$C.txt" | to_ms)
    P99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk$C.txt" | to_ms)
    REQS=$(awk '/requests in/ {print $1}' "$WORK/wrk$C.txt")
    BAD=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$WORK/wrk$C.txt")
    ERRS=$(awk '/Socket errors:/ {print $0}' "$WORK/wrk$C.txt")
    RESULTS+=("$C $RPS $P50 $P99 $REQS ${BAD:-0}")
    printf 'c=%-3s %8s req/s  p50 %8.2f ms  p99 %8.2f ms  (%s requests, %s non-2xx) %s\n' \
        "$C" "$RPS" "$P50" "$P99" "$REQS" "${BAD:-0}" "$ERRS"
done
RSS_LOADED=$(sort -n "$WORK/rss64.txt" | tail -n 1)
RSS_LOADED8=$(sort -n "$WORK/rss8.txt" | tail -n 1)
# Memory a minute after the load: what the server gives back.
echo "   (waiting 60 s after the load for the server's memory to settle)"
sleep 60
RSS_AFTER=$(rss_kib)
inprocess after

# The baseline is the mean of the runs before and after, so drift in the machine's load
# during the HTTP runs affects both sides alike.
figure() { sed -n "s/^$1=\([0-9.]*\).*/\1/p" "$WORK/inprocess-$2.txt"; }
IN1=$(awk -v a="$(figure inprocess_1_dps before)" -v b="$(figure inprocess_1_dps after)" 'BEGIN {print (a + b) / 2}')
INN=$(awk -v a="$(figure inprocess_n_dps before)" -v b="$(figure inprocess_n_dps after)" 'BEGIN {print (a + b) / 2}')
IN8=$(awk -v a="$(figure inprocess_8_dps before)" -v b="$(figure inprocess_8_dps after)" 'BEGIN {print (a + b) / 2}')
NTHREADS=$(sed -n 's/^inprocess_n_dps=.* threads=\([0-9]*\).*/\1/p' "$WORK/inprocess-before.txt")

echo
echo "http summary (in-process baseline, mean of before/after: 1 thread $IN1/s, $NTHREADS threads $INN/s, 8 threads $IN8/s):"
for row in "${RESULTS[@]}"; do
    read -r C RPS P50 P99 REQS BAD <<<"$row"
    awk -v c="$C" -v rps="$RPS" -v p50="$P50" -v p99="$P99" -v in1="$IN1" -v inn="$INN" -v in8="$IN8" -v n="$NTHREADS" -v bad="$BAD" 'BEGIN {
        base = (c == 1) ? in1 : inn
        label = (c == 1) ? "1 thread" : (n " threads")
        r = rps / base
        t = p99 / p50
        tr = ""
        if (c == 8) tr = sprintf(" (target >= 0.9: %s; vs 8 in-process threads: %.3f)", (r >= 0.9) ? "met" : "NOT met", rps / in8)
        tt = (t < 3) ? "met" : "NOT met"
        warn = ""
        if (bad + 0 > 0) warn = sprintf("; %d non-2xx!", bad)
        printf("  c=%-3s HTTP/in-process(%s) = %.3f%s; p99/p50 = %.2f (target < 3: %s)%s\n", c, label, r, tr, t, tt, warn)
    }'
done
awk -v idle="$RSS_IDLE" -v warm="$RSS_WARM" -v loaded="$RSS_LOADED" 'BEGIN {
    printf("  server VmRSS: idle after start %.1f MiB, after first decision %.1f MiB, peak during c=64 %.1f MiB (loaded/after-first = %.2f)\n", idle / 1024, warm / 1024, loaded / 1024, loaded / warm)
}'
RPS8=$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk8.txt")
RPS64=$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk64.txt")
awk -v r8="$RSS_LOADED8" -v r64="$RSS_LOADED" -v t8="$RPS8" -v t64="$RPS64" -v warm="$RSS_POSTWARM" -v after="$RSS_AFTER" 'BEGIN {
    m = r64 / r8; t = t64 / t8; a = after / warm
    printf("  bounded concurrency: peak VmRSS c=64 / c=8 = %.1f / %.1f MiB = %.2f (target <= 1.5: %s)\n", r64 / 1024, r8 / 1024, m, (m <= 1.5) ? "met" : "NOT met")
    printf("  throughput c=64 / c=8 = %.3f (target >= 0.95: %s)\n", t, (t >= 0.95) ? "met" : "NOT met")
    printf("  VmRSS 60 s after the load / after warm-up = %.1f / %.1f MiB = %.2f (target within 20%%: %s)\n", after / 1024, warm / 1024, a, (a <= 1.2 && a >= 0.8) ? "met" : "NOT met")
}'
