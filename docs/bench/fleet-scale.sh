#!/usr/bin/env bash
# Fleet scale benchmark (docs/performance.md, "Fleet scale"): N hollow clusters over R control-plane replicas on one
# PostgreSQL, all on 127.0.0.1.
#   docs/bench/fleet-scale.sh N [R]      R defaults to ceil(N / 16,667) (a process here holds at most 20,000 sockets)
# Starts Debian's PostgreSQL 15 (its own data directory), R `serve` replicas and R hollow processes (N/R agents each,
# process i dials replica i), then measures: time to connect all; per replica heap after a full GC and CPU at rest;
# PostgreSQL CPU at rest; a fleet-wide subscription change to each cluster's ack (p50/p99/last), CHANGES times.
# Needs the jars (./mvnw -q -B package -DskipTests) and /work/shared (the etcd catalog). Every loop is bounded.
# Environment: FLEET_DIR (default /tmp/olm-fleet), FLEET_PORT_BASE (default 19100), CHANGES (default 3),
#   CONNECT_TIMEOUT (seconds, default 1800), HOLLOW_XMX (a hollow process's heap, default 2g), ROLLOUT=1 ends with a
#   rollout back to 0.9.4 in waves of a tenth of the fleet (its step time from the leader's metrics), KEEP=1 leaves
#   everything running, PG_CONF is appended to postgresql.conf (e.g. "shared_preload_libraries = 'pg_stat_statements'").
set -euo pipefail
N=${1:?usage: fleet-scale.sh N [R]}
R=${2:-$(( (N + 16666) / 16667 ))}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${FLEET_DIR:-/tmp/olm-fleet}
BASE=${FLEET_PORT_BASE:-19100}
CHANGES=${CHANGES:-3}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGPORT=$((BASE))
ADMIN=olm_admin_fleet-scale-token-0123456789
CP_JAR=$ROOT/control-plane/server/target/olmstead-control-plane.jar
AGENT_JAR=$ROOT/cluster-agent/agent/target/olmstead-agent.jar
CATALOG=${CATALOG:-$ROOT/../shared/catalogs/bundled/etcd/catalog.json}
for f in "$CP_JAR" "$AGENT_JAR" "$CATALOG" "$PGBIN/initdb"; do [ -e "$f" ] || { echo "fleet-scale: missing $f"; exit 2; }; done
[ $(( (N + R - 1) / R )) -le 18000 ] || { echo "fleet-scale: $((N / R)) agents a process exceeds the 20,000 descriptors a process may hold; raise R"; exit 2; }

pids=()
cleanup() { [ "${KEEP:-0}" = 1 ] && return; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done;
  chown_run "$PGBIN/pg_ctl" -D "$DIR/pg" -m immediate stop >/dev/null 2>&1 || true; }
trap cleanup EXIT
rm -rf "$DIR" && mkdir -p "$DIR"
PSQL="psql -h 127.0.0.1 -p $PGPORT -U postgres -d olmstead -Atc"
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'; }

# --- PostgreSQL ---------------------------------------------------------------------------------------------------
chown_run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
mkdir -p "$DIR/pg" && { [ "$(id -u)" = 0 ] && chown postgres "$DIR" "$DIR/pg" || true; }
chown_run "$PGBIN/initdb" -D "$DIR/pg" -U postgres --auth=trust >/dev/null
cat >> "$DIR/pg/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $PGPORT
max_connections = $(( R * 16 + 20 ))
shared_buffers = 512MB
synchronous_commit = on
unix_socket_directories = '$DIR'
${PG_CONF:-}
EOF
chown_run "$PGBIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w start >/dev/null
psql -h 127.0.0.1 -p "$PGPORT" -U postgres -qc "create database olmstead" >/dev/null
PG_PID=$(head -1 "$DIR/pg/postmaster.pid")

# --- replicas ------------------------------------------------------------------------------------------------------
start_replica() {
  OLMSTEAD_DB_URL="postgresql://127.0.0.1:$PGPORT/olmstead" OLMSTEAD_DB_USER=postgres OLMSTEAD_DB_PASSWORD=unused \
    OLMSTEAD_ADMIN_TOKEN=$ADMIN OLMSTEAD_BIND_HOST=127.0.0.1 OLMSTEAD_PORT=$((BASE + 1 + $1)) \
    java -Xmx1g -XX:+UseG1GC -jar "$CP_JAR" serve > "$DIR/cp$1.log" 2>&1 &
  echo $! > "$DIR/cp$1.pid"; pids+=("$!")
}
ready() { for _ in $(seq 1 120); do curl -sf "127.0.0.1:$((BASE + 1 + $1))/readyz" >/dev/null 2>&1 && return 0; sleep 1; done
  echo "fleet-scale: replica $1 not ready in 120 s (see $DIR/cp$1.log)"; exit 1; }
