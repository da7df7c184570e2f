#!/usr/bin/env bash
# Coherence: JevBench (PyPI `jevbench`, suite jevbench-mini: 240 cases, 50 metamorphic
# relations, 1,248 requests) against `arbiter serve` over POST /v1/systemone, for each base
# model in MODELS (default: every built-in base model). Prints each model's overall score
# with its dimensions (pillars), its option_permutation score (100: reordering options never
# moved an answer), then its ten weakest relations. No gold labels: it checks that answers
# agree with one another (a statement and its negation, options merged or reordered, a noul
# asked as a choice), not that they are right.
#
# Run from anywhere: bash benches/jevbench.sh   (MODELS="mo" to run one model)
# CI (.ci/run) runs it with JEVBENCH_CHECK=1: then it fails unless every model scores at
# least 85 overall, option_permutation 100, and each relation the coherence issue names at
# least 80. ARBITER_BIN runs another build (default: cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
MODELS=${MODELS:-"mo mo-reasoning jev-latest jev-1.13.0"}
NAMED="score_complement score_cumulative choice_indicator pair_choice_marginals choice_complement
partition_hierarchy inclusion_exclusion natural_negation negation_wrapper compound_negation
noul_as_choice noul_as_score option_rename name_description_conflict extreme_level"

command -v jevbench >/dev/null || python3 -m pip install --quiet --disable-pip-version-check jevbench

if [ -n "${ARBITER_BIN:-}" ]; then
    BIN=$(realpath "$ARBITER_BIN")
else
    cargo build --release --quiet
    BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/arbiter"
fi

WORK=$(mktemp -d)
. benches/served.sh

start_server
export JEVBENCH_API_KEY="$TOKEN"

failed=0
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
    if [ -n "${JEVBENCH_CHECK:-}" ]; then
        python3 - "$WORK/$MODEL.json" "$WORK/$MODEL.relations" "$NAMED" <<'PY' || failed=1
import json, sys
result, relations, named = sys.argv[1], sys.argv[2], sys.argv[3].split()
overall = 100 * json.load(open(result))["scores"]["overall"]
scores = {line.split()[0]: float(line.split()[1]) for line in open(relations)}
problems = [f"overall {overall:.1f} < 85"] if overall < 85 else []
problems += [f"option_permutation {scores.get('option_permutation')} < 100"] if scores.get("option_permutation") != 100.0 else []
problems += [f"{name} {scores.get(name)} < 80" for name in named if scores.get(name, 0.0) < 80]
for problem in problems:
    print(f"   FAIL: {problem}")
sys.exit(1 if problems else 0)
PY
    fi
done
exit "$failed"
