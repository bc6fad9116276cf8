#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Runs a simulated program once per rank count and checks that each run exits 0 and prints
# a line matching REGEX:   each_size.sh "1 2 3" REGEX PROGRAM [ARGS...]
sizes=$1 re=$2
shift 2
fail=0
for n in $sizes; do
  out=$("$1" -n "$n" "${@:2}" 2>&1)
  status=$?
  if [ $status != 0 ] || ! grep -Eq -- "$re" <<<"$out"; then
    echo "FAIL with -n $n (exit $status), expected a line matching: $re"
    echo "command: $1 -n $n ${*:2}"
    tail -n 20 <<<"$out"
    fail=1
  fi
done
exit $fail
