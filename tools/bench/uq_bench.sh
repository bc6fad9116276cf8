#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# simmpi-uq's overhead (issue 24): a study of N runs on P local processes against N/P times one
# run alone (goal: at most 1.25x), and against the same N runs started by xargs -P P (the peer
# that has no overhead of simmpi-uq's own but shares the machine the same way), each the best of
# 3, interleaved.
#   uq_bench.sh [BUILD_DIR] [N] [P]
set -eu
build=$(cd "${1:-$(dirname "$0")/../../build}" && pwd)
n=${2:-32}
p=${3:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset SIMMPI_SET
program=$build/programs/netbench.sim
args=(-n 16 --set runtime.host_time=ignore allreduce 65536 400)
cat > "$work/b.toml" <<TOML
[study]
command = ["$program", "${args[0]}", "${args[1]}", "${args[2]}", "${args[3]}", "${args[4]}", "${args[5]}", "${args[6]}"]
samples = $n
[parameters]
network.link_bw = { normal = ["100Gbps", "5%"] }
network.nic_latency = { uniform = ["400ns", "600ns"] }
TOML
wall() {
  local s
  s=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/err" || { echo "uq_bench: $* failed:" >&2; cat "$work/err" >&2; exit 1; }
  echo "$(date +%s.%N) - $s" | bc -l
}
best() { sort -g | head -1; }
single=() study=() plain=()
for i in 1 2 3; do
  single+=("$(wall "$program" "${args[@]}")")
  rm -f "$work/b.csv"
  study+=("$(wall "$build/bin/simmpi-uq" run "$work/b.toml" --jobs "$p")")
  plain+=("$(wall sh -c "seq $n | xargs -P $p -I{} $program ${args[*]:0:2} --set runtime.seed={} ${args[*]:2}")")
done
t1=$(printf '%s\n' "${single[@]}" | best)
ts=$(printf '%s\n' "${study[@]}" | best)
tp=$(printf '%s\n' "${plain[@]}" | best)
ratio() { echo "$1 / $2" | bc -l | cut -c1-5; }
echo "one run: $t1 s; study of $n runs on $p processes: $ts s; the same runs by xargs -P $p: $tp s"
echo "study / (N/P x one run) = $(ratio "$ts" "($n / $p * $t1)") (goal <= 1.25)"
echo "study / xargs = $(ratio "$ts" "$tp")"
echo "load average during the bench: $(cut -d' ' -f1-3 /proc/loadavg)"
