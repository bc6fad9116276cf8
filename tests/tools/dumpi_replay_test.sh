#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# DUMPI traces replayed by simmpi-replay, against times computed by hand. The traces are written
# by replay/dumpi_trace_writer.cpp, a writer of OUR OWN that mirrors DUMPI's binary format (not
# DUMPI's library, which is not in Debian); dumpi_native_test.sh checks traces that libdumpi
# itself recorded, when it is given one. Same platform and hand computation as
# otf2_replay_test.sh: an eager 8-byte message to a waiting receiver takes
# ONE_WAY = o_s + L + 8 B / 12.5 GB/s + o_r = 300 + 600 + 0.64 + 200 ns = 1,100,640 ps.
# Rank 0 sends after its compute c0 = 2 ms (x scale), rank 1 receives it (from MPI_ANY_SOURCE,
# matched by its status) at c0 + ONE_WAY, computes c1 = 4 ms (x scale) and sends back; rank 0
# waits for it: the run ends at c0 + c1 + 2 ONE_WAY. Scale 0.5: 3 ms + 2,201,280 ps; scale 1:
# 6 ms + 2,201,280 ps.
#   dumpi_replay_test.sh SIMMPI_REPLAY DUMPI_TRACE_WRITER
set -u
replay=$1 writer=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/expect_run.sh"
for v in pingpong rma spawn truncated; do
  "$writer" "$tmp/$v" $v || { echo "FAIL: writing the $v trace"; exit 1; }
done
fails=0
# expect NAME STATUS REGEX ARGS...: simmpi-replay ARGS on the one-switch platform exits with
# STATUS (0 or not 0) and its stderr matches REGEX.
expect() { expect_run "$1" "$2" "$3" "$replay" "${@:4}" "${one_switch_platform[@]}"; }
expect "compute x0.5" 0 "simulated time 0\.003002201280 s" "$tmp/pingpong.meta" --compute-scale 0.5
expect "compute x1" 0 "simulated time 0\.006002201280 s" "$tmp/pingpong.meta"
expect "a record simmpi does not replay" 1 \
  "rma-0001\.bin: rank 1, record 3 \(MPI_Win_fence\) at 0\.002200000 s: MPI_Win_fence cannot be replayed \(not implemented\); --skip-unknown" \
  "$tmp/rma.meta" --compute-scale 0.5
expect "skipped when allowed" 0 "skipped 1 MPI_Win_fence records" "$tmp/rma.meta" \
  --compute-scale 0.5 --skip-unknown
# The skipped call's measured time passes as compute: the same 4 ms on rank 1.
expect "skipped, same time" 0 "simulated time 0\.003002201280 s" "$tmp/rma.meta" \
  --compute-scale 0.5 --skip-unknown
expect "a record whose fields are not known" 1 \
  "spawn-0001\.bin: rank 1, record 3 \(MPI_Comm_spawn\) at 0\.002200000 s: simmpi does not know the fields" \
  "$tmp/spawn.meta" --skip-unknown
expect "a truncated file" 1 "truncated-0001\.bin: no DUMPI index at its end \(the file is truncated" \
  "$tmp/truncated.meta"
rm "$tmp/pingpong-0001.bin"
expect "a missing rank" 1 "pingpong\.meta: numprocs=2, but rank 1's file .*pingpong-0001\.bin cannot be opened" \
  "$tmp/pingpong.meta"
[ $fails = 0 ] && echo "dumpi_replay: OK"
exit $fails
