#!/usr/bin/env bash
# Agent-channel benchmark helpers (see docs/performance.md, "Agent channel"). Every loop is bounded.
#   change-to-ack N   : N subscription changes through the REST API; prints, per change, the time until the last
#                       connected agent acked the new desired state (from agent_channel_state.acked_at), then p50/p99.
#   rest              : heap after a full GC and CPU of the control plane over 30 s (needs CP_PID).
#   ingest SECONDS    : status rows ingested per second over SECONDS, from the control plane's metrics.
# Environment: CP (base URL), ADMIN (admin token), PGPORT (embedded PostgreSQL port), CP_PID.
set -euo pipefail
CP=${CP:-http://127.0.0.1:18080}
ADMIN=${ADMIN:-olm_admin_bench-token-0123456789}
PG="psql -h 127.0.0.1 -p ${PGPORT:?set PGPORT} -U postgres -d postgres -Atc"

put_subscription() {
  curl -sf -o /dev/null -X PUT -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
    "$CP/api/v1/subscriptions/etcd" -d "{\"catalog\":\"bench\",\"package\":\"etcd\",\"channel\":\"singlenamespace-alpha\",
    \"namespace\":\"etcd\",\"placement\":{\"selector\":\"fleet=hollow\"},\"version\":{\"pin\":\"$1\"},\"approval\":\"Automatic\"}"
}

change_to_ack() {
  local n=$1 results=()
  for i in $(seq 1 "$n"); do
    local v=0.9.4; [ $((i % 2)) = 0 ] && v=0.9.2
    local t0; t0=$($PG "select extract(epoch from clock_timestamp())")
    put_subscription "$v"
    local done=""
    for _ in $(seq 1 600); do   # at most 120 s per change
      local row; row=$($PG "select count(*) filter (where s.acked_at is null or s.acked_at < to_timestamp($t0)
          or s.acked_generation < s.desired_generation), extract(epoch from max(s.acked_at)) - $t0
          from agent_channel_state s join clusters c on c.name = s.cluster where c.status = 'connected'")
      if [ "${row%%|*}" = "0" ]; then done=${row#*|}; break; fi
      sleep 0.2
    done
    [ -n "$done" ] || { echo "change $i: not all agents acked within 120 s"; continue; }
    echo "change $i -> $v: last ack after ${done}s"
    results+=("$done")
    sleep 3   # let hollow agents finish reporting before the next change
  done
  printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {if (NR==0) exit; p50=a[int((NR+1)/2)]; i=int(NR*0.99+0.999); if(i>NR)i=NR; printf "p50 %.3fs  p99 %.3fs  (n=%d)\n", p50, a[i], NR}'
}

rest() {
  jcmd "${CP_PID:?set CP_PID}" GC.run >/dev/null
  jcmd "$CP_PID" GC.heap_info | head -3
  local t1; t1=$(awk '{print $14+$15}' /proc/"$CP_PID"/stat)
  sleep 30
  local t2; t2=$(awk '{print $14+$15}' /proc/"$CP_PID"/stat)
  echo "control plane CPU at rest: $(( (t2 - t1) * 100 / $(getconf CLK_TCK) / 30 ))% of one core over 30 s"
}

ingest() {
  local s=$1
  local r1; r1=$(curl -s "$CP/metrics" | awk '/^olmstead_agent_ingest_batch_rows_sum/ {print $2}')
  sleep "$s"
  local r2; r2=$(curl -s "$CP/metrics" | awk '/^olmstead_agent_ingest_batch_rows_sum/ {print $2}')
  awk -v a="$r1" -v b="$r2" -v s="$s" 'BEGIN {printf "status rows ingested: %.0f/s over %ds\n", (b-a)/s, s}'
}

case "${1:-}" in
  change-to-ack) change_to_ack "${2:-20}" ;;
  rest) rest ;;
  ingest) ingest "${2:-30}" ;;
  *) echo "usage: $0 change-to-ack N | rest | ingest SECONDS"; exit 2 ;;
esac
