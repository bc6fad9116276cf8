# SPDX-License-Identifier: Apache-2.0
# Sourced by the replay tests (replay_bad_input, replay_otf2_archive, replay_dumpi_trace): one
# check of a command's exit status and message, so each test lists only its cases. The sourcing
# script sets `tmp` (a scratch directory) and `fails=0`; a failed check prints FAIL and sets
# fails=1, and the script goes on to its other cases.

# The one-switch platform of tests/libsimmpi/profile_test.py, on which the OTF2 and DUMPI tests
# compute their times by hand: an eager 8-byte message to a waiting receiver takes
# ONE_WAY = o_s + L + 8 B / 12.5 GB/s + o_r = 300 + 600 + 0.64 + 200 ns = 1,100,640 ps.
one_switch_platform=(--set mpi.send_overhead=300ns --set mpi.recv_overhead=200ns
                     --set network.nic_latency=500ns --set network.hop_latency=100ns
                     --set network.link_bw=100Gbps --set mpi.eager_threshold=64KiB)

# expect_run NAME STATUS REGEX COMMAND...: COMMAND exits with STATUS (0, or 1 for any status
# but 0) and its stderr matches REGEX (extended).
expect_run() {
  local name=$1 status=$2 re=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if { [ "$status" = 0 ] && [ $got != 0 ]; } || { [ "$status" != 0 ] && [ $got = 0 ]; }; then
    echo "FAIL: $name: exit status $got"
    cat "$tmp/err"
    fails=1
  elif ! grep -qE "$re" "$tmp/err"; then
    echo "FAIL: $name: stderr does not match: $re"
    cat "$tmp/err"
    fails=1
  else
    echo "ok: $name: $(grep -E "$re" "$tmp/err" | head -1)"
  fi
}
