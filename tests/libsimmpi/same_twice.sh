#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Runs a simulated program twice with the same arguments and fails unless both runs pass
# (exit 0) and print the same standard output (a deterministic result and simulated time).
#   same_twice.sh PROGRAM.sim ARGS...
a=$("$@") || { echo "FAIL: first run exited $?"; echo "$a"; exit 1; }
b=$("$@") || { echo "FAIL: second run exited $?"; echo "$b"; exit 1; }
if [ "$a" != "$b" ]; then
  echo "FAIL: the two runs differ"
  diff <(echo "$a") <(echo "$b")
  exit 1
fi
echo "$a"
echo "same_twice: OK"
