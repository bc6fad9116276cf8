#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-replay on bad traces: each defect stops it with one message naming the file, the rank
# and the record (or the rank counts), and an exit status that is not 0.
#   replay_bad_input_test.sh SIMMPI_REPLAY PROGRAM.sim
set -u
replay=$1 program=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/expect_run.sh"
"$program" -n 4 --quiet --record="$tmp/good" -- stencil || { echo "FAIL: recording"; exit 1; }
fails=0

# expect NAME REGEX COMMAND...: the command fails and its stderr matches REGEX.
expect() { expect_run "$1" 1 "$2" "${@:3}"; }
fresh() { rm -rf "$tmp/t" && cp -r "$tmp/good" "$tmp/t"; }
# rank1_records VERSION RECORDS: rank 1's file made again as the recorded one's header, its format
# version set to VERSION (a digit; "keep": as recorded), and one chunk of RECORDS (printf escapes).
rank1_records() {
  local good=$tmp/good/rank-1.simtrace
  printf "$2" >"$tmp/raw"
  zstd -q -c "$tmp/raw" >"$tmp/frame"
  {
    if [ "$1" = keep ]; then
      head -c 20 "$good"
    else
      head -c 8 "$good"
      printf "\\x0$1\\x00\\x00\\x00"
      tail -c +13 "$good" | head -c 8
    fi
    python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<II', *map(int, sys.argv[1:])))" \
      "$(stat -c %s "$tmp/raw")" "$(stat -c %s "$tmp/frame")"
    cat "$tmp/frame"
  } >"$tmp/t/rank-1.simtrace"
}

expect "another rank count" "recorded with 4 ranks; -n 8 asks for another count" \
  "$replay" "$tmp/good" -n 8
fresh
rm "$tmp/t/simtrace.txt"
expect "not a trace" "is not a call trace: .*simtrace.txt is missing" "$replay" "$tmp/t"
fresh
size=$(stat -c %s "$tmp/t/rank-1.simtrace")
truncate -s $((size - 7)) "$tmp/t/rank-1.simtrace"
expect "truncated" "rank-1.simtrace: rank 1: truncated: the file ends inside a chunk" \
  "$replay" "$tmp/t"
fresh
printf 'SIMTRACF' | dd of="$tmp/t/rank-2.simtrace" conv=notrunc status=none
expect "no magic" "rank-2.simtrace: rank 2: not a simmpi call trace" "$replay" "$tmp/t"
fresh
printf '\x09' | dd of="$tmp/t/rank-3.simtrace" bs=1 seek=16 conv=notrunc status=none
expect "rank count in a file" "rank-3.simtrace: rank 3: recorded with 9 ranks, replayed with 4" \
  "$replay" "$tmp/t"
fresh
# A chunk whose frame is damaged: bytes in the middle of rank 0's first frame.
printf '\xff\xff\xff\xff\xff\xff\xff\xff' |
  dd of="$tmp/t/rank-0.simtrace" bs=1 seek=40 conv=notrunc status=none
expect "corrupt chunk" "rank-0.simtrace: rank 0(, record [0-9]+ \(.*\))?: corrupt" "$replay" "$tmp/t"
fresh
# A file whose records are Init, then a kind no version defines (200).
rank1_records keep '\x05\xc8\x01'
expect "unknown record" "rank-1.simtrace: rank 1, record 2: unknown record kind 200" \
  "$replay" "$tmp/t"
fresh
# Versions (call_trace_format.hpp): one this simmpi-replay does not know is refused; a version-1
# trace (the stencil holds only version-1 kinds) still replays; a version-1 file holding a kind
# that version 2 appended (45, MPI_Send_init) is refused, naming both, and so is a version-4
# file holding a kind that version 5 appended (57, MPI_Cart_create) and a version-5 file holding
# one that version 6 appended (116, MPI_Comm_idup).
fresh
printf '\x07' | dd of="$tmp/t/rank-2.simtrace" bs=1 seek=8 conv=notrunc status=none
expect "a newer version" "rank-2.simtrace: rank 2: format version 7, this simmpi-replay reads versions 1 to 6" \
  "$replay" "$tmp/t"
fresh
for f in "$tmp"/t/rank-*.simtrace; do
  printf '\x01' | dd of="$f" bs=1 seek=8 conv=notrunc status=none
done
if "$replay" "$tmp/t" >"$tmp/out" 2>"$tmp/err"; then
  echo "ok: a version-1 trace replays"
else
  echo "FAIL: a version-1 trace does not replay"
  cat "$tmp/err"
  fails=1
fi
rank1_records 1 '\x05\x2d'
expect "a version-2 kind in a version-1 file" "rank-1.simtrace: rank 1, record 2: record kind 45 \(MPI_Send_init\) is not in format version 1" \
  "$replay" "$tmp/t"
rank1_records 4 '\x05\x39'
expect "a version-5 kind in a version-4 file" "rank-1.simtrace: rank 1, record 2: record kind 57 \(MPI_Cart_create\) is not in format version 4" \
  "$replay" "$tmp/t"
rank1_records 5 '\x05\x74'
expect "a version-6 kind in a version-5 file" "rank-1.simtrace: rank 1, record 2: record kind 116 \(MPI_Comm_idup\) is not in format version 5" \
  "$replay" "$tmp/t"
fresh
# A file that ends without its End record: rank 1's records up to Init only.
rank1_records keep '\x05'
expect "no End record" "rank-1.simtrace: rank 1, record 1 \(MPI_Init\): truncated: the file ends without its End record" \
  "$replay" "$tmp/t"
[ $fails = 0 ] && echo "replay_bad_input: OK"
exit $fails
