#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# In model mode simmpi-hpl charges HPL's panel factorization as a whole (one allreduce and two
# real pivot exchanges per panel and column of ranks) instead of simulating its exchange for
# every column; --explicit-fact simulates every one. The two predictions must agree within 3%,
# with the modeled one making far fewer events (16 ranks, 8 x 2, 40 panels: tall process
# columns, where the factorization makes most of the events).
#   hpl_fact_model_test.sh BUILD_DIR
set -u
run() {
  "$1/bin/simmpi-hpl" --n 7680 --nb 192 --p 8 --q 2 "${@:2}" 2>&1
}
model=$(run "$1") explicit=$(run "$1" --explicit-fact)
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
if ! python3 -c "import sys; sys.exit(0 if abs($t_model / $t_explicit - 1) <= 0.03 else 1)"; then
  echo "FAIL: modeled factorization predicts $t_model s, explicit $t_explicit s (ratio $ratio)"
  exit 1
fi
if [ $((e_model * 4)) -gt "$e_explicit" ]; then
  echo "FAIL: expected far fewer events with the model: $e_model against $e_explicit"
  exit 1
fi
echo "hpl_fact_model: OK (model $t_model s, explicit $t_explicit s, ratio $ratio;" \
     "$e_model events against $e_explicit)"
