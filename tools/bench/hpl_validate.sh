#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Validation of simmpi's HPL prediction against real hardware (issue 6): the same HPL sources
# (simmpi-hpl's, by default Debian's hpcc) built natively with MPICH and single-threaded OpenBLAS,
# run on this machine, against simmpi-hpl's model-mode prediction on a platform that
# simmpi-calibrate wrote for this machine (one core per rank, ranks_per_node = ranks, and the
# shared-memory latency and bandwidth between two ranks measured here with an MPICH ping-pong).
# Prints a table of N, ranks, native and predicted time and Gflop/s, and the error.
#   tools/bench/hpl_validate.sh BUILD_DIR [WORK_DIR]
# Environment: NS (default "2000 4000 6000 8000 10000"), RANKS ("1 2"), NB (128), REPEAT (5:
# native runs keep their best time, as the machine may be shared), CLOCK (cpu: HPL's timer
# reads the process's CPU time, as simmpi-calibrate does, so other processes' time slices are
# not counted; wall: HPL's own wall-clock timer), NICE (niceness of the native runs, e.g. -15
# as root so that other processes' time slices disturb them less; default 0), DETAIL (1: also print HPL's phase times,
# native and simulated, from builds with -DHPL_DETAILED_TIMING). Native results are kept in
# WORK_DIR and reused (delete run-*/native-*.txt to measure again). Needs mpicc and OpenBLAS
# (apt-get install libmpich-dev mpich libopenblas-dev). Everything is built in WORK_DIR
# (default: a directory under /tmp), never in the source tree.
set -euo pipefail
build=$(cd "$1" && pwd)
work=${2:-/tmp/simmpi-hpl-validate}
NS=${NS:-"2000 4000 6000 8000 10000"}
RANKS=${RANKS:-"1 2"}
NB=${NB:-128}
REPEAT=${REPEAT:-5}
CLOCK=${CLOCK:-cpu}
DETAIL=${DETAIL:-0}
NICE=${NICE:-0}
hpl="$build/bin/simmpi-hpl"
cores=$(nproc --all)
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1  # single-threaded BLAS, one core per rank
mkdir -p "$work/native/obj"
read -r root flavour < <("$hpl" --print-source)
[ "$flavour" = hpcc ] || { echo "hpl_validate: expects hpcc's HPL (got $flavour)" >&2; exit 2; }

