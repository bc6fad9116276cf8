#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# mpich_suite.sh (issue 19): the C tests of MPICH's own test suite (test/mpi), directory by
# directory, built and run natively with the installed MPICH (mpicc, mpiexec) and under simmpi
# (simmpicc, ./t.sim -n N -- args), with a table of how many each passes.
#
#   tools/bench/mpich_suite.sh SRC [WORK]
#
# SRC: an MPICH source tree (the directory holding test/mpi) or an MPICH git directory (bare
# or a checkout's .git; its HEAD's test/mpi is taken with git archive). Nothing is downloaded.
# WORK (default /tmp/mpich_suite): the sources, the builds and every log:
#   WORK/logs/{build,run}.{nat,sim}/DIR/TEST[.K].log, WORK/results.tsv (one line per test), and
#   WORK/table.md (the table printed at the end).
# Environment: DIRS (default: the ten directories, smallest first), TIMEOUT (60 s; a testlist's smaller
# timeLimit is used where it gives one), MEM_GB (4: tests whose testlist asks for more memory,
# mem=, are skipped, as MPICH's runtests does with its default 4 GB), SIMMPI_BIN (the directory
# of simmpicc; default this checkout's build/bin, else simmpicc's on PATH), MPICC / MPIEXEC (mpicc / mpiexec),
# BUILD_JOBS (2: compilations at once per side; the runs are always one at a time), NICE (10),
# FRESH (1: run again the tests whose logs in WORK are complete; by default their results stand),
# SKIP_NATIVE / SKIP_SIM (1: do not build or run that side; its column reads SKIPPED),
# REPORT_ONLY (1: build and run nothing: the results, the table and the causes from the logs
# in WORK; a test without a complete log is NOTRUN).
#
# A test is one line of a directory's testlist(.in): "name nprocs [arg=...] [env=...] [key=...]",
# as MPICH's runtests reads it. name.c (or the sources a Makefile.am names for it, with its -D
# flags; util/run_mpitests.c where they define run() instead of main()) is linked with util/mtest.c, mtest_common.c, mtest_single.c, dtypes.c and dtpools, and
# a hand-written mpitestconf.h (what configure defines on Debian 12 with MPICH 4.0.2, below).
# Pass: a line of the output reads "No Errors" (MTest_Finalize writes " No Errors",
# util/run_mpitests.c "No Errors"; runtests reads /^\s*No [Ee]rrors\s*$/) (resultTest=TestStatus / TestErrFatal: the job exits
# with a nonzero status, as runtests checks; MPIEXEC_TIMEOUT is the test's limit as runtests
# sets it, the outer timeout 5 s more; a run stopped by it is TIMEOUT). env= is set for both runs (MPICH's MPIR_CVAR_*
# mean nothing to simmpi). Lines with an unresolved @...@ substitution are skipped and named.
set -u
SRC=${1:?usage: mpich_suite.sh MPICH_SOURCE_TREE_OR_GIT_DIR [WORK]}
WORK=${2:-/tmp/mpich_suite}
here=$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
DIRS=${DIRS:-"group topo init info attr errhan comm datatype pt2pt coll"}
TIMEOUT=${TIMEOUT:-60}
MEM_GB=${MEM_GB:-4}
SIMMPI_BIN=${SIMMPI_BIN:-$here/../../build/bin}
[ -x "$SIMMPI_BIN/simmpicc" ] || { w=$(command -v simmpicc) && SIMMPI_BIN=$(dirname "$w"); }
MPICC=${MPICC:-mpicc}
MPIEXEC=${MPIEXEC:-mpiexec}
BUILD_JOBS=${BUILD_JOBS:-2}
NICE=${NICE:-10}
SIMMPICC="$SIMMPI_BIN/simmpicc"
[ -x "$SIMMPICC" ] || { echo "no simmpicc in $SIMMPI_BIN (set SIMMPI_BIN)" >&2; exit 2; }
command -v "$MPICC" >/dev/null || { echo "no $MPICC" >&2; exit 2; }

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
T=$WORK/src/test/mpi

