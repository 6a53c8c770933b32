#!/usr/bin/env bash
# Dashboard paint over a connected fleet (docs/performance.md, "Dashboard"): N hollow clusters, each running 20
# subscriptions, against one `serve` control plane on PostgreSQL, all on 127.0.0.1.
#   docs/bench/dashboard-fleet.sh N      (N >= 50: the matrix draws a page of 50)
# Starts Debian's PostgreSQL (its own data directory), one replica and one hollow process per 16,667 clusters; creates
# 20 subscriptions (etcd 0.9.2, sub-00..sub-19, on fleet=hollow) and waits until every cluster is connected and reports
# all 20 Succeeded; then DashboardPaintBenchIT loads the Fleet and Matrix pages in headless Chromium against it and
# times GET /fleet/matrix?limit=50. Its last line (`BENCH dashboard: ...`) holds every figure.
# Needs the jars (./mvnw -q -B package -DskipTests), /usr/bin/chromium and chromedriver, and ../shared (the etcd
# catalog). Environment: FLEET_DIR (default /tmp/olm-dashboard), FLEET_PORT_BASE (default 19300), LOADS (page loads,
# default 7), CONNECT_TIMEOUT (seconds, default 1800), KEEP=1 leaves everything running, MEASURE=0 stops once the fleet
# has settled (with KEEP=1: a fleet to measure by hand).
set -euo pipefail
N=${1:?usage: dashboard-fleet.sh N}
[ "$N" -ge 50 ] || { echo "dashboard-fleet: N must be at least 50"; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${FLEET_DIR:-/tmp/olm-dashboard}
BASE=${FLEET_PORT_BASE:-19300}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGPORT=$BASE PORT=$((BASE + 1))
ADMIN=olm_admin_dashboard-fleet-token-0123456789
CP_JAR=$ROOT/control-plane/server/target/olmstead-control-plane.jar
AGENT_JAR=$ROOT/cluster-agent/agent/target/olmstead-agent.jar
CATALOG=${CATALOG:-$ROOT/../shared/catalogs/bundled/etcd/catalog.json}
for f in "$CP_JAR" "$AGENT_JAR" "$CATALOG" "$PGBIN/initdb" /usr/bin/chromium /usr/bin/chromedriver; do
  [ -e "$f" ] || { echo "dashboard-fleet: missing $f"; exit 2; }; done

pids=()
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() { [ "${KEEP:-0}" = 1 ] && return; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  as_pg "$PGBIN/pg_ctl" -D "$DIR/pg" -m immediate stop >/dev/null 2>&1 || true; }
trap cleanup EXIT
rm -rf "$DIR" && mkdir -p "$DIR/pg" && { [ "$(id -u)" = 0 ] && chown postgres "$DIR" "$DIR/pg" || true; }
# run from copies: the benchmark's build below rewrites the jars in target/
cp "$CP_JAR" "$AGENT_JAR" "$DIR/" && CP_JAR=$DIR/${CP_JAR##*/} AGENT_JAR=$DIR/${AGENT_JAR##*/}
as_pg "$PGBIN/initdb" -D "$DIR/pg" -U postgres --auth=trust >/dev/null
printf "listen_addresses = '127.0.0.1'\nport = %s\nmax_connections = 60\nshared_buffers = 512MB\nunix_socket_directories = '%s'\n" \
  "$PGPORT" "$DIR" >> "$DIR/pg/postgresql.conf"
as_pg "$PGBIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w start >/dev/null
psql -h 127.0.0.1 -p "$PGPORT" -U postgres -qc "create database olmstead" >/dev/null
PSQL="psql -h 127.0.0.1 -p $PGPORT -U postgres -d olmstead -Atc"

OLMSTEAD_DB_URL="postgresql://127.0.0.1:$PGPORT/olmstead" OLMSTEAD_DB_USER=postgres OLMSTEAD_DB_PASSWORD=unused \
  OLMSTEAD_ADMIN_TOKEN=$ADMIN OLMSTEAD_BIND_HOST=127.0.0.1 OLMSTEAD_PORT=$PORT \
  java -Xmx1g -XX:+UseG1GC -jar "$CP_JAR" serve > "$DIR/cp.log" 2>&1 &
pids+=("$!")
for _ in $(seq 1 120); do curl -sf "127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 1; done
curl -sf "127.0.0.1:$PORT/readyz" >/dev/null || { echo "dashboard-fleet: not ready in 120 s (see $DIR/cp.log)"; exit 1; }

A="Authorization: Bearer $ADMIN"; U=http://127.0.0.1:$PORT/api/v1; J='Content-Type: application/json'
curl -sf -o /dev/null -X PUT -H "$A" -H "$J" "$U/catalogs/bench" -d '{}'
curl -sf -o /dev/null -X POST -H "$A" -H "$J" "$U/catalogs/bench/revisions" --data-binary @"$CATALOG"
for k in $(seq -w 0 19); do
  curl -sf -o /dev/null -X PUT -H "$A" -H "$J" "$U/subscriptions/sub-$k" -d "{\"catalog\":\"bench\",\"package\":\"etcd\",
    \"channel\":\"singlenamespace-alpha\",\"namespace\":\"ns-$k\",\"placement\":{\"selector\":\"fleet=hollow\"},
    \"version\":{\"pin\":\"0.9.2\"},\"approval\":\"Automatic\"}"
done
TOKEN=$(curl -sf -X POST -H "$A" -H "$J" "$U/enrollment-tokens" -d "{\"ttlSeconds\":14400,\"maxUses\":$N,\"labels\":{\"fleet\":\"hollow\"}}" \
  | python3 -c "import json,sys;print(json.load(sys.stdin)['token'])")

P=$(( (N + 16666) / 16667 )); t0=$(date +%s)
for i in $(seq 0 $((P - 1))); do
  timeout 14400 java -Xmx2g -jar "$AGENT_JAR" hollow --count $(( N / P + (i < N % P ? 1 : 0) )) --name-prefix "d$i-" \
    --control-plane "http://127.0.0.1:$PORT" --token "$TOKEN" --ready-after 2s > "$DIR/hollow$i.log" 2>&1 &
  pids+=("$!")
done
ready=0
for _ in $(seq 1 "${CONNECT_TIMEOUT:-1800}"); do
  ready=$($PSQL "select (select count(*) from clusters where status = 'connected') || ' '
    || (select count(*) from subscription_status where phase = 'Succeeded')")
  [ "$ready" = "$N $((N * 20))" ] && break; sleep 1
done
echo "connected and Succeeded (clusters, status rows): $ready of $N, $((N * 20)) after $(( $(date +%s) - t0 )) s"
[ "$ready" = "$N $((N * 20))" ] || { echo "dashboard-fleet: the fleet did not settle within ${CONNECT_TIMEOUT:-1800} s"; exit 1; }
[ "${MEASURE:-1}" = 1 ] || exit 0

cd "$ROOT" && ./mvnw -B -o verify -pl control-plane/server -am -Dtest=none -Dit.test=DashboardPaintBenchIT \
  -Dolmstead.bench=true -Dolmstead.bench.url="http://127.0.0.1:$PORT" -Dolmstead.bench.token="$ADMIN" \
  -Dolmstead.bench.clusters="$N" -Dolmstead.bench.loads="${LOADS:-7}" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false 2>&1 | grep -E 'BENCH|FAIL|ERROR\]' | tee "$DIR/bench.txt"
grep -q 'BENCH dashboard:' "$DIR/bench.txt"
