#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-sweep over a real program: two platform keys, a CSV row per grid point with the
# simulated time, an SVG plot, and slower links giving a longer time.   sweep_test.sh BUILD_DIR
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$build/bin/simmpi-sweep" --vary network.link_bw=10Gbps,100Gbps --vary node.ranks_per_node=1,2 \
  --jobs 2 --out "$tmp/s" -- "$build/programs/allreduce_loop.sim" -n 8 >"$tmp/out" 2>"$tmp/err" ||
  { echo "FAIL: simmpi-sweep exited $?"; cat "$tmp/err"; exit 1; }
rows=$(tail -n +2 "$tmp/s.csv" | wc -l)
[ "$rows" = 4 ] || { echo "FAIL: expected 4 CSV rows, got $rows"; cat "$tmp/s.csv"; fail=1; }
head -1 "$tmp/s.csv" | grep -q "^network.link_bw,node.ranks_per_node,time_s," ||
  { echo "FAIL: CSV header"; head -1 "$tmp/s.csv"; fail=1; }
grep -q "<svg" "$tmp/s.svg" && grep -q "node.ranks_per_node=2" "$tmp/s.svg" &&
  grep -q "network.link_bw (Gbps)" "$tmp/s.svg" ||
  { echo "FAIL: no plot in $tmp/s.svg"; fail=1; }
slow=$(awk -F, '$1=="10Gbps" && $2=="1" {print $3}' "$tmp/s.csv")
fast=$(awk -F, '$1=="100Gbps" && $2=="1" {print $3}' "$tmp/s.csv")
awk -v s="$slow" -v f="$fast" 'BEGIN { exit !(s > f) }' ||
  { echo "FAIL: 10 Gb/s ($slow s) should be slower than 100 Gb/s ($fast s)"; fail=1; }
"$build/bin/simmpi-sweep" --vary network.link_bw -- true 2>"$tmp/err"
grep -q "expected NAME=VALUE1,VALUE2" "$tmp/err" || { echo "FAIL: bad --vary message"; fail=1; }
# The program's own compute, charged (runtime.host_time = measure), is measured in the first run
# and replayed in the others: a program whose time does not depend on the network gets exactly
# the same time at every bandwidth (measured each time, host noise would make them differ).
SIMMPI_SET= "$build/bin/simmpi-sweep" --vary network.link_bw=10Gbps,100Gbps,400Gbps --jobs 2 \
  --out "$tmp/c" -- "$build/programs/own_time.sim" -n 2 --set runtime.host_time=measure busy 2 5 \
  >"$tmp/out" 2>"$tmp/err" || { echo "FAIL: simmpi-sweep of own_time exited $?"; cat "$tmp/err"; fail=1; }
grep -q "own compute was measured once per command ($tmp/c.compute0.prof)" "$tmp/err" ||
  { echo "FAIL: the sweep did not say it replays the compute"; cat "$tmp/err"; fail=1; }
distinct=$(tail -n +2 "$tmp/c.csv" | cut -d, -f2 | sort -u | wc -l)
[ "$distinct" = 1 ] || { echo "FAIL: replayed compute gave $distinct different times"; cat "$tmp/c.csv"; fail=1; }
[ $fail = 0 ] && echo "sweep_test: OK"
exit $fail
