#!/usr/bin/env bash
# Memory after a burst (issue 37): a server's VmRSS after warm-up, its peak while CLIENTS
# clients each send one decision with a state of their own of STATE_BYTES (in one `text`,
# `truncate` set), and 30 s after the last answer. Target: within 20% of after warm-up.
# Each state is varied words of its own (no window of it read before); REPEATED=1 sends
# the earlier text instead, one sentence repeated, whose windows after the first are the
# encoder's cache hits (a 1 MB state of it costs jev-latest 0.7 s against 32 s varied).
#
# Run from anywhere: bash benches/burst.sh [model]   (model: mo by default, or jev-latest)
# CLIENTS=64 and STATE_BYTES=1000000 by default; BIN=target/debug/arbiter to measure a
# debug build (the release binary is built otherwise). Traffic goes to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:-mo}
CLIENTS=${CLIENTS:-64}
STATE_BYTES=${STATE_BYTES:-1000000}
WORK=$(mktemp -d)
. benches/served.sh
release_binary
start_server
URL="http://$ADDR/v1/decision"
decide() {
    curl -s -o /dev/null -w '%{http_code}\n' -H "authorization: Bearer $TOKEN" \
        -H 'content-type: application/json' --data-binary @"$1" "$URL"
}

jq -nc --arg model "$MODEL" --argjson n "$STATE_BYTES" '{model: $model, truncate: true,
    state: {text: ("my parcel never arrived and I want a refund " * ($n / 44 | floor))},
    questions: {late: {type: "noul", instructions: "The parcel is late."}}}' >"$WORK/body.json"
jq -c '.state.text |= .[0:2000]' "$WORK/body.json" >"$WORK/warm.json"

RSS_IDLE=$(rss_kib)
# Warm-up: the encoder loaded, one small and one large decision, then the server's own
# quiet period (it trims after 5 s idle).
decide "$WORK/warm.json" >/dev/null
decide "$WORK/body.json" >/dev/null
sleep 7
RSS_WARM=$(rss_kib)

start_sampler 0.25
# Each client's state its own, so none is answered from the cache.
for i in $(seq "$CLIENTS"); do
    if [ -n "${REPEATED:-}" ]; then
        jq -c --arg i "$i" '.state.text = "client \($i): " + .state.text' "$WORK/body.json" >"$WORK/body$i.json"
    else
        varied_words "$i" "$STATE_BYTES" | jq -Rsc --slurpfile body "$WORK/body.json" '. as $text | $body[0] | .state.text = $text' >"$WORK/body$i.json"
    fi
done
STARTED=$(date +%s.%N)
CLIENT_PIDS=()
for i in $(seq "$CLIENTS"); do
    decide "$WORK/body$i.json" >>"$WORK/codes.txt" &
    CLIENT_PIDS+=($!)
done
wait "${CLIENT_PIDS[@]}"
ENDED=$(date +%s.%N)
RSS_END=$(rss_kib)
sleep 30
RSS_AFTER=$(rss_kib)
stop_sampler

echo "== burst: $CLIENTS clients, one decision each, model $MODEL, state $(jq -c .state "$WORK/body.json" | wc -c) bytes, truncate"
echo "   answers: $(sort "$WORK/codes.txt" | uniq -c | awk '{printf "%s x %s  ", $1, $2}')in $(echo "$ENDED - $STARTED" | bc) s"
report_settled "the last answer" 30
