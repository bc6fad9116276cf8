#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# One of simmpi-hpl's models against what it stands for: runs HPL twice, with the model's options
# and with the reference's, and checks that the predicted times agree (equal to the printed
# digits when TOLERANCE is 0, else within that fraction) and that the model makes at most
# MAX_EVENT_RATIO times the reference's events.
#   hpl_model_vs_reference.sh BUILD_DIR NAME TOLERANCE MAX_EVENT_RATIO "COMMON" "MODEL" "REFERENCE"
# (COMMON, MODEL and REFERENCE are option lists, split at spaces.)
set -u
build=$1 name=$2 tolerance=$3 max_ratio=$4
read -r -a common <<<"$5"
read -r -a model_args <<<"$6"
read -r -a reference_args <<<"$7"
run() { "$build/bin/simmpi-hpl" "${common[@]}" "$@" 2>&1; }
model=$(run "${model_args[@]}") reference=$(run "${reference_args[@]}")
time_of() { sed -n 's/.*result .*time_s=\([^ ]*\).*/\1/p' <<<"$1"; }
events_of() { sed -n 's/^simmpi-hpl: \([0-9]*\) events.*/\1/p' <<<"$1"; }
t_model=$(time_of "$model") t_reference=$(time_of "$reference")
e_model=$(events_of "$model") e_reference=$(events_of "$reference")
if [ -z "$t_model" ] || [ -z "$t_reference" ] || [ -z "$e_model" ] || [ -z "$e_reference" ]; then
  echo "FAIL: no result"
  echo "$model" | tail -5
  echo "$reference" | tail -5
  exit 1
fi
ratio=$(python3 -c "print(f'{$t_model / $t_reference:.4f}')")
if ! python3 -c "
import sys
equal = '$t_model' == '$t_reference'
sys.exit(0 if equal or ($tolerance > 0 and abs($t_model / $t_reference - 1) <= $tolerance) else 1)"
then
  echo "FAIL: the model predicts $t_model s, the reference $t_reference s (ratio $ratio," \
       "tolerance $tolerance)"
  exit 1
fi
if ! python3 -c "import sys; sys.exit(0 if $e_model <= $max_ratio * $e_reference else 1)"; then
  echo "FAIL: expected at most $max_ratio times the events with the model: $e_model against" \
       "$e_reference"
  exit 1
fi
echo "$name: OK (model $t_model s, reference $t_reference s, ratio $ratio;" \
     "$e_model events against $e_reference)"
