#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-traffic builds side by side: the cases of traffic_bench.sh --quick (1,000,000 endpoints
# on a fat-tree and a dragonfly at load 0.1; 16,384 endpoints at 0.05 and 0.2), each binary in
# turn within every round, so that a busy machine weighs on all of them alike; then whether each
# binary's CSV equals the first one's, byte for byte (a speed change must not change a result).
#   tools/bench/traffic_compare.sh ROUNDS BIN... [CASES="ft df t05 t2" in the environment]
# One line per case and round: for each binary, flow events per CPU second of the event loop (as
# the tool prints it), per CPU second (user + system) of the whole process, both times and the
# peak RSS. Give speed changes as ratios of figures on one line.
set -euo pipefail
rounds=${1:?usage: traffic_compare.sh ROUNDS BIN...}
shift
[ $# -ge 1 ] || { echo "traffic_compare: no binary given" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ft=(--set network.topology=fat_tree --set "network.fat_tree.down=[100,100,100]" --pattern uniform
    --load 0.1 --warmup 2 --window 5)
df=(--set network.topology=dragonfly --set network.dragonfly.routers=64
    --set network.dragonfly.terminals=32 --set network.dragonfly.global_links=32
    --set network.dragonfly.groups=489 --pattern uniform --load 0.1 --warmup 2 --window 5)
t16=(--set network.topology=fat_tree --set "network.fat_tree.down=[32,32,16]" --pattern uniform
     --warmup 10 --window 40)
cases=${CASES:-ft df t05 t2}
echo "# traffic_compare: $(date -u +%FT%TZ) load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  for case in $cases; do
    case $case in
      ft) args=("${ft[@]}") ;;
      df) args=("${df[@]}") ;;
      t05) args=("${t16[@]}" --load 0.05) ;;
      t2) args=("${t16[@]}" --load 0.2) ;;
      *) echo "traffic_compare: unknown case $case (ft, df, t05, t2)" >&2; exit 1 ;;
    esac
    line="$case round $round"
    i=0
    for bin in "$@"; do
      err=$( { /usr/bin/time -f "proc=%U+%S rss_kb=%M" "$bin" "${args[@]}" >"$out/$case.$i.csv"; } 2>&1)
      events=$(grep -o '; [0-9]* flow events' <<<"$err" | grep -o '[0-9]*')
      cpu=$(grep -o '([0-9.]* s CPU' <<<"$err" | grep -o '[0-9.]*')
      proc=$(grep -o 'proc=[0-9.+]*' <<<"$err" | cut -d= -f2)
      rss=$(grep -o 'rss_kb=[0-9]*' <<<"$err" | cut -d= -f2)
      line="$line | $i: loop $(awk -v e="$events" -v c="$cpu" 'BEGIN{printf "%.0f", e/c}')"
      line="$line process $(awk -v e="$events" -v p="$proc" 'BEGIN{split(p,x,"+"); printf "%.0f", e/(x[1]+x[2])}')"
      line="$line (${cpu} s, ${proc} s) rss $((rss / 1024)) MiB"
      i=$((i + 1))
    done
    echo "$line"
  done
done
echo "# $(date -u +%FT%TZ) load average $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
for case in $cases; do
  for i in $(seq 1 $(($# - 1))); do
    if cmp -s "$out/$case.0.csv" "$out/$case.$i.csv"; then
      echo "$case: binary $i's CSV equals binary 0's"
    else
      echo "$case: binary $i's CSV DIFFERS from binary 0's"; status=1
    fi
  done
done
exit $status
