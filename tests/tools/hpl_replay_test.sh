#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# HPL in model mode, recorded and replayed (replay_test.sh): simmpi-hpl builds HPL (from the
# test cache) and writes its input; the binary then runs in a directory of its own as simmpi-hpl
# runs it in model mode, with --record.
#   hpl_replay_test.sh BUILD_DIR RANKS N NB P Q
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
build=$1 ranks=$2 n=$3 nb=$4 p=$5 q=$6
hpl=$build/bin/simmpi-hpl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exe=$("$hpl" --build-only)
read -r _ flavour < <("$hpl" --print-source)
input=HPL.dat
[ "$flavour" = hpcc ] && input=hpccinf.txt
"$hpl" --n "$n" --nb "$nb" --p "$p" --q "$q" --print-dat >"$tmp/$input"
cd "$tmp"
SIMMPI_SET="runtime.host_time=ignore blas.mode=model runtime.fold_threshold=64KiB" \
  "$here/replay_test.sh" "$build/bin/simmpi-replay" "$ranks" "$exe"
