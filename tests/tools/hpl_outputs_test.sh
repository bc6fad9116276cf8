#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-hpl runs HPL in a scratch directory, but what the user asks the simulator to write
# (network statistics, a profile) lands in the user's directory and is named; without --p/--q
# it runs the platform's whole machine and says which grid it chose; Gflop/s and time are
# printed with enough digits to compare what-ifs that differ by 2-3%.
#   hpl_outputs_test.sh BUILD_DIR
hpl="$1/bin/simmpi-hpl"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cd "$work" || exit 1
"$hpl" --platform broadwell4 --n 4000 --nb 128 --set network.stats=true \
  --set network.stats_matrix=ranks --set report.profile=true >out 2>err ||
  { echo "FAIL: simmpi-hpl exited $?"; cat err; exit 1; }
grep -q "no --p/--q: the platform's 4 nodes x 44 ranks per node = 176 ranks, grid P x Q = 11 x 16" err ||
  { echo "FAIL: the chosen grid is not said"; cat err; fail=1; }
grep -q "simmpi-hpl: result n=4000 nb=128 p=11 q=16 " out ||
  { echo "FAIL: not run on the whole machine"; cat out; fail=1; }
for f in simmpi_net_links.csv simmpi_net_busiest_links.csv simmpi_net_hops.csv \
         simmpi_net_matrix.csv simmpi_profile.json; do
  [ -s "$work/$f" ] || { echo "FAIL: $f is not in the user's directory"; ls "$work"; fail=1; }
done
grep -q "network statistics in $work/simmpi_net_links.csv, .*busiest_links.csv, .*hops.csv, $work/simmpi_net_matrix.csv" err ||
  { echo "FAIL: the statistics files are not named where they went"; cat err; fail=1; }
grep -q "simmpi:   the whole profile: $work/simmpi_profile.json" err ||
  { echo "FAIL: the profile file is not named"; cat err; fail=1; }
head -1 simmpi_net_busiest_links.csv | grep -q "^position,link," ||
  { echo "FAIL: busiest_links.csv's first column"; head -1 simmpi_net_busiest_links.csv; fail=1; }
gflops=$(sed -n 's/.*result .* gflops=\([0-9.e+]*\) .*/\1/p' out)
digits=$(tr -d '.' <<<"${gflops%%e*}" | sed 's/^0*//' | wc -c)
[ "$digits" -gt 6 ] || { echo "FAIL: gflops=$gflops has fewer than 6 significant digits"; fail=1; }
[ $fail = 0 ] && echo "hpl_outputs_test: OK"
exit $fail
