#!/usr/bin/env bash
# Cold start: one `arbiter decide` process (base models mo and jev-latest, the support
# questions, the refund state, a fresh ARBITER_HOME each run) against the baseline
# `arbiter --version` in the same script: median wall time of 10 runs each (interleaved) and
# median peak RSS (GNU time %M). Target: a cold decide within 400 ms. Then jev-latest again
# in a home that has decided those questions before (a new process; the outcomes'
# embeddings are in its arbiter.db), as a script calling `decide` repeatedly runs.
#
# AGAINST=/path/to/another/arbiter runs every arm with that build too, interleaved with
# this one's in each round (which goes first turns each round), and prints this build's
# median over that one's per arm: whether a change made a cold decide slower (e.g. build
# the commit before it with `git worktree add` and `cargo build --release`).
#
# Run from anywhere: bash benches/cold.sh          AGAINST=../before/target/release/arbiter bash benches/cold.sh
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
# The arms of one build: name, then the command after the binary.
arms() {
    local bin=$1 tag=$2
    case "$3" in
        version) run "$bin" --version ;;
        mo) run "$bin" decide --model mo "${args[@]}" ;;
        jev) run "$bin" decide --model jev-latest "${args[@]}" ;;
        kept) KEEP_HOME="$WORK/kept$tag" run "$bin" decide --model jev-latest "${args[@]}" ;;
    esac
}
builds=("$BIN")
[ -z "${AGAINST:-}" ] || builds+=("$(realpath "$AGAINST")")

# Untimed warm-up of each, so the binary is in the page cache for every arm.
for b in "${!builds[@]}"; do
    for arm in version mo jev kept; do arms "${builds[$b]}" "$b" "$arm" >/dev/null; done
done

for b in "${!builds[@]}"; do
    for arm in version mo jev kept; do : >"$WORK/$arm$b.txt"; done
done
for round in $(seq "$RUNS"); do
    for k in "${!builds[@]}"; do
        b=$(((k + round) % ${#builds[@]}))
        for arm in version mo jev kept; do arms "${builds[$b]}" "$b" "$arm" >>"$WORK/$arm$b.txt"; done
    done
done

median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# Medians of one build's arm: milliseconds, then MiB.
ms() { awk '{print $1/1e6}' "$WORK/$1.txt" | median; }
mib() { awk '{print $2/1024}' "$WORK/$1.txt" | median; }

printf "cold: median of %d runs each, fresh ARBITER_HOME per run\n" "$RUNS"
for b in "${!builds[@]}"; do
    [ "${#builds[@]}" = 1 ] || echo "  ${builds[$b]}:"
    printf "  arbiter --version (baseline):        %8.1f ms  %7.1f MiB peak RSS\n" "$(ms version$b)" "$(mib version$b)"
    printf "  arbiter decide --model mo:           %8.1f ms  %7.1f MiB peak RSS\n" "$(ms mo$b)" "$(mib mo$b)"
    printf "  arbiter decide --model jev-latest:   %8.1f ms  %7.1f MiB peak RSS\n" "$(ms jev$b)" "$(mib jev$b)"
    printf "  the same, in a home that decided before: %4.1f ms  %7.1f MiB peak RSS\n" "$(ms kept$b)" "$(mib kept$b)"
done
awk -v d="$(ms mo0)" -v j="$(ms jev0)" -v k="$(ms kept0)" 'BEGIN {
    printf "cold summary: mo %.1f ms, jev-latest %.1f ms, jev-latest in a used home %.1f ms (target <= 400 ms: %s)\n", d, j, k, (d <= 400 && j <= 400) ? "met" : "NOT met in a fresh home"
}'
if [ -n "${AGAINST:-}" ]; then
    for arm in version mo jev kept; do
        awk -v arm="$arm" -v a="$(ms "${arm}0")" -v b="$(ms "${arm}1")" 'BEGIN {
            printf "against: %-7s this build / AGAINST = %.3f (%.1f / %.1f ms)\n", arm, a / b, a, b
        }'
    done
fi
