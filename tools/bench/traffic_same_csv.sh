#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Whether two simmpi-traffic builds compute the same thing: the CSV of each case below, byte for
# byte. The cases are round 4's fourteen (RESULTS.md, "Link state only where flows are"; the two
# million-endpoint bench cases among them), chosen to reach every path of the network model: the
# solver near and past saturation, several flows per NIC, chunked messages, a flow cap, adaptive and
# Valiant routing, a torus, a crossbar, capacities that are not a whole number of kB/s, unequal
# levels. A speed change must leave them all equal. About 3-4 minutes per binary on 2 vCPUs.
#   tools/bench/traffic_same_csv.sh BASE_BIN NEW_BIN
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: traffic_same_csv.sh BASE_BIN NEW_BIN" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
t256=(--set network.topology=fat_tree --set "network.fat_tree.down=[16,16]" --warmup 5 --window 20)
t16k=(--set network.topology=fat_tree --set "network.fat_tree.down=[32,32,16]" --pattern uniform
      --warmup 10 --window 40)
d1k=(--set network.topology=dragonfly --set network.dragonfly.routers=8
     --set network.dragonfly.terminals=4 --set network.dragonfly.global_links=4
     --set network.dragonfly.groups=33 --warmup 5 --window 20)
d1m=(--set network.topology=dragonfly --set network.dragonfly.routers=64
     --set network.dragonfly.terminals=32 --set network.dragonfly.global_links=32
     --set network.dragonfly.groups=489 --warmup 2 --window 5)
t1m=(--set network.topology=fat_tree --set "network.fat_tree.down=[100,100,100]" --warmup 2
     --window 5)
cases=(ft df t16k t256_outstanding bit_complement_bursty hot_spot_chunks dragonfly_worst_ugal
       valiant_flow_cap torus_neighbor crossbar odd_kBps slow_level dragonfly_worst_ugal_1m)
run() {  # run CASE BIN OUT
  local a
  case $1 in
    ft) a=("${t1m[@]}" --pattern uniform --load 0.1) ;;
    df) a=("${d1m[@]}" --pattern uniform --load 0.1) ;;
    t16k) a=("${t16k[@]}" --load "0.05,0.2,0.5") ;;
    t256_outstanding) a=("${t256[@]}" --pattern uniform --load "0.4,0.7" --outstanding 4) ;;
    bit_complement_bursty)
      a=("${t256[@]}" --pattern bit_complement --injection bursty --outstanding 1
         --load "0.3,0.8") ;;
    hot_spot_chunks)
      a=("${t256[@]}" --pattern hot_spot --size 1MiB --set network.chunk_size=128KiB
         --load "0.2,0.6") ;;
    dragonfly_worst_ugal)
      a=("${d1k[@]}" --pattern dragonfly_worst --set network.dragonfly.routing=ugal
         --load "0.2,0.6") ;;
    valiant_flow_cap)
      a=("${d1k[@]}" --pattern uniform --set network.dragonfly.routing=valiant
         --set network.flow_max_bw=40Gbps --load "0.3,0.7") ;;
    torus_neighbor)
      a=(--set network.topology=torus --pattern neighbor --warmup 5 --window 20 --load "0.3,0.8") ;;
    crossbar)
      a=(--set node.count=64 --pattern uniform --warmup 5 --window 20 --load "0.5,0.9") ;;
    odd_kBps)  # 12,500,000.5 kB/s: a flow alone makes its links tight
      a=("${t256[@]}" --set network.link_bw=12.5000005GB/s --pattern uniform --load "0.3,0.7") ;;
    slow_level)
      a=("${t256[@]}" --set "network.fat_tree.level_bw=[100Gbps, 50Gbps]" --pattern transpose
         --load "0.3,0.7") ;;
    dragonfly_worst_ugal_1m)
      a=("${d1m[@]}" --pattern dragonfly_worst --set network.dragonfly.routing=ugal --load 0.1) ;;
  esac
  "$2" --quiet "${a[@]}" >"$3"
}
status=0
for c in "${cases[@]}"; do
  run "$c" "$1" "$out/base.csv"
  run "$c" "$2" "$out/new.csv"
  if cmp -s "$out/base.csv" "$out/new.csv"; then
    echo "$c: same CSV (offered loads: $(($(wc -l <"$out/new.csv") - 1)))"
  else
    echo "$c: the CSVs DIFFER"
    diff "$out/base.csv" "$out/new.csv" || true
    status=1
  fi
done
exit $status
