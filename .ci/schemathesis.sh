#!/usr/bin/env bash
# Fuzz a real `arbiter serve` with schemathesis against its own /openapi.json: every check,
# about 25 examples per operation, a token holding every scope. Any finding fails the run.
# Needs `st` (python3 -m pip install schemathesis). Usage: [ARBITER_BIN=path] .ci/schemathesis.sh
# [extra st args]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

# `ARBITER_BIN` when given (`.ci/run` passes the binary `cargo test` just built and tested),
# else the debug binary, built here (dependencies are optimized in dev too). A plain `cargo
# build` is not free after `cargo test`: without the dev-dependencies some crates' features
# differ, so it compiles the crate again (about a minute on CI's 2 cores).
if [[ -n "${ARBITER_BIN:-}" ]]; then
    bin="$ARBITER_BIN"
else
    cargo build --locked --bin arbiter
    bin="${CARGO_TARGET_DIR:-target}/debug/arbiter"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

export ARBITER_HOME="$work/home"
mkdir -p "$ARBITER_HOME"
# Fuzzing sends requests as fast as it can: the per-token rate limit would only add 429s.
cat >"$ARBITER_HOME/config.yaml" <<'YAML'
server:
  rate_limit: {per_second: 100000, burst: 100000}
  auth_failures: {per_second: 100000, burst: 100000}  # schemathesis sends many bad tokens
YAML
cat >"$work/questions.yaml" <<'YAML'
urgent: {type: noul, instructions: Is this ticket urgent?}
topic:
  type: choice
  criteria: {billing: About money, bug: Something is broken}
YAML
"$bin" models create acme/support --questions "$work/questions.yaml" >/dev/null
token="$("$bin" tokens create --name fuzz \
    --scope decisions --scope models:read --scope examples:read --scope examples:write \
    --scope batches --scope alignments --role '*=admin' --role '*/*=admin' --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"

# Created here, not by the background shell: sed must find it even before serve starts.
: >"$work/serve.out"
"$bin" serve --listen 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
addr=""
for _ in $(seq 100); do
    addr="$(sed -n 's/^listening on //p' "$work/serve.out")"
    [[ -n "$addr" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$addr" ]] || { echo "arbiter serve did not say where it listens" >&2; exit 1; }

# From the temp dir: st keeps its example database (.schemathesis/) in the working directory.
cd "$work"
timeout 900 st --config-file "$root/.ci/schemathesis.toml" run "$addr/openapi.json" \
    --checks all \
    --header "Authorization: Bearer $token" \
    --max-examples 25 \
    --max-time 300 \
    --request-timeout 30 \
    --seed 1 \
    --no-color \
    "$@"
