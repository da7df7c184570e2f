# Sourced by the benches that load a real `arbiter serve` (http.sh, jevbench.sh), once BIN
# (the release binary) and WORK (a temporary directory) are set.
#
# start_server: a fresh ARBITER_HOME under $WORK with the rate limit out of the way (and the
# lines of SERVER_SETTINGS, if set, added under `server:`), a token in TOKEN (of the scopes
# in TOKEN_SCOPES, `decisions` by default), and the server on a loopback port (ADDR,
# SERVER_PID). BEFORE_SERVE, if set, is run (as a command) before the server starts.
# stop_server: SIGTERM, then SIGKILL if it is still there after 5 s.
# On exit (a trap set here): a sampler in SAMPLER_PID (if a bench started one) is killed,
# the server stopped and $WORK removed.

SERVER_PID=""
SAMPLER_PID=""

# rss_kib: the server's resident memory now, in KiB.
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status"; }

# release_binary: BIN as given, else the release binary, built first.
release_binary() {
    if [ -z "${BIN:-}" ]; then
        cargo build --release --quiet
        BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/arbiter"
    fi
}

start_server() {
    command -v jq >/dev/null || { apt-get install -y jq >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y jq >/dev/null; }; }
    export ARBITER_HOME="$WORK/home"
    mkdir -p "$ARBITER_HOME"
    printf 'server:\n  rate_limit:\n    per_second: 1000000\n    burst: 1000000\n%s' "${SERVER_SETTINGS:-}" >"$ARBITER_HOME/config.yaml"
    local scopes=() scope
    for scope in ${TOKEN_SCOPES:-decisions}; do scopes+=(--scope "$scope"); done
    TOKEN=$("$BIN" tokens create --name bench "${scopes[@]}" --role '*=reader' --json 2>/dev/null | jq -r .token)
    [ -n "$TOKEN" ] && [ "$TOKEN" != null ] || { echo "no token" >&2; exit 1; }
    [ -z "${BEFORE_SERVE:-}" ] || $BEFORE_SERVE

    "$BIN" serve --listen 127.0.0.1:0 >"$WORK/server.out" 2>"$WORK/server.err" &
    SERVER_PID=$!
    ADDR=""
    for _ in $(seq 300); do   # at most 30 s
        ADDR=$(sed -n 's|^listening on http://\(.*\)$|\1|p' "$WORK/server.out" | head -n 1)
        [ -n "$ADDR" ] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { echo "server died:" >&2; cat "$WORK/server.err" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$ADDR" ] || { echo "server did not say where it listens" >&2; exit 1; }
    case "$ADDR" in 127.0.0.1:*) ;; *) echo "refusing to load $ADDR: not loopback" >&2; exit 1 ;; esac
}

# start_sampler SECONDS: the server's VmRSS every SECONDS into $WORK/rss.txt, until
# stop_sampler, which sets RSS_PEAK to the highest reading.
start_sampler() {
    (while kill -0 "$SERVER_PID" 2>/dev/null; do rss_kib; sleep "$1"; done >"$WORK/rss.txt") &
    SAMPLER_PID=$!
}
stop_sampler() {
    kill "$SAMPLER_PID" 2>/dev/null || true
    SAMPLER_PID=""
    RSS_PEAK=$(sort -n "$WORK/rss.txt" | tail -n 1)
}

# report_settled WHEN SECONDS: VmRSS at idle (RSS_IDLE), after warm-up (RSS_WARM), at its
# peak (RSS_PEAK), at WHEN (RSS_END, e.g. "the last answer") and SECONDS later (RSS_AFTER),
# and the last against after warm-up, the target being within 20%.
report_settled() {
    awk -v idle="$RSS_IDLE" -v warm="$RSS_WARM" -v peak="$RSS_PEAK" -v end="$RSS_END" -v after="$RSS_AFTER" -v when="$1" -v later="$2" 'BEGIN {
        a = after / warm
        printf("   VmRSS: idle %.1f MiB, after warm-up %.1f MiB, peak %.1f MiB, at %s %.1f MiB, %d s later %.1f MiB\n", idle / 1024, warm / 1024, peak / 1024, when, end / 1024, later, after / 1024)
        printf("   %d s after / after warm-up = %.2f (target within 20%%: %s)\n", later, a, (a <= 1.2 && a >= 0.8) ? "met" : "NOT met")
    }'
}

# varied_words SEED BYTES: BYTES of words of 2 to 9 letters drawn at random with SEED (no
# word repeated on purpose, so no two windows of a state, and no two states, read alike).
varied_words() {
    awk -v seed="$1" -v n="$2" 'BEGIN {
        srand(seed); letters = "abcdefghijklmnopqrstuvwxyz"; written = 0
        while (written < n) {
            w = ""; k = 2 + int(rand() * 8)
            for (j = 0; j < k; j++) w = w substr(letters, 1 + int(rand() * 26), 1)
            printf "%s ", w; written += k + 1
        }
    }'
}

stop_server() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$SERVER_PID" 2>/dev/null || true
    fi
}

served_cleanup() {
    [ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null || true
    stop_server
    rm -rf "$WORK"
}
trap served_cleanup EXIT
