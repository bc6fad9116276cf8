#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# HPL waits for its panels by busy-polling MPI_Iprobe; mpi.poll_fast_forward must give the same
# predicted time as polling every mpi.poll_cost (also when it starts after 100 identical polls
# instead of 1,000), with far fewer events: 3x at least, fruitless polls being cheap without it
# too (they are owed, not slept, while nothing can arrive) (model mode, 16 ranks,
# HPL's default 1ringM broadcast and lookahead, which probe inside bounded loops too; with
# --explicit-update, since simmpi-hpl's update model makes the busy-polling at the end of HPL's
# trailing update in one simmpi_poll_rounds call anyway).
#   hpl_poll_test.sh BUILD_DIR
set -u
run() {
  "$1/bin/simmpi-hpl" --n 7680 --nb 192 --p 4 --q 4 --explicit-update --set mpi.poll_fast_forward="$2" \
    --set mpi.poll_fast_forward_after="$3" 2>&1
}
on=$(run "$1" true 1000) off=$(run "$1" false 1000) early=$(run "$1" true 100)
t_early=$(sed -n 's/.*result .*time_s=\([^ ]*\).*/\1/p' <<<"$early")
t_on=$(sed -n 's/.*result .*time_s=\([^ ]*\).*/\1/p' <<<"$on")
t_off=$(sed -n 's/.*result .*time_s=\([^ ]*\).*/\1/p' <<<"$off")
e_on=$(sed -n 's/^simmpi-hpl: \([0-9]*\) events.*/\1/p' <<<"$on")
e_off=$(sed -n 's/^simmpi-hpl: \([0-9]*\) events.*/\1/p' <<<"$off")
if [ -z "$t_on" ] || [ "$t_on" != "$t_off" ] || [ "$t_early" != "$t_off" ]; then
  echo "FAIL: predicted time ${t_on:-none} with the fast path (${t_early:-none} after 100" \
       "polls), ${t_off:-none} without"
  echo "$on" | tail -5
  exit 1
fi
if [ -z "$e_on" ] || [ -z "$e_off" ] || [ $((e_on * 3)) -gt "$e_off" ]; then
  echo "FAIL: expected far fewer events with the fast path: $e_on against $e_off"
  exit 1
fi
echo "hpl_poll_fast_forward: OK ($t_on s either way; $e_on events against $e_off)"
