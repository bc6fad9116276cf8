#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Runs one simulated program and checks how it ended:
#   run_program.sh [--exit N] [--stdout REGEX]... [--stderr REGEX]... [--not-stderr REGEX]... -- CMD...
# Each REGEX (extended, grep -E) must match somewhere in the stream; --not-stderr must not.
# On failure, prints what was expected and the program's output.
expect_exit=0
out_res=()
err_res=()
not_err_res=()
while [ $# -gt 0 ]; do
  case "$1" in
    --exit) expect_exit=$2; shift 2 ;;
    --stdout) out_res+=("$2"); shift 2 ;;
    --stderr) err_res+=("$2"); shift 2 ;;
    --not-stderr) not_err_res+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run_program.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
status=$?
fail=0
if [ "$status" != "$expect_exit" ]; then
  echo "FAIL: exit status $status, expected $expect_exit"
  fail=1
fi
for re in "${out_res[@]}"; do
  grep -Eq -- "$re" "$out" || { echo "FAIL: stdout does not match: $re"; fail=1; }
done
for re in "${err_res[@]}"; do
  grep -Eq -- "$re" "$err" || { echo "FAIL: stderr does not match: $re"; fail=1; }
done
for re in "${not_err_res[@]}"; do
  grep -Eq -- "$re" "$err" && { echo "FAIL: stderr matches what it must not: $re"; fail=1; }
done
if [ $fail != 0 ]; then
  echo "command: $*"
  echo "--- stdout (last 40 lines) ---"; tail -n 40 "$out"
  echo "--- stderr (last 40 lines) ---"; tail -n 40 "$err"
fi
exit $fail