# ---- the sources --------------------------------------------------------------------------
if [ ! -d "$T" ]; then
  mkdir -p "$WORK/src"
  if [ -d "$SRC/test/mpi" ]; then
    mkdir -p "$WORK/src/test" && cp -r "$SRC/test/mpi" "$WORK/src/test/"
  elif git --git-dir="$SRC" rev-parse HEAD >/dev/null 2>&1; then
    git --git-dir="$SRC" archive HEAD test/mpi | tar -x -C "$WORK/src"
    git --git-dir="$SRC" rev-parse HEAD > "$WORK/src/COMMIT"
  elif git --git-dir="$SRC/.git" rev-parse HEAD >/dev/null 2>&1; then
    git --git-dir="$SRC/.git" archive HEAD test/mpi | tar -x -C "$WORK/src"
    git --git-dir="$SRC/.git" rev-parse HEAD > "$WORK/src/COMMIT"
  else
    echo "$SRC: neither a tree with test/mpi nor a git directory" >&2; exit 2
  fi
fi
[ -f "$WORK/src/COMMIT" ] && echo "MPICH commit: $(cat "$WORK/src/COMMIT")"

# mpitestconf.h: what test/mpi's configure defines on Debian 12 (gcc 12, glibc 2.36) against
# the mpich package (4.0.2, ch4:ucx, with Fortran, ROMIO, spawn and RMA), no GPU, not strict.
cat > "$T/include/mpitestconf.h" <<'EOF'
/* mpitestconf.h for mpich_suite.sh: Debian 12, gcc 12, MPICH 4.0.2 (ch4:ucx) */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define STDC_HEADERS 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STRINGS_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDARG_H 1
#define HAVE_STDBOOL_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE__BOOL 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_LONG_INT 1
#define HAVE_LONG_DOUBLE__COMPLEX 1
#define USE_LONG_DOUBLE_COMPLEX 1
#define HAVE_FLOAT16 1
#define HAVE_ATOMIC 1
#define HAVE_FORTRAN_BINDING 1
#define HAVE_MPI_IO 1
#define HAVE_MPI_SPAWN 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_INTEGER16 1
#define HAVE_MPI_REAL16 1
#define HAVE_MPI_COMPLEX32 1
#define HAVE_H_ADDR_LIST 1
#define MPICH_CH4_UCX 1
#define POINTERINT_t int64_t
#define THREAD_PACKAGE_NONE 0
#define THREAD_PACKAGE_POSIX 1
#define THREAD_PACKAGE_SOLARIS 2
#define THREAD_PACKAGE_WIN 3
#define THREAD_PACKAGE_QTHREADS 4
#define THREAD_PACKAGE_ARGOBOTS 5
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#endif
EOF
# mtest_mpix.h comes from MPICH's own autogen; outside an MPICH build it is empty (as
# test/mpi/autogen.sh makes it).
: > "$T/include/mtest_mpix.h"
cat > "$T/dtpools/dtpoolsconf.h" <<'EOF'
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_LIMITS_H 1
#define HAVE_STDINT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STRDUP 1
#define HAVE_MEMSET 1
EOF

CFLAGS_COMMON=(-O0 -w -I"$T/include" -I"$T/dtpools/include")

