#!/usr/bin/env bash
# Catalog upload benchmark (see docs/performance.md, "REST API"): a dev control plane in its own JVM, then RUNS uploads
# of community-v4.20.jsonl (13 MB) as new revisions of fresh catalogs, timed by curl. The control plane logs its GCs
# (-Xlog:gc); the peak heap is the largest heap occupancy before any collection during the uploads, or after them.
# Prints the heap after start, the peak, and each upload's time. Needs the built jar and ../shared/catalogs.
set -euo pipefail
JAR=${JAR:-control-plane/dev/target/olmstead-dev.jar}
CATALOG=${CATALOG:-../shared/catalogs/community-v4.20.jsonl}
PORT=${PORT:-18090}
RUNS=${1:-3}
TOKEN=olm_admin_upload-bench-0123456789
DATA=$(mktemp -d /tmp/olmstead-upload.XXXXXX)
trap 'kill "$PID" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$DATA"' EXIT
java -Xmx1g -Xlog:gc:file="$DATA/gc.log" -jar "$JAR" dev --fresh --port "$PORT" --data-dir "$DATA/pg" --admin-token "$TOKEN" > "$DATA/cp.log" 2>&1 &
PID=$!
for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz" && break; sleep 0.5; done
curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz" || { cat "$DATA/cp.log"; exit 1; }
used() { jstat -gc "$PID" | awk 'NR==2 {printf "%.0f", ($3+$4+$6+$8)/1024}'; }
jcmd "$PID" GC.run > /dev/null
echo "control plane heap used after start and a full GC: $(used) MiB"
before=$(wc -l < "$DATA/gc.log")
H="Authorization: Bearer $TOKEN"
for run in $(seq 1 "$RUNS"); do
  curl -sf -o /dev/null -X PUT -H "$H" -H 'Content-Type: application/json' "http://127.0.0.1:$PORT/api/v1/catalogs/up$run" -d '{}'
  curl -sf -o "$DATA/reply.json" -w "upload $run: HTTP %{http_code} in %{time_total} s\n" -X POST -H "$H" \
    -H 'Content-Type: application/x-ndjson' --data-binary @"$CATALOG" "http://127.0.0.1:$PORT/api/v1/catalogs/up$run/revisions"
done
curl -sf -o /dev/null -w "identical re-upload: HTTP %{http_code} in %{time_total} s\n" -X POST -H "$H" \
  -H 'Content-Type: application/x-ndjson' --data-binary @"$CATALOG" "http://127.0.0.1:$PORT/api/v1/catalogs/up$RUNS/revisions"
peak=$(tail -n +"$((before + 1))" "$DATA/gc.log" | grep 'Pause' | sed -E 's/.* ([0-9]+)M->[0-9]+M\(.*/\1/' | sort -n | tail -1)
now=$(used)
echo "control plane heap, peak during the uploads: $(( ${peak:-0} > now ? ${peak:-0} : now )) MiB" \
  "($(tail -n +"$((before + 1))" "$DATA/gc.log" | grep -c 'Pause') collections during the uploads; limit -Xmx1g)"
python3 -c "import json,sys; r=json.load(open('$DATA/reply.json')); print('packages', r['packages'], 'channels', r['channels'], 'bundles', r['bundles'])"
