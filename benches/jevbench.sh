#!/usr/bin/env bash
# Coherence: JevBench (PyPI `jevbench`, suite jevbench-mini: 240 cases, 50 metamorphic
# relations, 1,248 requests) against `arbiter serve` over POST /v1/systemone, for each base
# model in MODELS (default: mo jev-latest). Prints each model's overall score with its
# dimensions (pillars), its option_permutation score (100: reordering options never moved an
# answer), then its ten weakest relations. No gold labels: it checks that
# answers agree with one another (a statement and its negation, options merged or
# reordered, a noul asked as a choice), not that they are right.
#
# Run from anywhere: bash benches/jevbench.sh   (MODELS="mo" to run one model)
set -euo pipefail
cd "$(dirname "$0")/.."
MODELS=${MODELS:-"mo jev-latest"}

command -v jevbench >/dev/null || python3 -m pip install --quiet --disable-pip-version-check jevbench

cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/arbiter"

WORK=$(mktemp -d)
. benches/served.sh
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT

start_server
export JEVBENCH_API_KEY="$TOKEN"

for MODEL in $MODELS; do
    echo "== $MODEL (jevbench-mini against arbiter serve, POST /v1/systemone)"
    # No request cache: every run asks the server.
    jevbench eval --url "http://$ADDR/v1/systemone" --model "$MODEL" --name "$MODEL" \
        --concurrency 4 --no-cache --out "$WORK/$MODEL.json" | sed -n '1,6p'
    jevbench report "$WORK/$MODEL.json" --level relation --bootstrap 0 \
        | awk 'NR > 1 && $2 ~ /^[0-9.]+$/ {print}' >"$WORK/$MODEL.relations"
    echo "   option order (each option scored on its own):"
    grep -E '^ *option_permutation ' "$WORK/$MODEL.relations" | sed 's/^ */     /'
    echo "   weakest relations:"
    sort -k2 -n "$WORK/$MODEL.relations" | head -n 10 | sed 's/^ */     /'
done
