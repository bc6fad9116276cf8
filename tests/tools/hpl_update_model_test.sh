#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# In model mode simmpi-hpl makes the fruitless probes of HPL's trailing update (one per chunk of
# NB columns, until the next panel arrives) in one go with simmpi_poll_rounds; --explicit-update
# simulates every chunk and probe. The predictions must be equal to the printed digits, with
# fewer events for the model (64 ranks, 8 x 8, 200 panels of 384 columns).
#   hpl_update_model_test.sh BUILD_DIR
set -u
run() {
  "$1/bin/simmpi-hpl" --platform frontera --n 76800 --nb 384 --p 8 --q 8 "${@:2}" 2>&1
}
model=$(run "$1") explicit=$(run "$1" --explicit-update)
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
if [ "$t_model" != "$t_explicit" ]; then
  echo "FAIL: modeled update predicts $t_model s, explicit $t_explicit s"
  exit 1
fi
if [ $((e_model * 4)) -gt $((e_explicit * 3)) ]; then
  echo "FAIL: expected far fewer events with the model: $e_model against $e_explicit"
  exit 1
fi
echo "hpl_update_model: OK (both $t_model s;" \
     "$e_model events against $e_explicit)"
