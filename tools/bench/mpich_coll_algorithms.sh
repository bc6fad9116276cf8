#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# mpich_coll_algorithms.sh (issue 19): MPICH's coll tests under every forced collective algorithm.
# mpich_suite.sh runs each test once, with the algorithms its default rule picks; this runs again,
# for each choice of each mpi.coll.<collective> key (docs/config.md), the coll tests whose source
# calls that collective (blocking, nonblocking or persistent), with the choice forced.
#
#   tools/bench/mpich_coll_algorithms.sh WORK [OUT]
#
# WORK: the work directory of a `DIRS=coll mpich_suite.sh` run with the simmpi side built (its
# build.sim/coll, tests.tsv and simlib are used; nothing is rebuilt). OUT (default WORK/algorithms):
# OUT/KEY=CHOICE[_EXTRA]/TEST.log and OUT/results.txt (one line per run: setting, test, np, result).
# Environment: CONFIGS (a file of lines "KEY CHOICE [key=value ...]"; default every choice of every
# key, read from docs/config.md), JOBS (2 runs at once), TIMEOUT (60 s), NICE (10).
# KEY "selection" runs every test with mpi.coll.selection=CHOICE. A pass is a line "No Errors"
# (a nonzero exit for resultTest=TestStatus/TestErrFatal), as in mpich_suite.sh.
set -u
WORK=${1:?usage: mpich_coll_algorithms.sh WORK [OUT]}
OUT=${2:-$WORK/algorithms}
here=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
[ -d "$WORK/build.sim/coll" ] || { echo "$WORK/build.sim/coll: no simmpi build of coll" >&2; exit 2; }
mkdir -p "$OUT"
CONFIGS=${CONFIGS:-}
if [ -z "$CONFIGS" ]; then
  CONFIGS=$OUT/configs.txt
  perl -ne 'if (/^\| `mpi\.coll\.(\w+)` \| choice/ && $1 ne "selection") { $k = $1;
              while (/<br>`(\w+)`/g) { print "$k $1\n" unless $1 eq "auto" } }' \
    "$here/../../docs/config.md" > "$CONFIGS"
fi

run_setting() { # KEY CHOICE [EXTRA...]
  local key=$1 val=$2; shift 2
  local extra="$*" re f exe log rc r k tk
  case $key in
    selection) re='.' ;;
    reduce|allgather|alltoall|gather|scatter|reduce_scatter) re="MPI_I?${key}(_init)?[ (]" ;;
    *) re="MPI_I?${key}" ;;
  esac
  local dir=$OUT/$key=$val${extra:+_$(echo "$extra" | tr ' =' '_:')}
  mkdir -p "$dir"
  declare -A seen
  while IFS='|' read -r _ n np args envs rt _; do
    k=${seen[$n]:-0}; seen[$n]=$((k + 1)); tk=$n; [ "$k" -gt 0 ] && tk=$n.$k
    f=$WORK/src/test/mpi/coll/$n.c
    [ -f "$f" ] && ! grep -q -i -E "$re" "$f" && continue
    exe=$WORK/build.sim/coll/$n log=$dir/$tk.log
    [ -x "$exe" ] || continue
    # shellcheck disable=SC2086
    (cd "$WORK/build.sim/coll" && env LD_LIBRARY_PATH="$WORK/simlib" \
       SIMMPI_SET="runtime.host_time=ignore mpi.coll.$key=$val $extra" $envs \
       timeout -k 5 "$TIMEOUT" nice -n "$NICE" "$exe" -n "$np" -- $args) > "$log" 2>&1 < /dev/null
    rc=$?
    r=FAIL; grep -q -E '^[[:space:]]*No [Ee]rrors[[:space:]]*$' "$log" && r=PASS
    case "$rt" in TestStatus|TestErrFatal) [ $rc != 0 ] && r=PASS || r=FAIL ;; esac
    [ $rc = 124 ] || [ $rc = 137 ] && r=TIMEOUT
    echo "$key=$val${extra:+ $extra} $tk np=$np $r"
  done < "$WORK/tests.tsv"
}
export -f run_setting
export WORK OUT TIMEOUT=${TIMEOUT:-60} NICE=${NICE:-10}
xargs -P "${JOBS:-2}" -L 1 bash -c 'run_setting "$@"' _ < "$CONFIGS" | tee "$OUT/results.txt"
echo
echo "runs: $(wc -l < "$OUT/results.txt"), settings: $(wc -l < "$CONFIGS"), not passed:"
grep -v ' PASS$' "$OUT/results.txt"