# ---- the test lines ------------------------------------------------------------------------
# tests.tsv ('|' between fields, so that empty ones stay): dir, name, np, args (space separated), env (space separated), resultTest,
# timeLimit, mem, line number; skipped.tsv: dir, line, why.
: > "$WORK/tests.tsv"
: > "$WORK/skipped.tsv"
for d in $DIRS; do
  tl=$T/$d/testlist.in
  [ -f "$tl" ] || tl=$T/$d/testlist
  [ -f "$tl" ] || { echo "no testlist in $d" >&2; continue; }
  awk -v d="$d" -v mem="$MEM_GB" -v skipf="$WORK/skipped.tsv" '
    { sub(/#.*/, ""); }
    NF < 2 { next }
    {
      line = $0
      if (line ~ /@[A-Za-z_]+@/) { print d "\t" $0 "\tunresolved @...@ substitution" >> skipf; next }
      args = ""; env = ""; rt = ""; tlim = ""; m = ""
      for (i = 3; i <= NF; i++) {
        k = $i; sub(/=.*/, "", k); v = substr($i, length(k) + 2)
        if (k == "arg") args = args (args == "" ? "" : " ") v
        else if (k == "env") env = env (env == "" ? "" : " ") v
        else if (k == "resultTest") rt = v
        else if (k == "timeLimit") tlim = v
        else if (k == "mem") m = v
      }
      if (m != "" && m + 0 > mem + 0) { print d "\t" $0 "\tmem=" m " GB > MEM_GB=" mem >> skipf; next }
      print d "|" $1 "|" $2 "|" args "|" env "|" rt "|" tlim "|" m "|" NR
    }' "$tl" >> "$WORK/tests.tsv"
done
echo "$(wc -l < "$WORK/tests.tsv") test lines in: $DIRS; $(wc -l < "$WORK/skipped.tsv") skipped (WORK/skipped.tsv)"

# ---- building ------------------------------------------------------------------------------
# sources_of DIR NAME: the sources and -D flags automake would use (NAME_SOURCES / NAME_CPPFLAGS
# in DIR/Makefile.am, else NAME.c).
sources_of() {
  local d=$1 n=$2 mk=$T/$1/Makefile.am srcs defs
  srcs=$(sed -n "s/^${n}_SOURCES[[:space:]]*=[[:space:]]*//p" "$mk" | head -1)
  defs=$(sed -n "s/^${n}_CPPFLAGS[[:space:]]*=[[:space:]]*//p" "$mk" | head -1 | tr ' ' '\n' | grep '^-D' | tr '\n' ' ')
  [ -n "$srcs" ] || srcs="$n.c"
  local out=""
  for s in $srcs; do out="$out $T/$d/$s"; done
  # Tests written for the suite's multi-test driver (coll, attr) define run(), not main(): built
  # one by one, as automake does without MULTI_TESTS, util/run_mpitests.c gives them main.
  # shellcheck disable=SC2086
  grep -q -E '(^|[^A-Za-z_0-9])main[[:space:]]*\(' $out || out="$out $T/util/run_mpitests.c"
  echo "$defs|$out"
}
export -f sources_of

build_support() { # side compiler
  local side=$1 cc=$2 o=$WORK/build.$1/util
  mkdir -p "$o"
  [ -f "$o/libmtestsuite.a" ] && return 0
  local objs=()
  for s in "$T"/util/mtest.c "$T"/util/mtest_common.c "$T"/util/mtest_single.c "$T"/util/dtypes.c "$T"/dtpools/src/*.c; do
    s=${s#"$T/"}
    local ob=$o/$(basename "${s%.c}").o
    nice -n "$NICE" "$cc" "${CFLAGS_COMMON[@]}" -c "$T/$s" -o "$ob" >> "$o/build.log" 2>&1 \
      || { echo "support $s failed for $side (see $o/build.log)" >&2; return 1; }
    objs+=("$ob")
  done
  ar rcs "$o/libmtestsuite.a" "${objs[@]}"
}

build_one() { # side cc dir name
  local side=$1 cc=$2 d=$3 n=$4
  local exe=$WORK/build.$side/$d/$n log=$WORK/logs/build.$side/$d/$n.log
  mkdir -p "$(dirname "$exe")" "$(dirname "$log")"
  grep -q '^BUILD \(OK\|FAILED\)$' "$log" 2>/dev/null && return 0
  local sd defs srcs
  sd=$(sources_of "$d" "$n"); defs=${sd%%|*}; srcs=${sd#*|}
  # shellcheck disable=SC2086
  if nice -n "$NICE" "$cc" "${CFLAGS_COMMON[@]}" $defs $srcs "$WORK/build.$side/util/libmtestsuite.a" -lm \
       -o "$exe" > "$log" 2>&1; then echo "BUILD OK" >> "$log"; else echo "BUILD FAILED" >> "$log"; rm -f "$exe"; fi
}
export -f build_one
export T WORK NICE
export CFLAGS_COMMON_STR="${CFLAGS_COMMON[*]}"

build_dir() { # side cc dir
  local side=$1 cc=$2 d=$3
  awk -F'|' -v d="$d" '$1 == d { print $1 " " $2 }' "$WORK/tests.tsv" | sort -u | \
    xargs -P "$BUILD_JOBS" -L 1 bash -c 'CFLAGS_COMMON=($CFLAGS_COMMON_STR); build_one "$0" "$1" "$2" "$3"' "$side" "$cc"
}

# The builds go ahead directory by directory, both sides at once (BUILD_JOBS compilations each),
# in the background; the runs of a directory start when its builds are done.
start=$(date +%s)
builder=
rm -f "$WORK"/built.*
if [ "${REPORT_ONLY:-0}" = 1 ]; then for d in $DIRS; do touch "$WORK/built.$d"; done; else
NATCC=$(command -v "$MPICC")
[ "${SKIP_NATIVE:-0}" = 1 ] || build_support nat "$NATCC" || exit 1
[ "${SKIP_SIM:-0}" = 1 ] || build_support sim "$SIMMPICC" || exit 1
(
  for d in $DIRS; do
    [ "${SKIP_NATIVE:-0}" = 1 ] || build_dir nat "$NATCC" "$d" &
    [ "${SKIP_SIM:-0}" = 1 ] || build_dir sim "$SIMMPICC" "$d" &
    wait
    touch "$WORK/built.$d"
  done
) &
builder=$!
trap 'kill $builder 2>/dev/null' EXIT
fi # REPORT_ONLY

# The simmpi runs use a copy of libsimmpi.so taken now (LD_LIBRARY_PATH overrides the
# programs' RUNPATH), so that a rebuild of simmpi during the run changes nothing halfway
# (SIMMPI_SNAPSHOT=0: use the library in place).
SIMLIB=
if [ "${SIMMPI_SNAPSHOT:-1}" = 1 ] && [ "${SKIP_SIM:-0}" != 1 ] && [ "${REPORT_ONLY:-0}" != 1 ]; then
  libdir=$("$SIMMPICC" -show x.c | grep -o -E -- '-L[^ ]+' | head -1 | cut -c3-)
  mkdir -p "$WORK/simlib"
  # the copy is taken when the library has not changed for 10 s (not halfway through a link)
  while [ $(( $(date +%s) - $(stat -c %Y "$libdir/libsimmpi.so") )) -lt 10 ]; do sleep 5; done
  cp "$libdir/libsimmpi.so" "$WORK/simlib/" && SIMLIB=$WORK/simlib
  echo "simmpi runs use a copy of $libdir/libsimmpi.so of $(date -u -r "$libdir/libsimmpi.so" '+%F %T UTC')"
fi

# ---- running -------------------------------------------------------------------------------
# run_one side dir name np args env rt tlim key: writes the log and prints PASS/FAIL/TIMEOUT/NOBUILD
run_one() {
  local side=$1 d=$2 n=$3 np=$4 args=$5 envs=$6 rt=$7 tlim=$8 key=$9
  local exe=$WORK/build.$side/$d/$n log=$WORK/logs/run.$side/$d/$key.log
  mkdir -p "$(dirname "$log")"
  if [ ! -x "$exe" ]; then echo NOBUILD; return; fi
  local to=$TIMEOUT
  if [ -n "$tlim" ] && [ "$tlim" -lt "$to" ] 2>/dev/null; then to=$tlim; fi
  local rc
  # A log that ends with the exit status is a run done by an earlier invocation with the same
  # WORK (one stopped halfway): its result stands, unless FRESH=1.
  if [ "${FRESH:-0}" != 1 ] && rc=$(tail -1 "$log" 2>/dev/null | sed -n 's/^EXIT STATUS //p') && [ -n "$rc" ]; then :
  elif [ "${REPORT_ONLY:-0}" = 1 ]; then echo NOTRUN; return
  else
  (
    cd "$WORK/build.$side/$d" || exit 1
    # shellcheck disable=SC2086
    if [ "$side" = nat ]; then
      env MPIEXEC_TIMEOUT="$to" $envs timeout -k 5 "$((to + 5))" nice -n "$NICE" "$MPIEXEC" -n "$np" "$exe" $args
    else
      env ${SIMLIB:+LD_LIBRARY_PATH="$SIMLIB"} MPIEXEC_TIMEOUT="$to" $envs timeout -k 5 "$((to + 5))" nice -n "$NICE" "$exe" -n "$np" -- $args
    fi
  ) > "$log" 2>&1 < /dev/null
  rc=$?
  echo "EXIT STATUS $rc" >> "$log"
  fi
  if [ $rc = 124 ] || [ $rc = 137 ]; then echo TIMEOUT; return; fi
  case "$rt" in
    TestStatus|TestErrFatal) [ $rc != 0 ] && echo PASS || echo FAIL ;;
    *) grep -q -E '^[[:space:]]*No [Ee]rrors[[:space:]]*$' "$log" && echo PASS || echo FAIL ;;
  esac
}

results=$WORK/results.tsv
: > "$results"
declare -A seen
while IFS='|' read -r d n np args envs rt tlim mem ln; do
  while [ ! -f "$WORK/built.$d" ]; do sleep 2; done
  k=${seen[$d/$n]:-0}; seen[$d/$n]=$((k + 1))
  key=$n; [ "$k" -gt 0 ] && key=$n.$k
  rn=SKIPPED; rs=SKIPPED
  [ "${SKIP_NATIVE:-0}" = 1 ] || rn=$(run_one nat "$d" "$n" "$np" "$args" "$envs" "$rt" "$tlim" "$key")
  [ "${SKIP_SIM:-0}" = 1 ] || rs=$(run_one sim "$d" "$n" "$np" "$args" "$envs" "$rt" "$tlim" "$key")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$d" "$key" "$np" "$args" "$envs" "$rn" "$rs" >> "$results"
  printf '%-9s %-28s np=%-3s native %-7s simmpi %s\n' "$d" "$key" "$np" "$rn" "$rs"
done < "$WORK/tests.tsv"

# ---- the table -----------------------------------------------------------------------------
{
  echo "| directory | tests | skipped | not run | built natively | passed natively | built under simmpi | passed under simmpi | passed natively, not under simmpi |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' -v skipf="$WORK/skipped.tsv" -v dirs="$DIRS" '
    BEGIN { while ((getline l < skipf) > 0) { split(l, a, "\t"); sk[a[1]]++ }
            nd = split(dirs, order, " ") }
    { t[$1]++
      if ($6 == "NOTRUN" || $7 == "NOTRUN") nr[$1]++
      if ($6 != "NOBUILD" && $6 != "SKIPPED") bn[$1]++
      if ($6 == "PASS") pn[$1]++
      if ($7 != "NOBUILD" && $7 != "SKIPPED") bs[$1]++
      if ($7 == "PASS") ps[$1]++
      if ($6 == "PASS" && $7 != "PASS" && $7 != "NOTRUN") only[$1]++ }
    END { for (i = 1; i <= nd; i++) { d = order[i]
            printf "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", d, t[d], sk[d], nr[d], bn[d], pn[d], bs[d], ps[d], only[d]
            T += t[d]; S += sk[d]; NRN += nr[d]; BN += bn[d]; PN += pn[d]; BS += bs[d]; PS += ps[d]; O += only[d] }
          printf "| **total** | %d | %d | %d | %d | %d | %d | %d | %d |\n", T, S, NRN, BN, PN, BS, PS, O }' "$results"
} > "$WORK/table.md"
echo
cat "$WORK/table.md"
echo
echo "passed natively, not under simmpi (dir, test, simmpi result, log):"
awk -F'\t' '$6 == "PASS" && $7 != "PASS" && $7 != "NOTRUN" { print "  " $1 "/" $2 "  " $7 }' "$results"

# ---- why simmpi fails what MPICH passes ----------------------------------------------------
# causes.tsv: dir/test, cause, detail. From simmpi's logs: a build that failed (the MPI names
# that do not link or are undeclared), a timeout, "X is not implemented by simmpi", a deadlock
# report (exit status 3), "Test Skipped" (the test checks MPI_VERSION), a crash (exit status 128 + signal), else a wrong value or an error
# the program reports (its first such line).
cause_of() { # dir key name result
  local d=$1 key=$2 n=$3 r=$4 blog=$WORK/logs/build.sim/$1/$3.log rlog=$WORK/logs/run.sim/$1/$2.log
  if [ "$r" = NOBUILD ]; then
    local names
    names=$(grep -o -E "undefined reference to \`[A-Za-z_0-9]+'" "$blog" | sed -E "s/.*\`(.*)'/\1/" | sort -u | tr '\n' ' ')
    if [ -n "$names" ]; then printf 'does not link\t%s\n' "$names"; return; fi
    names=$(grep -o -E "'[A-Za-z_0-9]+' undeclared|implicit declaration of function '[A-Za-z_0-9]+'|unknown type name '[A-Za-z_0-9]+'" "$blog" | grep -o -E "'[A-Za-z_0-9]+'" | tr -d "'" | sort -u | tr '\n' ' ')
    printf 'does not compile\t%s\n' "${names:-$(grep -m1 error "$blog")}"; return
  fi
  if [ "$r" = TIMEOUT ]; then printf 'timeout\t%s\n' "no end within the time limit: $(grep -v '^simmpi:' "$rlog" | grep -v '^EXIT' | tail -1 | cut -c1-120)"; return; fi
  local st ni
  st=$(sed -n 's/^EXIT STATUS //p' "$rlog" | tail -1)
  ni=$(grep -o -E '[A-Za-z_0-9]+ is not implemented by simmpi' "$rlog" | head -1 | cut -d' ' -f1)
  if [ -n "$ni" ]; then printf 'not implemented\t%s\n' "$ni"; return; fi
  local se
  se=$(grep -m1 '^simmpi: error: ' "$rlog" | sed -E 's/^simmpi: error: (\[[^]]*\] )?//')
  if [[ "$se" == *"not implemented"* ]]; then
    printf 'not implemented\t%s\n' "${se%%:*}: $(echo "$se" | grep -o -E '[^;(]*not implemented[^;(]*' | head -1 | sed 's/^ *//')"; return
  fi
  if grep -q '^ *Test Skipped' "$rlog"; then printf 'test skips itself\t%s\n' "the test needs a newer MPI_VERSION than simmpi's mpi.h says (4.1)"; return; fi
  if [ "$st" = 3 ]; then printf 'deadlock report\t%s\n' "$(grep -m1 -i deadlock "$rlog" | cut -c1-160)"; return; fi
  if [ -n "$st" ] && [ "$st" -ge 128 ]; then printf 'crash\tsignal %s: %s\n' "$((st - 128))" "$(grep -m1 -i -E 'crash|signal|fault|abort' "$rlog" | cut -c1-140)"; return; fi
  if [ -n "$se" ] && [[ "$se" != *"exited with status"* ]]; then printf 'error raised by simmpi\t%s\n' "$(echo "$se" | cut -c1-170)"; return; fi
  printf 'wrong value or error\t%s\n' "$(grep -v '^simmpi:' "$rlog" | grep -m1 -i -E 'error|found|fail|expect|wrong|invalid|bad' | cut -c1-160)"
}
: > "$WORK/causes.tsv"
awk -F'\t' '$6 == "PASS" && $7 != "PASS" && $7 != "SKIPPED" && $7 != "NOTRUN" { print $1 "\t" $2 "\t" $7 }' "$results" | \
  while IFS=$'\t' read -r d key r; do
    n=${key%%.*}
    printf '%s/%s\t%s\n' "$d" "$key" "$(cause_of "$d" "$key" "$n" "$r")" >> "$WORK/causes.tsv"
  done
echo
echo "causes (WORK/causes.tsv):"
cut -f2 "$WORK/causes.tsv" | sort | uniq -c | sort -rn
echo
sort -t$'\t' -k2,2 -k1,1 "$WORK/causes.tsv" | awk -F'\t' '{ printf "  %-22s %-34s %s\n", $2, $1, $3 }'

[ -n "$builder" ] && wait "$builder" 2>/dev/null
echo "built and ran in $(( $(date +%s) - start )) s; logs in $WORK/logs"
