#!/usr/bin/env bash
# Starts the dev control plane (embedded PostgreSQL) and creates catalog, subscription and enrollment token.
set -euo pipefail
cd /tmp/olm-bench
(timeout 3000 java -Xmx1g -XX:+UseG1GC -jar olmstead-dev.jar dev --port 18080 --data-dir /tmp/olm-bench/data \
  --fresh --admin-token olm_admin_bench-token-0123456789 > cp.log 2>&1 & echo $! > cp.pid)
for _ in $(seq 1 90); do curl -sf localhost:18080/readyz >/dev/null 2>&1 && break; sleep 1; done
A="Authorization: Bearer olm_admin_bench-token-0123456789"; U=http://127.0.0.1:18080/api/v1
curl -sf -o /dev/null -X PUT -H "$A" -H 'Content-Type: application/json' $U/catalogs/bench -d '{}'
curl -sf -o /dev/null -X POST -H "$A" -H 'Content-Type: application/json' "$U/catalogs/bench/revisions" \
  --data-binary @/work/shared/catalogs/bundled/etcd/catalog.json
curl -sf -o /dev/null -X PUT -H "$A" -H 'Content-Type: application/json' $U/subscriptions/etcd -d '{"catalog":"bench",
  "package":"etcd","channel":"singlenamespace-alpha","namespace":"etcd","placement":{"selector":"fleet=hollow"},
  "version":{"pin":"0.9.2"},"approval":"Automatic"}'
curl -sf -X POST -H "$A" -H 'Content-Type: application/json' $U/enrollment-tokens \
  -d '{"ttlSeconds":7200,"maxUses":20000,"labels":{"fleet":"hollow"}}' \
  | python3 -c "import json,sys;print(json.load(sys.stdin)['token'])" > token.txt
grep -o '127.0.0.1:[0-9]*/postgres' cp.log | head -1 | sed 's/127.0.0.1:\([0-9]*\).*/\1/' > pgport.txt
pgrep -P "$(cat cp.pid)" java > cp.javapid
echo "control plane java pid $(cat cp.javapid), postgres port $(cat pgport.txt)"
