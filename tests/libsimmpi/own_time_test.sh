#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The program's own code, charged (runtime.host_time = measure), end to end:
#   - a busy loop is charged its host CPU time times the ratio, given or automatic (within 5%);
#   - a run that records its compute profile and runs that replay it print the same summary;
#   - a replay that diverges, or a profile of another run, is refused with the rank and burst;
#   - bad ratios, a corrupt host calibration or one of another host, a corrupt profile: one
#     message naming what is wrong.
#   own_time_test.sh PROGRAM.sim
set -u
prog=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SIMMPI_CACHE_DIR=$work/cache
unset SIMMPI_SET
fail=0
check() {  # check NAME REGEX FILE
  grep -Eq -- "$2" "$3" || { echo "FAIL: $1: no match for: $2"; sed 's/^/  | /' "$3"; fail=1; }
}
measure=(--set runtime.host_time=measure)

# Given ratio: simulated time = 2 x host CPU time.
"$prog" -n 2 "${measure[@]}" --set runtime.host_time_scale=2 busy 20 5 2 >"$work/out" 2>"$work/err"
check "busy loop at ratio 2" "own_time: OK" "$work/out"
check "summary names the ratio" "host time x2 \(runtime.host_time_scale\)" "$work/err"

# Automatic ratio: the one the summary prints.
"$prog" -n 2 "${measure[@]}" busy 20 5 >"$work/out" 2>"$work/err"
ratio=$(sed -n 's/.*host time x\([0-9.]*\) (runtime.host_time_bound = clock.*/\1/p' "$work/err")
check "automatic ratio in the summary" "host time x[0-9.]+ \(runtime.host_time_bound = clock: host" "$work/err"
check "the cache was written" "clock_hz" "$work/cache/host-$(hostname).toml"
if [ -n "$ratio" ]; then
  "$prog" -n 2 "${measure[@]}" busy 20 5 "$ratio" >"$work/out" 2>"$work/err"
  check "busy loop at the automatic ratio $ratio" "own_time: OK" "$work/out"
fi

# Record, then replay twice: the same summary line (simulated time and events) every time.
"$prog" -n 3 "${measure[@]}" --set runtime.host_time_record="$work/p.prof" busy 2 20 \
  >"$work/rec.out" 2>"$work/rec.err"
for i in 1 2; do
  "$prog" -n 3 "${measure[@]}" --set runtime.host_time_replay="$work/p.prof" busy 2 20 \
    >"$work/rep$i.out" 2>"$work/rep$i.err"
  check "replay $i says so" "own code replayed from the compute profile $work/p.prof" "$work/rep$i.err"
done
# The summary's simulated time and the program's own reading of it (not its host CPU time).
for r in rec rep1 rep2; do
  { grep -E '^simmpi: [0-9]+ ranks' "$work/$r.err"; grep -o 'simulated [0-9.]* s' "$work/$r.out"; } >"$work/$r.line"
done
cmp -s "$work/rec.line" "$work/rep1.line" ||
  { echo "FAIL: replay differs from the recording run"; cat "$work/rec.line" "$work/rep1.line"; fail=1; }
cmp -s "$work/rep1.line" "$work/rep2.line" ||
  { echo "FAIL: two replays differ"; cat "$work/rep1.line" "$work/rep2.line"; fail=1; }

# A replay that takes another path is stopped at the first burst that differs.
SIMMPI_TEST_EXTRA_ITERATION=1 "$prog" -n 3 "${measure[@]}" \
  --set runtime.host_time_replay="$work/p.prof" busy 2 20 >"$work/out" 2>"$work/err"
[ $? = 2 ] || { echo "FAIL: a diverging replay did not exit with status 2"; fail=1; }
check "divergence named" "p.prof: the compute profile does not fit this run: rank 1: burst 24 ends in MPI_Barrier, but in MPI_Wtime in the profile" "$work/err"
# Other arguments or rank count: refused before the run.
"$prog" -n 2 "${measure[@]}" --set runtime.host_time_replay="$work/p.prof" busy 2 20 2>"$work/err" >/dev/null
check "other rank count" "recorded with ranks \"3\", this run has \"2\"" "$work/err"
"$prog" -n 3 "${measure[@]}" --set runtime.host_time_replay="$work/p.prof" busy 2 21 2>"$work/err" >/dev/null
check "other arguments" "recorded with arguments \"busy 2 20\", this run has \"busy 2 21\"" "$work/err"
head -c 100 "$work/p.prof" >"$work/cut.prof"
"$prog" -n 3 "${measure[@]}" --set runtime.host_time_replay="$work/cut.prof" busy 2 20 2>"$work/err" >/dev/null
check "truncated profile" "cut.prof: truncated compute profile" "$work/err"
echo hello >"$work/not.prof"
"$prog" -n 3 "${measure[@]}" --set runtime.host_time_replay="$work/not.prof" busy 2 20 2>"$work/err" >/dev/null
check "not a profile" "not.prof: not a simmpi compute profile" "$work/err"

# Bad ratios.
for bad in -1 0 abc; do
  "$prog" -n 1 "${measure[@]}" --set runtime.host_time_scale=$bad busy 1 1 2>"$work/err" >/dev/null
  check "ratio $bad" "runtime.host_time_scale = \"$bad\" \(--set\): expected auto or a positive number" "$work/err"
done

# A corrupt host calibration, and one of another host.
cache=$work/cache/host-$(hostname).toml
echo 'clock_hz = "fast"' >"$cache"
"$prog" -n 1 "${measure[@]}" busy 1 1 2>"$work/err" >/dev/null
check "corrupt calibration" "$cache: corrupt host calibration: no text \"host\"" "$work/err"
printf 'host = "elsewhere"\ncpu = "other"\nclock_hz = 3e9\ncore_flops = 1e10\ncore_memory_Bps = 1e10\n' >"$cache"
"$prog" -n 1 "${measure[@]}" busy 1 1 2>"$work/err" >/dev/null
check "other host" "this host calibration describes host \"elsewhere\" \(other\), not this one" "$work/err"
"$prog" -n 1 "${measure[@]}" --set runtime.host_calibration=refresh busy 1 1 2>"$work/err" >/dev/null
check "refresh replaces it" "host = \"$(hostname)\"" "$cache"

[ $fail = 0 ] && echo "own_time_test: OK"
exit $fail
