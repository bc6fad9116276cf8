#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-hpl --model-swap replaces HPL's row-swap ring (P - 1 steps per panel) by one exchange
# with each neighbour of the same bytes. At a size per rank where the trailing update dominates,
# as in the TOP500 runs, the prediction must stay within 2% of HPL's own ring, with fewer events
# (32 ranks, 8 x 4, N = 153,600: 400 panels of 384 columns, 19,200 x 38,400 per rank).
#   hpl_swap_model_test.sh BUILD_DIR
set -u
run() {
  "$1/bin/simmpi-hpl" --platform frontera --n 153600 --nb 384 --p 8 --q 4 "${@:2}" 2>&1
}
model=$(run "$1" --model-swap) explicit=$(run "$1")
time_of() { sed -n 's/.*result .*time_s=\([^ ]*\).*/\1/p' <<<"$1"; }
events_of() { sed -n 's/^simmpi-hpl: \([0-9]*\) events.*/\1/p' <<<"$1"; }
t_model=$(time_of "$model") t_explicit=$(time_of "$explicit")
e_model=$(events_of "$model") e_explicit=$(events_of "$explicit")
if [ -z "$t_model" ] || [ -z "$t_explicit" ] || [ -z "$e_model" ] || [ -z "$e_explicit" ]; then
  echo "FAIL: no result"
  echo "$model" | tail -5
  echo "$explicit" | tail -5
  exit 1
fi
ratio=$(python3 -c "print(f'{$t_model / $t_explicit:.4f}')")
if ! python3 -c "import sys; sys.exit(0 if abs($t_model / $t_explicit - 1) <= 0.02 else 1)"; then
  echo "FAIL: the modeled ring predicts $t_model s, HPL's ring $t_explicit s (ratio $ratio)"
  exit 1
fi
if [ $((e_model * 4)) -gt $((e_explicit * 3)) ]; then
  echo "FAIL: expected far fewer events with the model: $e_model against $e_explicit"
  exit 1
fi
echo "hpl_swap_model: OK (model $t_model s, HPL's ring $t_explicit s, ratio $ratio;" \
     "$e_model events against $e_explicit)"