start_replica 0; ready 0      # the first runs the migrations alone
for i in $(seq 1 $((R - 1))); do start_replica "$i"; done
for i in $(seq 1 $((R - 1))); do ready "$i"; done

A="Authorization: Bearer $ADMIN"; U=http://127.0.0.1:$((BASE + 1))/api/v1; J='Content-Type: application/json'
put_sub() { curl -sf -o /dev/null -X PUT -H "$A" -H "$J" "$U/subscriptions/etcd" -d "{\"catalog\":\"bench\",
  \"package\":\"etcd\",\"channel\":\"singlenamespace-alpha\",\"namespace\":\"etcd\",\"placement\":{\"selector\":\"fleet=hollow\"},
  \"version\":{\"pin\":\"$1\"},\"approval\":\"Automatic\"}"; }
curl -sf -o /dev/null -X PUT -H "$A" -H "$J" "$U/catalogs/bench" -d '{}'
curl -sf -o /dev/null -X POST -H "$A" -H "$J" "$U/catalogs/bench/revisions" --data-binary @"$CATALOG"
put_sub 0.9.2
TOKEN=$(curl -sf -X POST -H "$A" -H "$J" "$U/enrollment-tokens" -d "{\"ttlSeconds\":14400,\"maxUses\":$N,\"labels\":{\"fleet\":\"hollow\"}}" \
  | python3 -c "import json,sys;print(json.load(sys.stdin)['token'])")

# --- hollow fleet --------------------------------------------------------------------------------------------------
t0=$(date +%s.%N)
for i in $(seq 0 $((R - 1))); do
  count=$(( N / R + (i < N % R ? 1 : 0) ))
  timeout 14400 java -Xmx"${HOLLOW_XMX:-2g}" -jar "$AGENT_JAR" hollow --count "$count" --name-prefix "f$i-" \
    --control-plane "http://127.0.0.1:$((BASE + 1 + i))" --token "$TOKEN" --ready-after 2s \
    --connects-per-second "${CONNECTS_PER_SECOND:-500}" > "$DIR/hollow$i.log" 2>&1 &
  pids+=("$!")
done
connected=0
for _ in $(seq 1 "${CONNECT_TIMEOUT:-1800}"); do
  connected=$($PSQL "select count(*) from clusters where status = 'connected'")
  [ "$connected" -ge "$N" ] && break; sleep 1
done
connect_s=$(since "$t0")
echo "connected $connected of $N in ${connect_s}s over $R replicas"
# a fleet that is not whole by then is measured as it stands: the figures below say how many they cover
[ "$connected" -ge "$N" ] || echo "fleet-scale: not all connected within ${CONNECT_TIMEOUT:-1800} s; measuring the $connected connected"


# --- at rest: heap after a full GC and CPU per replica, PostgreSQL CPU ---------------------------------------------
sleep 60   # let the first installs' reports settle
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# the postmaster's own time and its ended backends' (cutime, cstime), plus its live backends'
pg_ticks() { local s; s=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$PG_PID/stat")
  for p in $(pgrep -P "$PG_PID"); do s=$((s + $(ticks "$p" 2>/dev/null || echo 0))); done; echo $s; }
db_writes() { $PSQL "select xact_commit || ' ' || (tup_inserted + tup_updated + tup_deleted) from pg_stat_database where datname = 'olmstead'"; }
declare -A c1; for i in $(seq 0 $((R - 1))); do c1[$i]=$(ticks "$(cat "$DIR/cp$i.pid")"); done; p1=$(pg_ticks); read -r x1 w1 <<< "$(db_writes)"
sleep 30
read -r x2 w2 <<< "$(db_writes)"
hz=$(getconf CLK_TCK); heap_max=0
for i in $(seq 0 $((R - 1))); do
  pid=$(cat "$DIR/cp$i.pid"); jcmd "$pid" GC.run >/dev/null
  used_kb=$(jcmd "$pid" GC.heap_info | awk '/garbage-first heap/ {for (k = 1; k <= NF; k++) if ($k == "used") print $(k + 1)}' | tr -dc 0-9)
  agents=$(curl -s -H "$A" "127.0.0.1:$((BASE + 1 + i))/metrics" | awk '/^olmstead_agent_connected / {print int($2)}')
  cpu=$(( ($(ticks "$pid") - ${c1[$i]}) * 100 / hz / 30 ))
  echo "replica $i: ${agents:-?} agents, heap after GC $((used_kb / 1024)) MiB ($(( used_kb * 1024 / (agents > 0 ? agents : 1) )) bytes an agent), CPU at rest ${cpu}% of a core"
  [ $((used_kb / 1024)) -gt "$heap_max" ] && heap_max=$((used_kb / 1024))
