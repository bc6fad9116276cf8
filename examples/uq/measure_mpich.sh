#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Makes netbench_mpich.csv, the measurements docs/uq.md calibrates against: examples/netbench.c
# built with Debian's MPICH (mpicc.mpich) and run natively with mpiexec.mpich on 2 processes
# (one machine: MPICH's shared-memory transport), three repetitions of each configuration (each
# the fastest of its iterations: see netbench.c).
#   examples/uq/measure_mpich.sh > examples/uq/netbench_mpich.csv
set -e
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
mpicc.mpich -O2 "$here/../netbench.c" -o "$bin/netbench"
echo "# $(uname -n), $(nproc) cores, $(mpichversion 2>/dev/null | head -1 | tr -s ' \t' ' '), $(date -u +%F), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "op,ranks,bytes,repetition,time_s"
for rep in 1 2 3; do
  for cfg in "pingpong 8 2000" "pingpong 512 2000" "pingpong 4096 1000" "pingpong 32768 500" \
             "pingpong 262144 400" "pingpong 1048576 200" "allreduce 8 2000" "allreduce 4096 1000" \
             "allreduce 65536 1000" "allreduce 1048576 200"; do
    set -- $cfg
    t=$(mpiexec.mpich -n 2 "$bin/netbench" "$1" "$2" "$3" | sed 's/.*time_s=//')
    echo "$1,2,$2,$rep,$t"
  done
done
