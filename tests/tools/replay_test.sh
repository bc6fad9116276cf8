#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Record then replay (docs/replay.md): runs PROGRAM with --record, replays the trace with
# simmpi-replay on the same platform and fails unless the replay's ranks and simulated time are
# the online run's, byte for byte (not the event count: the replay makes a polling loop, which
# the trace keeps folded, in its own number of events). With --other OPTIONS... it then
# runs the program online on that platform and replays the same trace there, and fails unless
# both simulated times are equal (for a program whose pattern does not depend on timing).
# $ONLINE_SET, when set, replaces $SIMMPI_SET for the online run (e.g. runtime.host_time=measure:
# the program's own code then costs its measured host time, which the trace keeps as time).
#   replay_test.sh SIMMPI_REPLAY RANKS PROGRAM.sim [ARGS...] [--other OPTION...]
set -u
replay=$1 ranks=$2 program=$3
shift 3
args=() other=()
while [ $# -gt 0 ] && [ "$1" != "--other" ]; do args+=("$1"); shift; done
[ $# -gt 0 ] && { shift; other=("$@"); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

summary() {  # the summary line of a run's stderr
  grep -E '^simmpi: [0-9]+ ranks, simulated time' "$1"
}
run() {  # run NAME COMMAND...: stderr in $tmp/NAME, fails the test on a nonzero exit
  local name=$1
  shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || {
    echo "FAIL: $name exited $?: $*"
    cat "$tmp/$name.err"
    exit 1
  }
}

SIMMPI_SET=${ONLINE_SET:-${SIMMPI_SET:-}} run online "$program" -n "$ranks" --record="$tmp/trace" -- \
  "${args[@]}"
if [ -n "${ONLINE_SET:-}" ] && ! grep -q "^simmpi: own code: " "$tmp/online.err"; then
  echo "FAIL: ONLINE_SET=$ONLINE_SET: the online run measured no own code"
  cat "$tmp/online.err"
  exit 1
fi
run replay "$replay" "$tmp/trace"
a=$(summary "$tmp/online.err") b=$(summary "$tmp/replay.err")
echo "online: $a"
echo "replay: $b"
grep -E 'simmpi-replay|call trace' "$tmp/online.err" "$tmp/replay.err" | sed 's|^[^:]*/||'
if [ -z "$a" ] || [ "${a%, * events}" != "${b%, * events}" ]; then
  echo "FAIL: the replay's ranks or simulated time differ from the online run's"
  exit 1
fi
if [ ${#other[@]} -gt 0 ]; then
  run online2 "$program" -n "$ranks" "${other[@]}" -- "${args[@]}"
  run replay2 "$replay" "$tmp/trace" "${other[@]}"
  time_of() { summary "$1" | sed -E 's/.*simulated time ([^,]+),.*/\1/'; }
  a=$(time_of "$tmp/online2.err") b=$(time_of "$tmp/replay2.err")
  echo "other platform (${other[*]}): online $a, replay $b"
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "FAIL: on the other platform the replay's simulated time differs from the online run's"
    exit 1
  fi
  if [ "$a" = "$(time_of "$tmp/online.err")" ]; then
    echo "FAIL: the other platform gives the same time as the first: it tests nothing"
    exit 1
  fi
fi
echo "replay_test: OK"
