#!/usr/bin/env bash
# Cold start: one `arbiter decide` process (base models mo and jev-latest, the support
# questions, the refund state, a fresh ARBITER_HOME each run) against the baseline
# `arbiter --version` in the same script: median wall time of 10 runs each (interleaved) and
# median peak RSS (GNU time %M). Target: a cold decide within 400 ms. Then jev-latest again
# in a home that has decided those questions before (a new process; the outcomes'
# embeddings are in its arbiter.db), as a script calling `decide` repeatedly runs.
#
# Run from anywhere: bash benches/cold.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/time ]; then
    apt-get install -y time >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y time >/dev/null; }
fi

cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/arbiter"
RUNS=10
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# One run: prints "<wall ns> <peak KiB>". The wall time includes the /usr/bin/time wrapper,
# alike for both arms.
run() {
    local home="${KEEP_HOME:-$WORK/home-$RANDOM$RANDOM}" mem="$WORK/mem" start end
    mkdir -p "$home"
    start=$(date +%s%N)
    ARBITER_HOME="$home" timeout 120 /usr/bin/time -f %M -o "$mem" "$@" >/dev/null 2>"$WORK/err" \
        || { echo "failed: $*" >&2; cat "$WORK/err" >&2; exit 1; }
    end=$(date +%s%N)
    [ -n "${KEEP_HOME:-}" ] || rm -rf "$home"
    echo "$((end - start)) $(tail -n 1 "$mem")"
}

args=(--questions examples/support/questions.yaml --state examples/support/states/refund.json)
mo=("$BIN" decide --model mo "${args[@]}")
jev=("$BIN" decide --model jev-latest "${args[@]}")
version=("$BIN" --version)

# Untimed warm-up of each, so the binary is in the page cache for every arm.
run "${version[@]}" >/dev/null
run "${mo[@]}" >/dev/null
run "${jev[@]}" >/dev/null
KEEP_HOME="$WORK/kept" run "${jev[@]}" >/dev/null

: >"$WORK/version.txt"
: >"$WORK/mo.txt"
: >"$WORK/jev.txt"
: >"$WORK/kept.txt"
for _ in $(seq "$RUNS"); do
    run "${version[@]}" >>"$WORK/version.txt"
    run "${mo[@]}" >>"$WORK/mo.txt"
    run "${jev[@]}" >>"$WORK/jev.txt"
    KEEP_HOME="$WORK/kept" run "${jev[@]}" >>"$WORK/kept.txt"
done

median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
v_ms=$(awk '{print $1/1e6}' "$WORK/version.txt" | median)
d_ms=$(awk '{print $1/1e6}' "$WORK/mo.txt" | median)
j_ms=$(awk '{print $1/1e6}' "$WORK/jev.txt" | median)
v_kib=$(awk '{print $2}' "$WORK/version.txt" | median)
d_kib=$(awk '{print $2}' "$WORK/mo.txt" | median)
j_kib=$(awk '{print $2}' "$WORK/jev.txt" | median)
k_ms=$(awk '{print $1/1e6}' "$WORK/kept.txt" | median)
k_kib=$(awk '{print $2}' "$WORK/kept.txt" | median)

awk -v runs="$RUNS" -v vms="$v_ms" -v dms="$d_ms" -v jms="$j_ms" -v kms="$k_ms" -v vk="$v_kib" -v dk="$d_kib" -v jk="$j_kib" -v kk="$k_kib" 'BEGIN {
    printf "cold: median of %d runs each, fresh ARBITER_HOME per run\n", runs
    printf "  arbiter --version (baseline):        %8.1f ms  %7.1f MiB peak RSS\n", vms, vk / 1024
    printf "  arbiter decide --model mo:           %8.1f ms  %7.1f MiB peak RSS\n", dms, dk / 1024
    printf "  arbiter decide --model jev-latest:   %8.1f ms  %7.1f MiB peak RSS\n", jms, jk / 1024
    printf "  the same, in a home that decided before: %4.1f ms  %7.1f MiB peak RSS\n", kms, kk / 1024
    printf "cold summary: mo %.1f ms, jev-latest %.1f ms, jev-latest in a used home %.1f ms (target <= 400 ms: %s)\n", dms, jms, kms, (dms <= 400 && jms <= 400) ? "met" : "NOT met in a fresh home"
}'
