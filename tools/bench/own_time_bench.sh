#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Issue 18's benchmarks of the measured own code (runtime.host_time = measure):
#  1. robustness: the same per-rank work at 1, 64 and 4,096 ranks is charged within 10%?
#     (own_time_bench.c: compute-bound work, and passes over a 256 KiB array per rank)
#  2. cost: host time of an 8-byte ping-pong (pingpong_bench, 200,000 round trips) and of a
#     halo exchange at 4,096 ranks, measure against ignore, interleaved, best of 3 each.
#  3. preempted bursts: 100,000 bursts of ~8 us (preempted_bursts_bench.c) on core 0, alone and
#     with a spinning process on the same core: what the bursts the host preempted are charged.
#   own_time_bench.sh [BUILD_DIR]
set -eu
build=${1:-$(dirname "$0")/../../build}
bin=$build/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/simmpicc" -O2 "$(dirname "$0")/programs/own_time_bench.c" -o "$work/own.sim"
"$bin/simmpicc" -O2 "$(dirname "$0")/programs/pingpong_bench.c" -o "$work/pp.sim"
"$bin/simmpicc" -O2 "$(dirname "$0")/programs/halo_bench.c" -o "$work/halo.sim"
"$bin/simmpicc" -O2 "$(dirname "$0")/programs/preempted_bursts_bench.c" -o "$work/pb.sim"
unset SIMMPI_SET

echo "== robustness: per-rank charge of the same work (host_time_scale = 1)"
for kind in compute cache; do
  for n in 1 64 4096; do
    "$work/own.sim" -n "$n" --quiet --set runtime.host_time=measure \
      --set runtime.host_time_scale=1 "$kind" 10
  done
done

# user+system CPU seconds of a command, best of 3 (interleaved by the caller).
cpu_of() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
best() { sort -g | head -1; }

echo "== cost: CPU seconds, best of 3, measure against ignore in the same loop"
for prog in "pp.sim -n 2 200000" "halo.sim -n 4096"; do
  set -- $prog
  exe=$work/$1
  shift
  : >"$work/ign"
  : >"$work/mea"
  for i in 1 2 3; do
    cpu_of "$exe" --quiet --set runtime.host_time=ignore "$@" >>"$work/ign"
    cpu_of "$exe" --quiet --set runtime.host_time=measure "$@" >>"$work/mea"
  done
  ign=$(best <"$work/ign")
  mea=$(best <"$work/mea")
  awk -v p="$prog" -v i="$ign" -v m="$mea" \
    'BEGIN { printf "%-22s ignore %.3f s  measure %.3f s  ratio %.3f\n", p, i, m, m / i }'
done

echo "== preempted bursts: charged host time of 100,000 bursts, alone and beside a spinning process"
bursts() { taskset -c 0 "$work/pb.sim" -n 1 --quiet --set runtime.host_time=measure \
  --set runtime.host_time_scale=1 2000 100000; }
echo "alone:  $(bursts)"
taskset -c 0 yes >/dev/null &
spinner=$!
echo "beside: $(bursts)"
kill "$spinner"
