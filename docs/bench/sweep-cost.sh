#!/usr/bin/env bash
# The presence sweep's cost at N connected clusters (docs/architecture.md, "Scale"): a fresh Debian PostgreSQL
# (its own data directory), the schema migrated by the control plane's jar, N connected clusters with their channel
# rows spread over 6 replicas whose leases are fresh, then the sweep each replica runs every presence tick
# (ChannelStateStore.SWEEP, window 45 s) under EXPLAIN ANALYZE, 3 times; prints each execution time.
#   docs/bench/sweep-cost.sh [N]      N defaults to 100000
# Environment: SWEEP_DIR (default /tmp/olm-sweep), SWEEP_PORT (default 29500). Needs the jar (./mvnw -q -B package -DskipTests).
set -euo pipefail
N=${1:-100000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${SWEEP_DIR:-/tmp/olm-sweep}
PORT=${SWEEP_PORT:-29500}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
CP_JAR=$ROOT/control-plane/server/target/olmstead-control-plane.jar
for f in "$CP_JAR" "$PGBIN/initdb"; do [ -e "$f" ] || { echo "sweep-cost: missing $f"; exit 2; }; done
run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
rm -rf "$DIR" && mkdir -p "$DIR" && { [ "$(id -u)" = 0 ] && chown postgres "$DIR" || true; }
run "$PGBIN/initdb" -D "$DIR/data" -U postgres --auth=trust >/dev/null
printf "port = %s\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\n" "$PORT" "$DIR" >> "$DIR/data/postgresql.conf"
run "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/pg.log" -w start >/dev/null
trap 'run "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true' EXIT
P="psql -h 127.0.0.1 -p $PORT -U postgres"
$P -qc "create database olmstead"
OLMSTEAD_DB_URL="postgresql://127.0.0.1:$PORT/olmstead" OLMSTEAD_DB_USER=postgres OLMSTEAD_DB_PASSWORD=unused \
  java -jar "$CP_JAR" migrate >/dev/null
$P -d olmstead -qc "insert into clusters (name, status, last_seen) select 'f' || i, 'connected', now()
    from generate_series(1, $N) i;
  insert into agent_channel_state (cluster, session, replica, connected_at)
    select name, 's-' || name, 'r' || (abs(hashtext(name)) % 6), now() from clusters;
  insert into gateway_replicas (replica, seen_at) select 'r' || i, now() from generate_series(0, 5) i;
  analyze"
SWEEP="UPDATE clusters c SET status = 'disconnected', last_seen = l.seen FROM (SELECT x.name, coalesce(r.seen_at,
  x.last_seen) AS seen FROM clusters x LEFT JOIN agent_channel_state s ON s.cluster = x.name LEFT JOIN gateway_replicas r
  ON r.replica = s.replica WHERE x.status = 'connected' AND coalesce(r.seen_at, x.last_seen) < now() - make_interval(secs
  => 45) ORDER BY x.name FOR UPDATE OF x) l WHERE l.name = c.name AND c.status = 'connected'"
for i in 1 2 3; do
  ms=$($P -d olmstead -Atc "explain (analyze, format json) $SWEEP" \
    | python3 -c "import json,sys; print(round(json.load(sys.stdin)[0]['Execution Time'], 1))")
  echo "sweep $i over $N connected clusters: $ms ms"
done