done
echo "PostgreSQL at rest: $(( ($(pg_ticks) - p1) * 100 / hz / 30 ))% of a core, $(( (x2 - x1) / 30 )) commits/s, $(( (w2 - w1) / 30 )) rows written/s; database size $($PSQL "select pg_size_pretty(pg_database_size('olmstead'))")"

# --- the dashboard's fleet reads over the whole fleet: p50 of 5 requests each ------------------------------------------
read_ms() { for _ in 1 2 3 4 5; do curl -s -o /dev/null -w '%{time_total}\n' -H "$A" "$U/$1"; done | sort -n \
  | awk 'NR == 3 {printf "%.0f", $1 * 1000}'; }
echo "fleet reads (p50 of 5): summary $(read_ms fleet/summary) ms, matrix first page $(read_ms 'fleet/matrix?subscriptions=etcd') ms, \
clusters first page $(read_ms 'clusters?limit=50') ms"

# --- fleet-wide change to each cluster's ack ------------------------------------------------------------------------
results=()
for k in $(seq 1 "$CHANGES"); do
  v=0.9.4; [ $((k % 2)) = 0 ] && v=0.9.2
  tc=$($PSQL "select extract(epoch from clock_timestamp())"); read -r x1 w1 <<< "$(db_writes)"; p1=$(pg_ticks)
  put_sub "$v"
  line=""
  for _ in $(seq 1 300); do   # at most 60 s a change
    line=$($PSQL "select count(*) filter (where s.acked_at is null or s.acked_at < to_timestamp($tc)
        or s.acked_generation < s.desired_generation),
      round((percentile_cont(0.5) within group (order by extract(epoch from s.acked_at) - $tc)
        filter (where s.acked_at >= to_timestamp($tc) and s.acked_generation >= s.desired_generation))::numeric, 2),
      round((percentile_cont(0.99) within group (order by extract(epoch from s.acked_at) - $tc)
        filter (where s.acked_at >= to_timestamp($tc) and s.acked_generation >= s.desired_generation))::numeric, 2),
      round(max(extract(epoch from s.acked_at) - $tc)
        filter (where s.acked_at >= to_timestamp($tc) and s.acked_generation >= s.desired_generation)::numeric, 2)
      from agent_channel_state s join clusters c on c.name = s.cluster where c.status = 'connected'")
    [ "${line%%|*}" = 0 ] && break; sleep 0.2
  done
  IFS='|' read -r behind p50 p99 last <<< "$line"
  echo "change $k -> $v: ack p50 ${p50}s p99 ${p99}s last ${last}s of those acked (not acked: $behind)"
  if [ "$behind" = 0 ]; then results+=("$last"); else results+=("$last (not acked: $behind)"); fi
  sleep 20   # let the installs' reports settle before the next change
  read -r x2 w2 <<< "$(db_writes)"; el=$(since "$(awk -v t="$tc" 'BEGIN {print t}')")
  echo "  change and its reports: $(( x2 - x1 )) commits, $(( w2 - w1 )) rows written, PostgreSQL $(( ($(pg_ticks) - p1) / hz )) CPU-s over ${el}s"
done
if [ "${ROLLOUT:-0}" = 1 ]; then
  id=$(curl -sf -X POST -H "$A" -H "$J" "$U/rollouts" -d "{\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\",
    \"force\":true,\"strategy\":{\"batchSize\":$(( (N + 9) / 10 )),\"soakSeconds\":0,\"progressDeadlineSeconds\":1800,
    \"maxFailures\":0,\"onFailure\":\"pause\"}}" | python3 -c "import json,sys;print(json.load(sys.stdin)['id'])")
  tr=$(date +%s.%N); state=Progressing
  for _ in $(seq 1 1800); do state=$($PSQL "select state from rollouts where id = '$id'"); [ "$state" = Progressing ] || break; sleep 1; done
  steps=$(for i in $(seq 0 $((R - 1))); do curl -s -H "$A" "127.0.0.1:$((BASE + 1 + i))/metrics"; done \
    | awk '/^olmstead_rollout_step_duration_seconds_count/ {c += $2} /^olmstead_rollout_step_duration_seconds_sum/ {s += $2}
           /^olmstead_rollout_step_duration_seconds_max/ {if ($2 > m) m = $2} END {printf "%d steps, mean %.0f ms, max %.0f ms", c, c ? s * 1000 / c : 0, m * 1000}')
  echo "rollout of 10 waves to 0.9.4: $state after $(since "$tr")s; engine $steps"
fi
echo "fleet-scale: N=$N replicas=$R connected=$connected connect_s=$connect_s heap_max_mib=$heap_max last_ack_s=$(IFS=,; echo "${results[*]}")"
