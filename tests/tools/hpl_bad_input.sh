#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-hpl refuses bad input with one clear message, before fetching, building or simulating:
# an input HPL would reject, a grid that does not match the ranks, a tarball that is not HPL, a
# platform preset that does not exist.   hpl_bad_input.sh BUILD_DIR
hpl="$1/bin/simmpi-hpl"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SIMMPI_CACHE_DIR="$tmp/cache"  # an attempt to fetch or build would show up here
fail=0
# expect STATUS REGEX -- ARGS...: simmpi-hpl exits with STATUS and stderr matches REGEX.
expect() {
  local status=$1 re=$2
  shift 3
  "$hpl" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$status" ] || ! grep -Eq -- "$re" "$tmp/err"; then
    echo "FAIL: simmpi-hpl $*: expected status $status and stderr matching: $re"
    echo "  got status $got, stderr:"; sed 's/^/    /' "$tmp/err"
    fail=1
  elif [ "$(grep -c . "$tmp/err")" != 1 ]; then
    echo "FAIL: simmpi-hpl $*: expected one line of message, got:"; sed 's/^/    /' "$tmp/err"
    fail=1
  fi
}
expect 2 'N = 0: HPL needs a problem size of at least 1' -- --n 0 --p 1 --q 1
expect 2 'P x Q = 2 x 3 = 6, but the run has 4 ranks' -- --n 100 --p 2 --q 3 --ranks 4
expect 2 'NB = 0: HPL needs a block size' -- --n 100 --nb 0
expect 2 '--bcast 7: expected one of 1ring, 1ringM' -- --bcast 7
expect 2 "--model-bcast models HPL's long broadcasts \\(long, longM\\), but the input uses 1ringM" \
  -- --model-bcast --n 100
"$hpl" --print-dat --n 1000 --nb 64 --p 3 --q 2 >"$tmp/HPL.dat"
head -n 12 "$tmp/HPL.dat" >"$tmp/short.dat"
expect 2 'HPL.dat line 11: P x Q = 3 x 2 = 6, but the run has 4 ranks' -- --dat "$tmp/HPL.dat" --ranks 4
expect 2 'short.dat: ends before line 13' -- --dat "$tmp/short.dat"
expect 2 '--platform nosuch: there is no such file and no preset of that name; presets: .*frontera' \
  -- --platform nosuch --n 100
mkdir -p "$tmp/notes/doc" && echo hello >"$tmp/notes/doc/README"
tar czf "$tmp/notes.tar.gz" -C "$tmp" notes
expect 2 'notes.tar.gz\) does not hold HPL: no directory in it has include/hpl.h' \
  -- --source "$tmp/notes.tar.gz" --n 100
expect 2 'neither a directory nor a tar archive' -- --source "$tmp/HPL.dat" --n 100
if [ -e "$tmp/cache" ]; then echo "FAIL: bad input reached the cache (fetch or build)"; fail=1; fi
[ $fail = 0 ] && echo "hpl_bad_input: all messages as expected"
exit $fail
