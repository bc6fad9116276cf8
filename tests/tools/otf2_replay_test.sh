#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# OTF2 archives written by the OTF2 library's writer (replay/otf2_archive_writer.cpp) replayed
# by simmpi-replay, against times computed by hand on the one-switch platform of
# tests/libsimmpi/profile_test.py: an eager 8-byte message to a waiting receiver takes
# ONE_WAY = o_s + L + 8 B / 12.5 GB/s + o_r = 300 + 600 + 0.64 + 200 ns = 1,100,640 ps.
# Rank 0 sends at its compute c0 = 2 ms (x scale), rank 1 receives at c0 + ONE_WAY, computes
# c1 = 4 ms (x scale) and sends back; rank 0 waits for it: the run ends at
# c0 + c1 + 2 ONE_WAY. Scale 0.5: 3 ms + 2,201,280 ps; scale 1: 6 ms + 2,201,280 ps.
# The "nonblocking" archive (nonblocking collectives) replays to the simulated time of its twin
# program's online run (otf2_nonblocking_twin.c, the same calls after the same compute).
#   otf2_replay_test.sh SIMMPI_REPLAY OTF2_ARCHIVE_WRITER NONBLOCKING_TWIN.sim
set -u
replay=$1 writer=$2 twin=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/expect_run.sh"
"$writer" "$tmp/a" && "$writer" "$tmp/rma" rma && "$writer" "$tmp/nbc" nonblocking ||
  { echo "FAIL: writing the archives"; exit 1; }
fails=0
# expect NAME STATUS REGEX ARGS...: simmpi-replay ARGS on the one-switch platform exits with
# STATUS (0 or not 0) and its stderr matches REGEX.
expect() { expect_run "$1" "$2" "$3" "$replay" "${@:4}" "${one_switch_platform[@]}"; }
expect "compute x0.5" 0 "simulated time 0\.003002201280 s" "$tmp/a" --compute-scale 0.5
expect "compute x1" 0 "simulated time 0\.006002201280 s" "$tmp/a/traces.otf2"
expect "an event simmpi does not replay" 1 \
  "rma/traces.otf2: rank 1 at 0\.006502000 s: event RmaPut cannot be replayed \(not implemented\); --skip-unknown" \
  "$tmp/rma" --compute-scale 0.5
expect "skipped when allowed" 0 "skipped 1 RmaPut events" "$tmp/rma" --compute-scale 0.5 --skip-unknown
expect "skipped, same time" 0 "simulated time 0\.003002201280 s" "$tmp/rma" --compute-scale 0.5 --skip-unknown
twin_time=$("$twin" -n 2 "${one_switch_platform[@]}" 2>&1 | sed -nE 's/.*simulated time ([0-9.]+ s).*/\1/p')
if [ -z "$twin_time" ]; then
  echo "FAIL: the nonblocking twin program did not run"
  fails=1
else
  expect "nonblocking collectives, as the twin program's $twin_time" 0 \
    "simulated time ${twin_time//./\\.}" "$tmp/nbc"
fi
[ $fails = 0 ] && echo "otf2_replay: OK"
exit $fails
