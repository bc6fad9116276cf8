#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Issue 25's figures at scale (items 3 and 4), each as CPU seconds (user + system) and peak
# resident memory from /usr/bin/time, best of REPEAT runs:
#  - MPI_Alltoall of 1 KiB per pair, 10 times, at 256 and 1,024 ranks (target at 1,024: under
#    5 s of CPU; the program's own send and receive buffers, 2 x N^2 KiB, fault in its pages),
#    with host time ignored, with the ranks out of step by up to 1 us, and measured;
#  - MPI_Allreduce of 8 doubles: host ns per rank and call at 64, 1,024 and 16,384 ranks (from the
#    program's own clock around the loop; target: flat);
#  - start-up: a ring of 100,000 and 1,000,000 ranks (examples/ring.c, one lap, default settings
#    as a newcomer runs it; target at 1,000,000: under 10 s of wall time and 12 GiB).
# With BASELINE_LIB (a directory holding an older build's libsimmpi.so), every run is made with
# both libraries, alternating, and each line gets its ratio to the baseline: the same program
# binary, only the simulator differs. The million-rank ring needs about 10 GiB: run this alone.
#   [BASELINE_LIB=DIR] [REPEAT=3] [QUICK=1] scale_bench.sh [BUILD_DIR]
# QUICK=1 leaves out the 1,024-rank all-to-all, the 16,384-rank allreduce and the million ranks.
set -eu
build=${1:-$(dirname "$0")/../../build}
repeat=${REPEAT:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$(dirname "$0")/programs
"$build/bin/simmpicc" -O2 "$src/alltoall_bench.c" -o "$work/alltoall.sim"
"$build/bin/simmpicc" -O2 "$src/allreduce_bench.c" -o "$work/allreduce.sim"
"$build/bin/simmpicc" -O2 "$(dirname "$0")/../../examples/ring.c" -o "$work/ring.sim"
libs=(new)
[ -n "${BASELINE_LIB:-}" ] && libs=(base new)

# Runs "$@" with the library `$lib`, appending "wall user sys maxrss_kib" and the program's
# output (one line) to $work/$key.$lib.
measure() {
  local key=$1 lib=$2
  shift 2
  local env=()
  [ "$lib" = base ] && env=(env "LD_LIBRARY_PATH=$BASELINE_LIB")
  "${env[@]}" /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" >"$work/out" 2>/dev/null
  echo "$(cat "$work/time") $(tail -1 "$work/out")" >>"$work/$key.$lib"
}
# The run with the least user + system time: "wall user sys maxrss_kib program-output...".
best() { awk '{print $2 + $3, $0}' "$1" | sort -g | head -1 | cut -d' ' -f2-; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

report_cpu() {  # bench ranks extra-fields: one line per library
  local bench=$1 key=$2 ranks=$3
  local base_cpu=""
  for lib in "${libs[@]}"; do
    read -r wall user sys rss _ <<<"$(best "$work/$key.$lib")"
    local cpu
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    local line="bench=$bench lib=$lib ranks=$ranks wall_s=$wall user_s=$user sys_s=$sys"
    line="$line cpu_s=$cpu peak_rss_mib=$((rss / 1024))"
    line="$line kib_per_rank=$(awk -v r="$rss" -v n="$ranks" 'BEGIN { printf "%.2f", r / n }')"
    [ "$lib" = base ] && base_cpu=$cpu
    [ "$lib" = new ] && [ -n "$base_cpu" ] && line="$line cpu_ratio_to_base=$(ratio "$cpu" "$base_cpu")"
    echo "$line"
  done
}

export SIMMPI_SET=runtime.host_time=ignore
alltoall_ranks=(256 1024)
allreduce_ranks=(64 1024 16384)
ring_ranks=(100000 1000000)
if [ -n "${QUICK:-}" ]; then
  alltoall_ranks=(256)
  allreduce_ranks=(64 1024)
  ring_ranks=(100000)
fi

# Three ways of running the all-to-all: host time ignored (every rank in step: each instant's
# flows start and end together, and the network solves them at once); the ranks a little out of
# step, deterministically (each computes 0 to 1 us before each call, drawn by rank and
# repetition); and as a user runs it, with the default measured host time, which puts the ranks
# out of step as much as their measured bursts differ (RESULTS.md, round 4 of the all-to-all).
for n in "${alltoall_ranks[@]}"; do
  for i in $(seq "$repeat"); do
    for lib in "${libs[@]}"; do
      measure "a2a$n" "$lib" "$work/alltoall.sim" -n "$n" --quiet 1024 10
      measure "a2a_skew$n" "$lib" "$work/alltoall.sim" -n "$n" --quiet 1024 10 1000
      measure "a2a_measured$n" "$lib" env -u SIMMPI_SET "$work/alltoall.sim" -n "$n" --quiet 1024 10
    done
  done
  report_cpu alltoall_1k_x10 "a2a$n" "$n"
  report_cpu alltoall_1k_x10_skew_1us "a2a_skew$n" "$n"
  report_cpu alltoall_1k_x10_measured "a2a_measured$n" "$n"
done

for n in "${allreduce_ranks[@]}"; do
  iterations=$((200000 / n))
  [ "$iterations" -lt 10 ] && iterations=10
  base_ns=""
  for i in $(seq "$repeat"); do
    for lib in "${libs[@]}"; do measure "ar$n" "$lib" "$work/allreduce.sim" -n "$n" --quiet "$iterations"; done
  done
  for lib in "${libs[@]}"; do
    # The program prints wall_s= of its loop: host time per rank and call.
    ns=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' "$work/ar$n.$lib" | sort -g | head -1 |
      awk -v n="$n" -v it="$iterations" '{ printf "%.0f", $1 / (n * it) * 1e9 }')
    line="bench=allreduce_8d lib=$lib ranks=$n iterations=$iterations ns_per_rank_call=$ns"
    [ "$lib" = base ] && base_ns=$ns
    [ "$lib" = new ] && [ -n "$base_ns" ] && line="$line ratio_to_base=$(ratio "$ns" "$base_ns")"
    echo "$line"
  done
done

# The ring as a newcomer runs it: the default settings, measured host time included.
unset SIMMPI_SET
for n in "${ring_ranks[@]}"; do
  for i in $(seq "$repeat"); do
    for lib in "${libs[@]}"; do measure "ring$n" "$lib" "$work/ring.sim" -n "$n" --quiet; done
  done
  report_cpu ring_startup "ring$n" "$n"
done
