#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Same program, same inputs, same platform: same output, same simulated time, same statistics,
# byte for byte, on a run that exercises random routing, random placement, collectives and
# contention.
#   determinism_test.sh PROGRAM.sim
set -u
prog=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(-n 48 --set network.topology=fat_tree --set "network.fat_tree.down=[8, 8]"
      --set "network.fat_tree.up=[1, 2]" --set network.fat_tree.routing=random
      --set node.placement=random --set node.ranks_per_node=2 --set network.stats=true
      --set network.chunk_size=16KiB)
for run in 1 2; do
  mkdir "$work/$run"
  (cd "$work/$run" && "$prog" "${args[@]}" >stdout 2>stderr) || { echo "FAIL: run $run exited $?"; cat "$work/$run/stderr"; exit 1; }
  grep -v "wall time" "$work/$run/stderr" >"$work/$run/summary"  # wall time and memory vary
  rm "$work/$run/stderr"
done
if ! diff -r "$work/1" "$work/2"; then
  echo "FAIL: two identical runs differ"
  exit 1
fi
grep -q "simulated time" "$work/1/summary" || { echo "FAIL: no summary line"; exit 1; }
ls "$work/1" | grep -q links.csv || { echo "FAIL: no statistics written"; exit 1; }
echo "determinism_test: OK ($(cat "$work/1/summary"))"