# Native HPL: HPL's files and simmpi-hpl's driver for hpcc's HPL_main, with mpicc and OpenBLAS,
# with HPL_DETAILED_TIMING (its phase timers cost nothing measurable). xhpl-cpu replaces HPL's
# wall-clock timer by the process's CPU time.
if [ ! -x "$work/native/xhpl-cpu" ]; then
  for f in "$root"/src/*/*.c "$root"/testing/{matgen,pmatgen,ptest,ptimer,timer}/*.c \
           "$build/share/simmpi/hpl/hpcc_main.c"; do
    echo "mpicc -O2 -DHPL_CALL_CBLAS -DHPL_DETAILED_TIMING -I$root/include -c $f -o $work/native/obj/$(basename "$f" .c).o"
  done | xargs -P 2 -I{} sh -c {}
  cat >"$work/native/cputime.c" <<'C'
#include <time.h>
double HPL_timer_walltime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
C
  mpicc -O2 -c "$work/native/cputime.c" -o "$work/native/cputime.o"
  mpicc -o "$work/native/xhpl-wall" "$work"/native/obj/*.o -lopenblas -lm
  mpicc -o "$work/native/xhpl-cpu" $(ls "$work"/native/obj/*.o | grep -v /HPL_timer_walltime.o) \
    "$work/native/cputime.o" -lopenblas -lm
fi

# Two MPICH ranks on this machine: latency (8 B) and bandwidth (4 MiB) of a ping-pong.
if [ ! -f "$work/shm.txt" ]; then
  cat >"$work/native/pingpong.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static double half_rtt(int rank, char* buf, int bytes, int reps) {
  double best = 1e9;
  for (int r = 0; r < 5; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < reps; ++i) {
      if (rank == 0) {
        MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
    t = (MPI_Wtime() - t) / (2.0 * reps);
    if (t < best) best = t;
  }
  return best;
}
int main(int argc, char** argv) {
  int rank, big = 4 << 20;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* buf = calloc(big, 1);
  double lat = half_rtt(rank, buf, 8, 2000), t = half_rtt(rank, buf, big, 20);
  if (rank == 0) printf("%.0fns %.3fGB/s\n", lat * 1e9, big / (t - lat) / 1e9);
  MPI_Finalize();
  return 0;
}
C
  mpicc -O2 "$work/native/pingpong.c" -o "$work/native/pingpong"
  mpiexec -n 2 "$work/native/pingpong" >"$work/shm.txt"
fi
read -r shm_lat shm_bw <"$work/shm.txt"

# This machine as a simmpi platform, from simmpi-calibrate (kept between runs).
if [ ! -f "$work/host.toml" ]; then
  "$build/bin/simmpi-calibrate" --profile="$work/host-profile.toml" \
    --platform-out="$work/host.toml" >"$work/calibrate.log"
fi

echo "# $(date -u +%FT%TZ) $cores cores; clock $CLOCK; nice $NICE; best of $REPEAT native runs;" \
     "shm ping-pong: $shm_lat, $shm_bw"
printf "%8s %5s %5s %10s %10s %10s %10s %8s %16s\n" N ranks NB native_s native_Gf sim_s sim_Gf \
  error% load_avg_1min
for ranks in $RANKS; do
  for n in $NS; do
    run="$work/run-$ranks-$n-$NB"
    mkdir -p "$run"
    "$hpl" --print-dat --n "$n" --nb "$NB" --p 1 --q "$ranks" >"$run/hpccinf.txt"
    native="$run/native-$CLOCK.txt"
    if [ ! -s "$native" ]; then
      best="" loads=""
      for _ in $(seq "$REPEAT"); do
        rm -f "$run/hpccoutf.txt"
        (cd "$run" && nice -n "$NICE" mpiexec -n "$ranks" "$work/native/xhpl-$CLOCK" >/dev/null)
        loads="$loads $(cut -d' ' -f1 /proc/loadavg)"
        t=$(awk '/^W[RC]/ {print $6}' "$run/hpccoutf.txt")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
          best=$t
          cp "$run/hpccoutf.txt" "$run/native-best-$CLOCK.out"
        fi
      done
      echo "$best $(echo $loads | tr ' ' ',')" >"$native"
    fi
    read -r best loads <"$native"
    sim=$("$hpl" --platform "$work/host.toml" --set node.ranks_per_node="$ranks" \
            --set node.shm_latency="$shm_lat" --set node.shm_bw="$shm_bw" \
            --n "$n" --nb "$NB" --p 1 --q "$ranks" | sed -n 's/.*result .*time_s=\([^ ]*\).*/\1/p')
    awk -v n="$n" -v r="$ranks" -v nb="$NB" -v t="$best" -v s="$sim" -v l="$loads" 'BEGIN {
      f = 2.0 / 3.0 * n * n * n + 1.5 * n * n
      printf "%8d %5d %5d %10.3f %10.3f %10.3f %10.3f %+8.1f %16s\n", n, r, nb, t, f / t / 1e9,
             s, f / s / 1e9, 100 * (s / t - 1), l }'
    if [ "$DETAIL" = 1 ]; then
      echo "  native phases (s):  $(grep 'aggregated' "$run/native-best-$CLOCK.out" | sort -u |
                                    sed 's/.*wall time \([a-z ]*[a-z]\) .*: *\(.*\)/\1 \2/' | paste -sd, -)"
      echo "  simmpi phases (s):  $("$hpl" --detailed-timing --verbose --platform "$work/host.toml" \
            --set node.ranks_per_node="$ranks" --set node.shm_latency="$shm_lat" \
            --set node.shm_bw="$shm_bw" --n "$n" --nb "$NB" --p 1 --q "$ranks" 2>&1 |
            grep 'aggregated' | sort -u | sed 's/.*wall time \([a-z ]*[a-z]\) .*: *\(.*\)/\1 \2/' |
            paste -sd, -)"
    fi
  done
done
