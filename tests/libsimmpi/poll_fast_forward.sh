#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# mpi.poll_fast_forward must not change simulated times: iprobe_spin prints when each busy-polling
# loop saw its message, and the output must be the same with the fast path on and off, while the
# fast path must save events (one per poll).   poll_fast_forward.sh PROGRAM
set -u
prog=$1
on=$("$prog" -n 4 --set mpi.poll_fast_forward=true 2>&1) || { echo "$on"; exit 1; }
off=$("$prog" -n 4 --set mpi.poll_fast_forward=false 2>&1) || { echo "$off"; exit 1; }
grep -q "iprobe_spin: OK" <<<"$on" || { echo "$on"; exit 1; }
if ! diff <(grep -v "events\|wall time" <<<"$off") <(grep -v "events\|wall time" <<<"$on"); then
  echo "FAIL: simulated times differ with mpi.poll_fast_forward on (>) and off (<)"
  exit 1
fi
events() { sed -n 's/.*simulated time .* s, \([0-9]*\) events.*/\1/p' <<<"$1"; }
e_on=$(events "$on") e_off=$(events "$off")
if [ -z "$e_on" ] || [ -z "$e_off" ] || [ $((e_on * 10)) -gt "$e_off" ]; then
  echo "FAIL: expected the fast path to save events: $e_on events with it, $e_off without"
  exit 1
fi
# The threshold is what keeps bounded probe loops exact: at 3, rank 1's loop of 5 probes for a
# reply that only its own later request triggers is taken for a polling loop, and blocks for good.
cut=$("$prog" -n 4 --set mpi.poll_fast_forward_after=3 2>&1)
if [ $? != 3 ] || ! grep -q "rank 1: blocked in MPI_Iprobe(source=0 tag=101" <<<"$cut"; then
  echo "FAIL: with mpi.poll_fast_forward_after=3 the bounded probe loop should deadlock"
  echo "$cut" | tail -5
  exit 1
fi
echo "poll_fast_forward: OK ($e_on events with the fast path, $e_off without)"
