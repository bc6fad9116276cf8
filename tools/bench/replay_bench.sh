#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Issue 23's replay cost: host CPU seconds of simmpi-replay against the online run it replays,
# best of 3, both in the same loop (plus the recording run, for what recording costs):
#  - HPL in model mode (simmpi-hpl), 1,024 ranks by default (target: replay >= 10x cheaper);
#  - a communication-only halo exchange (tools/bench/programs/halo_bench.c), 1,024 ranks, 200
#    steps (target: >= 3x).
# Each replay is checked to give the online run's simulated time.
#   replay_bench.sh [BUILD_DIR] [HPL_N] [HPL_P] [HPL_Q]
set -eu
build=$(cd "${1:-$(dirname "$0")/../../build}" && pwd)
hpl_n=${2:-20000} hpl_p=${3:-32} hpl_q=${4:-32}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SIMMPI_SET=runtime.host_time=ignore
export SIMMPI_CACHE_DIR=${SIMMPI_CACHE_DIR:-$build/hpl-cache}
"$build/bin/simmpicc" -O2 "$(dirname "$0")/programs/halo_bench.c" -o "$work/halo.sim"

# cpu FILE COMMAND...: runs it, appends its CPU seconds (user + system) to FILE, keeps stderr.
cpu() {
  local out=$1
  shift
  /usr/bin/time -o "$work/time" -f "%U %S" "$@" >"$work/stdout" 2>"$work/stderr" ||
    { cat "$work/stderr"; exit 1; }
  awk '{print $1 + $2}' "$work/time" >>"$out"
}
simulated() { grep -oE 'simulated time [0-9.]+ s' "$work/stderr" | head -1; }
best() { sort -g "$1" | head -1; }

bench() {  # bench NAME ONLINE_COMMAND... (recorded through $SIMMPI_SET)
  local name=$1
  shift
  : >"$work/online" && : >"$work/record" && : >"$work/replay"
  for i in 1 2 3; do
    cpu "$work/online" "$@"
    local online_time
    online_time=$(simulated)
    rm -rf "$work/trace"
    SIMMPI_SET="$SIMMPI_SET report.record=$work/trace" cpu "$work/record" "$@"
    cpu "$work/replay" "$build/bin/simmpi-replay" "$work/trace"
    if [ "$(simulated)" != "$online_time" ]; then
      echo "replay_bench: $name: the replay gives $(simulated), the online run $online_time" >&2
      exit 1
    fi
  done
  awk -v n="$name" -v o="$(best "$work/online")" -v r="$(best "$work/record")" \
    -v p="$(best "$work/replay")" -v b="$(du -sb "$work/trace" | cut -f1)" -v t="$online_time" \
    'BEGIN { printf "bench=replay program=%s online_s=%.2f record_s=%.2f replay_s=%.2f ratio=%.1f trace_bytes=%d (%s)\n", n, o, r, p, o / p, b, t }'
}

echo "replay_bench: $(nproc) cores, $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)"
bench "halo-1024x200" "$work/halo.sim" -n 1024 -- 200
# HPL's binary run as simmpi-hpl runs it in model mode (its summary line is then visible).
hpl=$build/bin/simmpi-hpl
exe=$("$hpl" --build-only)
read -r _ flavour < <("$hpl" --print-source)
input=HPL.dat
[ "$flavour" = hpcc ] && input=hpccinf.txt
"$hpl" --n "$hpl_n" --nb 192 --p "$hpl_p" --q "$hpl_q" --print-dat >"$work/$input"
cd "$work"
export SIMMPI_SET="runtime.host_time=ignore blas.mode=model runtime.fold_threshold=64KiB"
bench "hpl-model-n${hpl_n}-${hpl_p}x${hpl_q}" "$exe" -n $((hpl_p * hpl_q))
