#!/usr/bin/env bash
# Memory over rounds of new states (issue 53): a server's VmRSS after warm-up and after each
# of ROUNDS rounds of STATES decisions, each on a state of its own of STATE_BYTES of varied
# words (no two states share their text; the words are drawn at random, not repeated), sent
# CLIENTS at a time with `truncate` set; each reading is the median of five taken 8 to 12 s
# after the round (the server trims after 5 s idle). Target: the last round within 20% of the first (the
# state cache is bounded by the bytes it holds, so memory stops growing).
#
# Run from anywhere: bash benches/rounds.sh [model]   (mo by default, or jev-latest)
# ROUNDS=4 STATES=128 STATE_BYTES=1000000 CLIENTS=8 by default; BIN=target/debug/arbiter to
# measure a debug build (the release binary is built otherwise). Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:-mo}
ROUNDS=${ROUNDS:-4}
STATES=${STATES:-128}
STATE_BYTES=${STATE_BYTES:-1000000}
CLIENTS=${CLIENTS:-8}
WORK=$(mktemp -d)
. benches/served.sh
release_binary
start_server
URL="http://$ADDR/v1/decision"

# The body of decision `$1`: STATE_BYTES of words of 2 to 9 letters drawn with seed `$1`.
body() {
    varied_words "$1" "$STATE_BYTES" | jq -Rsc --arg model "$MODEL" '{model: $model, truncate: true, state: {text: .},
        questions: {late: {type: "noul", instructions: "The parcel is late."}}}'
}
decide() {
    body "$1" | curl -s -o /dev/null -w '%{http_code}\n' -H "authorization: Bearer $TOKEN" \
        -H 'content-type: application/json' --data-binary @- "$URL"
}

decide 1 >/dev/null
sleep 7
RSS_WARM=$(rss_kib)
READINGS=()
STARTED=$(date +%s)
for round in $(seq "$ROUNDS"); do
    for first in $(seq 0 "$CLIENTS" $((STATES - 1))); do
        PIDS=()
        for i in $(seq "$first" $((first + CLIENTS - 1))); do
            [ "$i" -lt "$STATES" ] || break
            decide $((round * 100000 + i + 2)) >>"$WORK/codes.txt" &
            PIDS+=($!)
        done
        wait "${PIDS[@]}"
    done
    # The median of five readings, 8 to 12 s after the round: the server trims its heap
    # after 5 s idle, and a single reading lands before or after a trim by chance.
    sleep 7
    SAMPLES=()
    for _ in 1 2 3 4 5; do sleep 1; SAMPLES+=("$(rss_kib)"); done
    READINGS+=("$(printf '%s\n' "${SAMPLES[@]}" | sort -n | sed -n 3p)")
    echo "   round $round: VmRSS $(awk -v r="${READINGS[-1]}" 'BEGIN { printf "%.1f", r / 1024 }') MiB"
done

echo "== rounds: $ROUNDS × $STATES decisions, model $MODEL, states of $STATE_BYTES bytes of varied words, $CLIENTS at a time, truncate; $(( $(date +%s) - STARTED )) s"
echo "   answers: $(sort "$WORK/codes.txt" | uniq -c | awk '{printf "%s x %s  ", $1, $2}')"
awk -v warm="$RSS_WARM" -v first="${READINGS[0]}" -v last="${READINGS[-1]}" 'BEGIN {
    a = last / first
    printf("   VmRSS: after warm-up %.1f MiB, after the first round %.1f MiB, after the last %.1f MiB\n", warm / 1024, first / 1024, last / 1024)
    printf("   last / first = %.2f (target within 20%%: %s)\n", a, (a <= 1.2 && a >= 0.8) ? "met" : "NOT met")
}'
