#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# flow_bench against its peer flow_bench_simgrid (SimGrid 3.32, see flow_bench_simgrid.cpp) in one
# command, as the project's benchmarks are recorded: the two binaries alternate (the order flips
# every run), best of RUNS runs each, on the same trees and flow counts as flow_bench's `scaled`
# lines. Prints every run's line, then a table: F, nodes, events/s of each, their ratio, and the
# peak RSS of each (GNU time's %M, largest over the runs).
#
#   tools/bench/flow_vs_simgrid.sh BUILD_DIR
# Environment: RUNS (3), SIMMPI_EVENTS (2000000: flow_bench's standard count), SG_EVENTS_1K
# (200000), SG_EVENTS_10K (20000), WITH_100K=1 to add F = 100,000 on 102,400 nodes (off: one
# SimGrid run there took 9 minutes, 75 s to build the platform and 7.5 minutes for the 40,000
# warm-up events at about 13 ms each, and 6 GB of RSS), SG_EVENTS_100K (2000).
# SimGrid times fewer events than flow_bench because it is much slower per event; both time the
# closed loop's steady state after the same warm-up (min(F, 20,000) deliveries).
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$1
simmpi=$build/bin/flow_bench
peer=$build/bin/flow_bench_simgrid
for b in "$simmpi" "$peer"; do
  if [[ ! -x $b ]]; then
    echo "$0: $b is missing (cmake --build $build --target flow_bench flow_bench_simgrid;" \
         "flow_bench_simgrid needs SimGrid: apt-get install libsimgrid-dev)" >&2
    exit 2
  fi
done
if [[ ! -x /usr/bin/time ]]; then
  echo "$0: /usr/bin/time (GNU time) is needed for the peak RSS" >&2
  exit 2
fi

runs=${RUNS:-3}
simmpi_events=${SIMMPI_EVENTS:-2000000}
configs=("1000|[16, 8, 8]|${SG_EVENTS_1K:-200000}"
         "10000|[32, 16, 20]|${SG_EVENTS_10K:-20000}")
if [[ ${WITH_100K:-0} == 1 ]]; then
  configs+=("100000|[64, 40, 40]|${SG_EVENTS_100K:-2000}")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME OUTFILE COMMAND...: appends "events_per_s rss_kb" to OUTFILE, echoes the line.
run() {
  local name=$1 out=$2
  shift 2
  local line
  line=$(/usr/bin/time -f %M -o "$tmp/rss" "$@" 2>"$tmp/err" | grep '^bench=flow') || {
    echo "$name failed:" >&2
    cat "$tmp/err" >&2
    exit 1
  }
  echo "$line rss_kb=$(tail -1 "$tmp/rss")"
  echo "$(sed 's/.*events_per_s=\([0-9]*\).*/\1/' <<<"$line") $(tail -1 "$tmp/rss")" >>"$out"
}

echo "# flow_vs_simgrid: $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)," \
     "runs=$runs, flow_bench events=$simmpi_events"
table=()
for c in "${configs[@]}"; do
  IFS='|' read -r flows tree sg_events <<<"$c"
  : >"$tmp/s.$flows"
  : >"$tmp/g.$flows"
  for ((r = 0; r < runs; r++)); do
    s=(run simmpi "$tmp/s.$flows" "$simmpi" --tree "$tree" --flows "$flows" --events "$simmpi_events")
    g=(run simgrid "$tmp/g.$flows" "$peer" --tree "$tree" --flows "$flows" --events "$sg_events"
       --log=root.thres:warning)
    if ((r % 2 == 0)); then "${s[@]}"; "${g[@]}"; else "${g[@]}"; "${s[@]}"; fi
  done
  nodes=$(awk -v t="$tree" 'BEGIN { gsub(/[][ ]/, "", t); n = split(t, m, ","); p = 1;
                                     for (i = 1; i <= n; i++) p *= m[i]; print p }')
  best_s=$(sort -n "$tmp/s.$flows" | tail -1 | cut -d' ' -f1)
  best_g=$(sort -n "$tmp/g.$flows" | tail -1 | cut -d' ' -f1)
  rss_s=$(cut -d' ' -f2 "$tmp/s.$flows" | sort -n | tail -1)
  rss_g=$(cut -d' ' -f2 "$tmp/g.$flows" | sort -n | tail -1)
  table+=("$(awk -v f="$flows" -v n="$nodes" -v s="$best_s" -v g="$best_g" -v rs="$rss_s" \
                 -v rg="$rss_g" -v es="$simmpi_events" -v eg="$sg_events" \
      'BEGIN { printf "| %d | %d | %d | %d | %.1f | %.1f | %.1f | %d / %d |", f, n, s, g, s / g,
               rs / 1024, rg / 1024, es, eg }')")
done
if [[ ${WITH_100K:-0} != 1 ]]; then
  echo "# F=100000 skipped (set WITH_100K=1): about 9 minutes and 6 GB per SimGrid run"
fi
echo
echo "| F | nodes | simmpi events/s | SimGrid events/s | simmpi/SimGrid | simmpi peak RSS MB | SimGrid peak RSS MB | timed events (simmpi / SimGrid) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${table[@]}"
