#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Issue 22's costs of observing a run (runtime/observe), best of 3, every variant in the same
# loop, as CPU seconds (user + system, every thread) and as wall seconds:
#  - nothing on, against a build of the same programs from before the observation stream
#    (BASELINE_BUILD, optional: a build directory of an older checkout);
#  - --profile (target: at most 1.10x nothing on);
#  - --timeline (compressed Chrome JSON) and --timeline=otf2 (target: at most 2x), with the
#    bytes per recorded event on disk (target: about 30 or fewer). Both write on a thread of
#    their own by default (report.timeline_thread), which overlaps the run on a second CPU: the
#    wall time is what the run costs a user, the CPU time what it costs the machine. inline:
#    --timeline with report.timeline_thread=false (the writer on the simulation's thread);
#  - chrome0: --timeline with report.timeline_min_own_code=0s (every gap between calls an
#    own-code slice, as before the key), to see what the key saves.
# Programs: an 8-byte ping-pong (pingpong_bench, 2 ranks, 1,000,000 round trips) and a halo
# exchange (halo_bench, 1,024 ranks, 200 steps), each in both modes of runtime.host_time:
# ignore (own code costs nothing: runs reproducible) and measure (the default: the host time
# between calls, tens of nanoseconds in these programs, becomes own code). The thread's gain
# needs a CPU that nothing else uses: look at the load the script prints.
#   observe_bench.sh [BUILD_DIR]
set -eu
build=${1:-$(dirname "$0")/../../build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$(dirname "$0")/programs
"$build/bin/simmpicc" -O2 "$src/pingpong_bench.c" -o "$work/pp.sim"
"$build/bin/simmpicc" -O2 "$src/halo_bench.c" -o "$work/halo.sim"
if [ -n "${BASELINE_BUILD:-}" ]; then
  "$BASELINE_BUILD/bin/simmpicc" -O2 "$src/pingpong_bench.c" -o "$work/pp.base.sim"
  "$BASELINE_BUILD/bin/simmpicc" -O2 "$src/halo_bench.c" -o "$work/halo.base.sim"
fi

# "CPU WALL" seconds of a command.
times_of() { /usr/bin/time -f "%U %S %e" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2, $3}'; }
best() { sort -g | head -1; }

for run in "ignore pp -n 2 1000000" "ignore halo -n 1024 200" "measure pp -n 2 1000000" \
           "measure halo -n 1024 200"; do
  set -- $run
  export SIMMPI_SET=runtime.host_time=$1
  shift
  prog="$1 ($SIMMPI_SET)"
  name=$1
  shift
  variants=(none profile chrome0 chrome inline otf2)
  [ -n "${BASELINE_BUILD:-}" ] && variants=(baseline "${variants[@]}")
  for v in "${variants[@]}"; do : >"$work/$v.cpu"; : >"$work/$v.wall"; done
  for i in 1 2 3; do
    for v in "${variants[@]}"; do
      exe=$work/$name.sim
      opts=()
      case $v in
        baseline) exe=$work/$name.base.sim ;;
        profile) opts=(--profile --set "report.profile_file=$work/p.json") ;;
        chrome0) rm -f "$work/t0.json.gz"
                 opts=(--timeline --set "report.timeline_file=$work/t0.json.gz"
                       --set report.timeline_min_own_code=0s) ;;
        chrome) rm -f "$work/t.json.gz"
                opts=(--timeline --set "report.timeline_file=$work/t.json.gz") ;;
        inline) rm -f "$work/ti.json.gz"
                opts=(--timeline --set "report.timeline_file=$work/ti.json.gz"
                      --set report.timeline_thread=false) ;;
        otf2) rm -rf "$work/t.otf2"
              opts=(--timeline=otf2 --set "report.timeline_file=$work/t.otf2") ;;
      esac
      read -r cpu wall < <(times_of "$exe" --quiet "${opts[@]}" "$@")
      echo "$cpu" >>"$work/$v.cpu"
      echo "$wall" >>"$work/$v.wall"
    done
  done
  for clock in cpu wall; do
    none=$(best <"$work/none.$clock")
    line="$(printf '%-44s %-4s nothing on %.3f s' "$prog" "$clock" "$none")"
    for v in "${variants[@]}"; do
      [ "$v" = none ] && continue
      line+="$(awk -v n="$none" -v t="$(best <"$work/$v.$clock")" -v v="$v" \
        'BEGIN { printf "  %s %.3f s (%.2fx)", v, t, t / n }')"
    done
    echo "$line"
  done
  if [ "$SIMMPI_SET" = runtime.host_time=ignore ] && ! cmp -s "$work/t.json.gz" "$work/ti.json.gz"
  then
    echo "the inline writer's file differs from the thread's" >&2
  fi
  # Bytes per event on disk, from the last runs' files and their event counts.
  events_of() {
    /usr/bin/python3 -c "
import gzip, json, sys
print(len(json.load(gzip.open(sys.argv[1], 'rt'))['traceEvents']))" "$1"
  }
  chrome0_events=$(events_of "$work/t0.json.gz")
  chrome0_bytes=$(stat -c %s "$work/t0.json.gz")
  chrome_events=$(events_of "$work/t.json.gz")
  chrome_bytes=$(stat -c %s "$work/t.json.gz")
  otf2_bytes=$(du -sb "$work/t.otf2" | cut -f1)
  otf2_events=$(otf2-print "$work/t.otf2/traces.otf2" | grep -cE '^(ENTER|LEAVE|MPI_)')
  awk -v ze="$chrome0_events" -v zb="$chrome0_bytes" -v ce="$chrome_events" \
    -v cb="$chrome_bytes" -v oe="$otf2_events" -v ob="$otf2_bytes" \
    'BEGIN { printf "%-44s chrome0 %d events, %.1f bytes/event; chrome .json.gz %d events, %.1f bytes/event; otf2 %d events, %.1f bytes/event\n", "", ze, zb / ze, ce, cb / ce, oe, ob / oe }'
done
uptime
