#!/usr/bin/env bash
# Peak memory of a batch job does not grow with its input: `arbiter batch` (release build,
# base model mo, the support questions) over 10,000 and over 100,000 distinct states,
# results to a file, each in a fresh ARBITER_HOME; peak RSS by GNU time (%M). Target: the
# 100k run's peak within 20% of the 10k run's. Also prints each run's items/s.
#
# Run from anywhere: bash benches/batch.sh   (SMALL=… LARGE=… to change the sizes)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/time ]; then
    apt-get install -y time >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y time >/dev/null; }
fi

cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/arbiter"
SMALL=${SMALL:-10000}
LARGE=${LARGE:-100000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# states N > file: the support conversation with a distinct first message per line.
states() {
    python3 - "$1" <<'PY'
import json, sys
request = json.load(open("examples/support/request.json"))
state = request["state"]
first = state["messages"][0]["content"]
out = sys.stdout
for i in range(int(sys.argv[1])):
    state["messages"][0]["content"] = f"Ticket {i}. {first}"
    out.write(json.dumps({"state": state}) + "\n")
PY
}

# One run over N states: prints "<peak KiB> <items/s>".
run() {
    local n=$1 home="$WORK/home-$1"
    mkdir -p "$home"
    states "$n" >"$WORK/in-$n.jsonl"
    ARBITER_HOME="$home" "$BIN" models create bench/support --base mo \
        --questions examples/support/questions.yaml >/dev/null 2>&1
    local start end
    start=$(date +%s%N)
    ARBITER_HOME="$home" /usr/bin/time -f %M -o "$WORK/mem-$n" \
        "$BIN" --quiet batch bench/support --input "$WORK/in-$n.jsonl" --output "$WORK/out-$n.jsonl" \
        >/dev/null # the finished job's JSON, printed when stdout is not a terminal
    end=$(date +%s%N)
    local lines
    lines=$(wc -l <"$WORK/out-$n.jsonl")
    [ "$lines" -eq "$n" ] || { echo "expected $n results, got $lines" >&2; exit 1; }
    echo "$(tail -n 1 "$WORK/mem-$n") $(python3 -c "print(f'{$n / (($end - $start) / 1e9):.1f}')")"
}

read -r small_kib small_rate < <(run "$SMALL")
read -r large_kib large_rate < <(run "$LARGE")
echo "batch_${SMALL}_peak_kib=$small_kib items_per_s=$small_rate"
echo "batch_${LARGE}_peak_kib=$large_kib items_per_s=$large_rate"
python3 -c "print(f'peak RSS ratio {$LARGE} / {$SMALL} states = {$large_kib / $small_kib:.3f}   (target <= 1.2)')"
