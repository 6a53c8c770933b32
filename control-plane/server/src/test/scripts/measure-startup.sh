#!/usr/bin/env bash
# Time from `java -jar olmstead-dev.jar dev --fresh` to the first 200 from /readyz, N runs, median printed.
# Usage: control-plane/server/src/test/scripts/measure-startup.sh [runs=5] [port=18080]
set -euo pipefail
runs=${1:-5}
port=${2:-18080}
jar=control-plane/dev/target/olmstead-dev.jar
[ -f "$jar" ] || { echo "build first: ./mvnw -B -q package -DskipTests" >&2; exit 1; }
data=$(mktemp -d)
times=()
for i in $(seq 1 "$runs"); do
  start=$(date +%s%N)
  java -jar "$jar" dev --fresh --port "$port" --data-dir "$data" >/dev/null 2>&1 &
  pid=$!
  ok=0
  for _ in $(seq 1 600); do  # at most 60 s
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ]; then ok=1; break; fi
    sleep 0.1
  done
  end=$(date +%s%N)
  kill "$pid"; wait "$pid" 2>/dev/null || true
  [ "$ok" = 1 ] || { echo "run $i: not ready within 60 s" >&2; exit 1; }
  ms=$(( (end - start) / 1000000 ))
  echo "run $i: ${ms} ms"
  times+=("$ms")
done
rm -rf "$data"
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " ms over " NR " runs"}'
