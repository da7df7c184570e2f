#!/usr/bin/env bash
# Memory after large batch bodies (issue 53): a server's VmRSS after warm-up (one small
# batch run to its end), its peak while BODIES clients each post a batch body of about
# BODY_BYTES (that many tiny items, `{"state":{"n":…}}`, some 580,000 in 10 MB) and cancel
# the job as soon as it is created, and 60 s after the last cancel. Target: within 20% of
# after warm-up (the items go into the store as they are read; none is held as a tree).
#
# Run from anywhere: bash benches/bodies.sh   (BODIES=3 BODY_BYTES=10000000 by default;
# BIN=target/debug/arbiter to measure a debug build, else the release binary is built).
# Base model mo. Traffic goes to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
BODIES=${BODIES:-3}
BODY_BYTES=${BODY_BYTES:-10000000}
WORK=$(mktemp -d)
. benches/served.sh
release_binary
printf 'late:\n  type: noul\n  instructions: The parcel is late.\n' >"$WORK/questions.yaml"
create_model() {
    "$BIN" models create bench/bodies --base mo --questions "$WORK/questions.yaml" --json 2>/dev/null |
        jq -r .modelId >"$WORK/model_id"
}
TOKEN_SCOPES="batches" BEFORE_SERVE=create_model start_server
URL="http://$ADDR/v1/models/$(cat "$WORK/model_id")/batch-decisions"

# body N BYTES > file: a batch of about BYTES, its items' states numbered from N.
body() {
    awk -v from="$1" -v n="$2" 'BEGIN {
        printf "{\"items\":["; written = 10; i = from
        while (written < n) {
            item = sprintf("{\"state\":{\"n\":%d}}", i++)
            if (i > from + 1) printf ","
            printf "%s", item; written += length(item) + 1
        }
        printf "]}"
    }'
}
# post FILE: create the job (the file's name its idempotency key); prints its Location.
post() {
    curl -s -D - -o /dev/null -H "authorization: Bearer $TOKEN" -H "idempotency-key: $(basename "$1")" \
        -H 'content-type: application/json' --data-binary @"$1" "$URL" |
        tr -d '\r' | sed -n 's/^location: //Ip'
}
cancel() {
    curl -s -o /dev/null -w '%{http_code}\n' -X POST -H "authorization: Bearer $TOKEN" \
        "http://$ADDR$1/cancel"
}

body 0 2000 >"$WORK/warm.json"
for i in $(seq "$BODIES"); do body "$((i * 1000000))" "$BODY_BYTES" >"$WORK/body$i.json"; done

RSS_IDLE=$(rss_kib)
# Warm-up: a small batch run to its end (the encoder loaded), then the server's quiet
# period (it trims after 5 s idle).
JOB=$(post "$WORK/warm.json")
[ -n "$JOB" ] || { echo "the warm-up batch was not created" >&2; cat "$WORK/server.err" >&2; exit 1; }
for _ in $(seq 600); do
    STATUS=$(curl -s -H "authorization: Bearer $TOKEN" "http://$ADDR$JOB" | jq -r .status)
    case "$STATUS" in completed | failed | cancelled) break ;; esac
    sleep 0.1
done
sleep 7
RSS_WARM=$(rss_kib)

start_sampler 0.1
STARTED=$(date +%s.%N)
CLIENT_PIDS=()
for i in $(seq "$BODIES"); do
    (JOB=$(post "$WORK/body$i.json"); [ -n "$JOB" ] && cancel "$JOB" || echo none) >"$WORK/codes$i.txt" &
    CLIENT_PIDS+=($!)
done
wait "${CLIENT_PIDS[@]}"
ENDED=$(date +%s.%N)
RSS_END=$(rss_kib)
sleep 60
RSS_AFTER=$(rss_kib)
stop_sampler

echo "== bodies: $BODIES batch bodies of $(wc -c <"$WORK/body1.json") bytes ($(jq '.items | length' "$WORK/body1.json") items each), posted at once and cancelled, model mo"
echo "   cancels: $(cat "$WORK"/codes*.txt | sort | uniq -c | awk '{printf "%s x %s  ", $1, $2}')in $(echo "$ENDED - $STARTED" | bc) s"
report_settled "the last cancel" 60
