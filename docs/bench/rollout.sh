#!/usr/bin/env bash
# Rollout benchmark (see docs/performance.md, "Rollouts"): with the hollow fleet of the agent-channel benchmark
# connected and every cluster Succeeded at 0.9.2, roll etcd to TARGET in waves of BATCH with no soak, wait for the
# end (bounded), then print per wave: clusters, open -> last cluster report (delivery + the agents' own work),
# last report -> wave completed (the engine's reaction), completed -> next wave opened, and the control plane's CPU.
# Environment: CP, ADMIN, PGPORT, CP_PID as for agent-channel.sh.
set -euo pipefail
CP=${CP:-http://127.0.0.1:18080}
ADMIN=${ADMIN:-olm_admin_bench-token-0123456789}
PG="psql -h 127.0.0.1 -p ${PGPORT:?set PGPORT} -U postgres -d postgres -Atc"
TARGET=${1:-0.9.4}
BATCH=${2:-1000}

ticks() { awk '{print $14+$15}' /proc/"${CP_PID:?set CP_PID}"/stat; }
t1=$(ticks); s1=$(date +%s.%N)
id=$(curl -sf -X POST -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' "$CP/api/v1/rollouts" \
  -d "{\"subscription\":\"etcd\",\"targetVersion\":\"$TARGET\",\"strategy\":{\"batchSize\":$BATCH,\"soakSeconds\":0,
      \"progressDeadlineSeconds\":600,\"maxFailures\":0,\"onFailure\":\"pause\"}}" \
  | python3 -c "import json,sys;print(json.load(sys.stdin)['id'])")
echo "rollout $id"
state=Progressing
for _ in $(seq 1 1800); do   # at most 30 minutes
  state=$($PG "select state from rollouts where id = '$id'")
  [ "$state" = Progressing ] || break
  sleep 1
done
t2=$(ticks); s2=$(date +%s.%N)
echo "state $state after $(awk "BEGIN{printf \"%.1f\", $s2 - $s1}") s; control plane CPU $(awk "BEGIN{printf \"%.0f\", ($t2 - $t1) * 100 / $(getconf CLK_TCK) / ($s2 - $s1)}")% of one core on average"
$PG "with w as (select idx, name, opened_at, completed_at, lead(opened_at) over (order by idx) next_open
                from rollout_waves where rollout_id = '$id'),
          r as (select rc.wave, count(*) n, max(st.updated_at) last_report
                from rollout_clusters rc join subscription_status st
                  on st.subscription = 'etcd' and st.cluster = rc.cluster
                where rc.rollout_id = '$id' group by rc.wave)
     select w.name, r.n,
            round(extract(epoch from r.last_report - w.opened_at)::numeric, 2),
            round(extract(epoch from w.completed_at - r.last_report)::numeric, 2),
            coalesce(round(extract(epoch from w.next_open - w.completed_at)::numeric, 2)::text, '-')
     from w join r on r.wave = w.idx order by w.idx" \
  | awk -F'|' 'BEGIN {print "wave | clusters | open->last report s | last report->completed s | completed->next open s"}
               {print $1" | "$2" | "$3" | "$4" | "$5}'
