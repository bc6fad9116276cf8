#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-calibrate --quick writes a profile with LU's row interchanges (dlaswp, which HPL's glue
# charges), fitted on its 9 cases, and strided row swaps move fewer bytes per second than memcpy
# (each element swapped touches its own cache line).   calibrate_test.sh BUILD_DIR
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$1/bin/simmpi-calibrate" --quick --no-validate --rounds=1 --profile="$work/p.toml" \
  --platform-out="$work/h.toml" >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
line=$(grep -A2 '^\[cpu.dlaswp\]' "$work/p.toml" | grep efficiency)
eff=$(sed -n 's/.*efficiency = \([0-9.e+-]*\).*/\1/p' <<<"$line")
samples=$(sed -n 's/.*samples = \([0-9]*\).*/\1/p' <<<"$line")
if [ -z "$eff" ] || [ "$samples" != 9 ] || ! awk -v e="$eff" 'BEGIN { exit !(e > 0 && e < 1) }'; then
  echo "FAIL: expected [cpu.dlaswp] with 9 samples and an efficiency in (0, 1); got: ${line:-nothing}"
  exit 1
fi
# The run ends with a verdict per kernel: a word and the figures it rests on.
for k in dgemm dtrsm dlaswp; do
  grep -Eq "^  $k +(trustworthy|rough|not trustworthy) +fit within [0-9.]+% \(R\^2" "$work/log" ||
    { echo "FAIL: no verdict for $k:"; sed -n '/verdict per kernel/,$p' "$work/log"; exit 1; }
done
grep -Eq "^[0-9]+ of [0-9]+ kernels trustworthy" "$work/log" || { echo "FAIL: no overall verdict"; exit 1; }
echo "calibrate_dlaswp: OK (efficiency $eff)"
