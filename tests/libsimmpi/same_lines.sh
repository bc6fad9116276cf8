#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Runs two commands and fails unless both pass (exit 0) and print the same lines matching PATTERN,
# at least one: two ways of doing one thing that must give the same result or simulated time.
#   same_lines.sh PATTERN COMMAND_A... --- COMMAND_B...
pattern=$1
shift
a=()
while [ $# -gt 0 ] && [ "$1" != "---" ]; do
  a+=("$1")
  shift
done
shift
out_a=$("${a[@]}") || { echo "FAIL: ${a[*]} exited $?"; echo "$out_a"; exit 1; }
out_b=$("$@") || { echo "FAIL: $* exited $?"; echo "$out_b"; exit 1; }
lines_a=$(grep -E "$pattern" <<<"$out_a")
lines_b=$(grep -E "$pattern" <<<"$out_b")
echo "$out_a"
echo "$out_b"
if [ -z "$lines_a" ]; then
  echo "FAIL: no line matches '$pattern'"
  exit 1
fi
if [ "$lines_a" != "$lines_b" ]; then
  echo "FAIL: the lines matching '$pattern' differ"
  diff <(echo "$lines_a") <(echo "$lines_b")
  exit 1
fi
echo "same_lines: OK"
