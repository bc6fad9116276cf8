#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-traffic's host cost (issue 23, item 4): flow events per second of host time and peak
# memory, at 1,000,000 endpoints (a 3-level fat-tree and a balanced dragonfly) and, for the cost
# against the offered load, on a 16,384-node fat-tree; flow_bench's closed loop on the same
# 16,384-node tree in the same command is the peer (the network alone, no sources).
#   tools/bench/traffic_bench.sh BUILD_DIR [--quick]
# A flow event is a message entering the network or its last byte leaving the source (2 per
# message), the same count as flow_bench's. Prints one parseable line per run:
#   bench=traffic topology=fat_tree nodes=1000000 pattern=uniform load=0.1 flow_events=...
#   wall_s=... cpu_s=... flow_events_per_s=... flow_events_per_cpu_s=... peak_rss_mib=...
# Times are the simulation's (building the network excluded), wall and CPU: on a shared machine
# the CPU figure is the one to compare; peak memory is the whole process's.
set -euo pipefail
build=${1:?usage: traffic_bench.sh BUILD_DIR [--quick]}
quick=${2:-}
tool=$build/bin/simmpi-traffic
[ -x "$tool" ] || { echo "traffic_bench: $tool not built" >&2; exit 1; }

# run NAME NODES ARGS...: one load (the tool's progress line has the events and host time).
run() {
  local name=$1 nodes=$2
  shift 2
  local err
  err=$( { /usr/bin/time -f "rss_kb=%M" "$tool" "$@" >/dev/null; } 2>&1)
  local line events wall cpu rss load pattern
  line=$(grep "flow events in" <<<"$err")
  load=$(sed -E 's/.*: load ([0-9.e+-]+):.*/\1/' <<<"$line")
  events=$(sed -E 's/.*; ([0-9]+) flow events in ([0-9.]+) s of host time \(([0-9.]+) s CPU.*/\1/' <<<"$line")
  wall=$(sed -E 's/.*; ([0-9]+) flow events in ([0-9.]+) s of host time \(([0-9.]+) s CPU.*/\2/' <<<"$line")
  cpu=$(sed -E 's/.*; ([0-9]+) flow events in ([0-9.]+) s of host time \(([0-9.]+) s CPU.*/\3/' <<<"$line")
  rss=$(grep -o 'rss_kb=[0-9]*' <<<"$err" | cut -d= -f2)
  pattern=$(sed -E 's/simmpi-traffic: ([a-z_]+) traffic.*/\1/' <<<"$(head -1 <<<"$err")")
  echo "bench=traffic topology=$name nodes=$nodes pattern=$pattern load=$load" \
       "flow_events=$events wall_s=$wall cpu_s=$cpu" \
       "flow_events_per_s=$(awk -v e="$events" -v w="$wall" 'BEGIN{printf "%.0f", e/w}')" \
       "flow_events_per_cpu_s=$(awk -v e="$events" -v c="$cpu" 'BEGIN{printf "%.0f", e/c}')" \
       "peak_rss_mib=$(awk -v k="$rss" 'BEGIN{printf "%.1f", k/1024}')"
}

fat_tree_1m=(--set network.topology=fat_tree --set "network.fat_tree.down=[100,100,100]")
# Balanced dragonfly a = 2p = 2h = 64: 489 groups of 64 routers x 32 nodes = 1,001,472 nodes.
dragonfly_1m=(--set network.topology=dragonfly --set network.dragonfly.routers=64
              --set network.dragonfly.terminals=32 --set network.dragonfly.global_links=32
              --set network.dragonfly.groups=489)
tree_16k=(--set network.topology=fat_tree --set "network.fat_tree.down=[32,32,16]")

echo "# traffic_bench: $(date -u +%FT%TZ) $(git -C "$(dirname "$0")" rev-parse --short HEAD)" \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# 64 KiB messages, Poisson injection, 16 outstanding per source; warm-up and window in" \
     "message times (5.24 us)"
run fat_tree 1000000 "${fat_tree_1m[@]}" --pattern uniform --load 0.1 --warmup 2 --window 5
run dragonfly 1001472 "${dragonfly_1m[@]}" --pattern uniform --load 0.1 --warmup 2 --window 5
# Bit complement on 2^20 endpoints: under D-mod-K no two flows share a link (traffic_test.py),
# so the solver has little to do; this is the driver's own cost per event.
if [ "$quick" != "--quick" ]; then
  run fat_tree 1048576 --set network.topology=fat_tree --set "network.fat_tree.down=[128,128,64]" \
      --pattern bit_complement --load 0.5 --warmup 2 --window 5
fi
for load in 0.05 0.2 0.5; do
  run fat_tree 16384 "${tree_16k[@]}" --pattern uniform --load $load --warmup 10 --window 40
done
# The peer: the network alone under flow_bench's closed loop, same tree.
if [ -x "$build/bin/flow_bench" ]; then
  "$build/bin/flow_bench" --tree "[32, 32, 16]" --flows 1000 --events 1000000
fi
