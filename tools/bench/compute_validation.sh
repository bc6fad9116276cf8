#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Validation of simmpi's measured own-code time (issue 18, runtime.host_time = measure): public
# MPI mini-apps and benchmark kernels in C, C++ and Fortran, built natively with MPICH and with
# simmpicc/simmpicxx/simmpif90 (same flags), run at 1 and 2 ranks on this machine natively and
# under simmpi on this host's own calibrated platform (simmpi-calibrate: host time ratio 1.000,
# both ranks on one node). Prints: program, language, ranks, native s, predicted s, error %.
# Times are each program's own reported time (simulated clocks under simmpi), best of RUNS.
#
#   tools/bench/compute_validation.sh SRC_DIR [WORK_DIR]
#
# SRC_DIR holds the sources, unpacked beforehand (this script downloads nothing):
#   SRC_DIR/npb/NPB3.4-MPI  NAS Parallel Benchmarks 3.4 MPI (NASA), from github.com/mbdevpl/
#                           nas-parallel-benchmarks at 6f8ec75d6951629d2eb7e3001433295d407230aa
#                           (NPB3.4-MPI/): CG, MG, FT, EP, LU (Fortran), IS (C)
#   SRC_DIR/lulesh          LULESH 2.0, github.com/LLNL/LULESH at
#                           3e01c40b3281aadb7f996525cdd4a3354f6d3801 (C++, built without OpenMP;
#                           it needs a cube number of ranks, so 1 rank only here)
#   SRC_DIR/hpccg           HPCCG 1.0 (Mantevo), github.com/Mantevo/HPCCG at
#                           80dd2f12a4e8aa70c330a5686cdda3fd187c2545 (C++; weak scaling: the size
#                           is per rank)
#   SRC_DIR/comd            CoMD 1.1 (ExMatEx), github.com/ECP-copa/CoMD at
#                           3d48396b77ca8caa3124bc2391f9139c3ffb556c (C, src-mpi/)
# e.g.  git --git-dir=<clone> archive <commit> | tar -x -C SRC_DIR/lulesh
#
# Environment: PLATFORM (default /tmp/t/simmpi-host.toml; write one with
#   build/bin/simmpi-calibrate --platform-out=FILE), SIMMPI_BIN (default: this checkout's
#   build/bin), RUNS (3), RANKS ("1 2"), PROGRAMS (default all: "cg mg ft ep lu is lulesh hpccg
#   comd"), NICE (niceness of both runs, e.g. -15 as root
#   so that other work on a shared machine disturbs them less; default 0), FLAGS (-O2).
# Needs MPICH (apt-get install mpich: mpicc, mpicxx, mpif90, mpiexec) and gfortran. Builds go to
# WORK_DIR (default /tmp/simmpi-compute-validate); run logs are kept in WORK_DIR/logs.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "${1:?usage: compute_validation.sh SRC_DIR [WORK_DIR]}" && pwd)
work=${2:-/tmp/simmpi-compute-validate}
bin=${SIMMPI_BIN:-$here/../../build/bin}
bin=$(cd "$bin" && pwd)
PLATFORM=${PLATFORM:-/tmp/t/simmpi-host.toml}
RUNS=${RUNS:-3}
RANKS=${RANKS:-"1 2"}
PROGRAMS=${PROGRAMS:-"cg mg ft ep lu is lulesh hpccg comd"}
NICE=${NICE:-0}
FLAGS=${FLAGS:-"-O2"}
[ -f "$PLATFORM" ] || { echo "compute_validation: no platform $PLATFORM (run simmpi-calibrate)" >&2; exit 2; }
for t in mpicc mpicxx mpif90 mpiexec; do
  command -v $t >/dev/null || { echo "compute_validation: $t missing (apt-get install mpich)" >&2; exit 2; }
done
mkdir -p "$work/logs"

# Problem sizes (1-20 s natively at 1 rank on a ~3.5 GHz core).
declare -A CLASS=([cg]=A [mg]=A [ft]=A [ep]=A [lu]=W [is]=B)
LULESH_ARGS=${LULESH_ARGS:-"-s 30 -i 100"}
HPCCG_ARGS=${HPCCG_ARGS:-"96 96 96"}
COMD_ARGS=${COMD_ARGS:-"-x 20 -y 20 -z 20 -N 100"}   # global size; -i RANKS splits along x

# ---- build: build MODE PROG (MODE native or sim); sets nothing, leaves $work/MODE/PROG/exe
compilers() {  # MODE -> CC CXX FC
  if [ "$1" = native ]; then CC=mpicc CXX=mpicxx FC=mpif90
  else CC=$bin/simmpicc CXX=$bin/simmpicxx FC=$bin/simmpif90; fi
}
build() {
  local mode=$1 prog=$2 d="$work/$1/$2" CC CXX FC
  compilers "$mode"
  [ -x "$d/exe" ] && return 0
  rm -rf "$d" && mkdir -p "$d"
  case $prog in
    cg|mg|ft|ep|lu|is)
      cp -r "$src/npb/NPB3.4-MPI" "$d/npb" && mkdir -p "$d/npb/bin"
      # -fallow-invalid-boz: MPICH's mpif90 adds it (NPB's randi8.f has X'..' constants).
      cat > "$d/npb/config/make.def" <<EOF
MPIFC = $FC
FLINK = \$(MPIFC)
FFLAGS = $FLAGS -fallow-argument-mismatch -fallow-invalid-boz
FLINKFLAGS = \$(FFLAGS)
MPICC = $CC
CLINK = \$(MPICC)
CFLAGS = $FLAGS
CLINKFLAGS = \$(CFLAGS)
CC = gcc -g
BINDIR = ../bin
CONVERTFLAG = -DFORTRAN_REC_SIZE=1
RAND = randi8
EOF
      (cd "$d/npb" && make "$prog" CLASS=${CLASS[$prog]}) > "$d/build.log" 2>&1 &&
        ln -sf "npb/bin/$prog.${CLASS[$prog]}.x" "$d/exe" ;;
    lulesh)
      (cd "$d" && $CXX $FLAGS -DUSE_MPI=1 -I"$src/lulesh" -o exe "$src"/lulesh/lulesh{,-comm,-viz,-util,-init}.cc -lm) \
        > "$d/build.log" 2>&1 ;;
    hpccg)
      (cd "$d" && $CXX $FLAGS -DUSING_MPI -I"$src/hpccg" -o exe "$src"/hpccg/*.cpp -lm) > "$d/build.log" 2>&1 ;;
    comd)
      printf '#define CoMD_VARIANT "CoMD-mpi"\n#define CoMD_HOSTNAME "h"\n#define CoMD_KERNEL_NAME "k"\n#define CoMD_KERNEL_RELEASE "r"\n#define CoMD_PROCESSOR "p"\n#define CoMD_COMPILER "%s"\n#define CoMD_COMPILER_VERSION "v"\n#define CoMD_CFLAGS "%s"\n#define CoMD_LDFLAGS ""\n' "$CC" "$FLAGS" > "$d/CoMD_info.h"
      (cd "$d" && $CC -std=c99 $FLAGS -DDOUBLE -DDO_MPI -I. -I"$src/comd/src-mpi" -o exe "$src"/comd/src-mpi/*.c -lm) \
        > "$d/build.log" 2>&1 ;;
  esac
  [ -x "$d/exe" ] || { echo "compute_validation: $mode build of $prog failed, see $d/build.log" >&2; return 1; }
}

lang() { case $1 in is|comd) echo C ;; lulesh|hpccg) echo C++ ;; *) echo Fortran ;; esac; }
args() {  # PROG RANKS
  case $1 in
    lulesh) echo "$LULESH_ARGS" ;; hpccg) echo "$HPCCG_ARGS" ;; comd) echo "$COMD_ARGS -i $2" ;; *) echo "" ;;
  esac
}
# The program's own reported time, from its output on stdin.
own_time() {
  case $1 in
    # LULESH prints "Elapsed time" with 2 digits only: per-zone-cycle grind time x zones x cycles
    lulesh) awk '/Problem size/ {n=$4} /Iteration count/ {it=$4}
                 /Grind time/ {printf "%.3f\n", $5 * n * n * n * it / 1e6; exit}' ;;
    hpccg) awk '/Time Summary/ {t=1} t && /Total/ {print $3; exit}' ;;
    # CoMD's rank 0 timer table: "loop  calls  avg/call(s)  total(s)  %loop"
    comd) awk '$1=="loop" && NF==5 {print $4; exit}' ;;
    *) awk '/Time in seconds/ {print $5; exit}' ;;
  esac
}
runs_ok() {  # PROG: the program's own check, from its output on stdin
  case $1 in
    lulesh|hpccg|comd) cat >/dev/null; return 0 ;;
    *) grep -q 'Verification *= *SUCCESSFUL' ;;
  esac
}

best() { sort -g | head -1; }
printf '%-8s %-8s %5s %10s %12s %8s %10s %10s\n' program language ranks native_s predicted_s error% native_wall sim_wall
for p in $PROGRAMS; do
  build native "$p" && build sim "$p" || { printf '%-8s %-8s %5s build failed\n' "$p" "$(lang $p)" -; continue; }
  for r in $RANKS; do
    [ "$p" = lulesh ] && [ "$r" != 1 ] && [ "$r" != 8 ] && continue   # cube numbers only
    a=$(args "$p" "$r")
    : > "$work/logs/$p.$r.native.times"; : > "$work/logs/$p.$r.sim.times"
    for i in $(seq "$RUNS"); do
      log="$work/logs/$p.$r.native.$i"
      ( cd "$work/native/$p" && /usr/bin/time -f 'wall %e' nice -n "$NICE" mpiexec -n "$r" ./exe $a ) > "$log" 2>&1
      runs_ok "$p" < "$log" || echo "compute_validation: native $p -n $r run $i failed verification ($log)" >&2
      echo "$(own_time "$p" < "$log") $(awk '/^wall/ {print $2}' "$log")" >> "$work/logs/$p.$r.native.times"
      log="$work/logs/$p.$r.sim.$i"
      ( cd "$work/sim/$p" && /usr/bin/time -f 'wall %e' nice -n "$NICE" ./exe -n "$r" --platform "$PLATFORM" \
          --set node.ranks_per_node=2 --set node.cores_per_socket=2 -- $a ) > "$log" 2>&1
      runs_ok "$p" < "$log" || echo "compute_validation: simulated $p -n $r run $i failed verification ($log)" >&2
      echo "$(own_time "$p" < "$log") $(awk '/^wall/ {print $2}' "$log")" >> "$work/logs/$p.$r.sim.times"
    done
    nat=$(awk 'NF==2 {print $1}' "$work/logs/$p.$r.native.times" | best)
    sim=$(awk 'NF==2 {print $1}' "$work/logs/$p.$r.sim.times" | best)
    nw=$(awk 'NF==2 {print $2}' "$work/logs/$p.$r.native.times" | best)
    sw=$(awk 'NF==2 {print $2}' "$work/logs/$p.$r.sim.times" | best)
    if [ -n "$nat" ] && [ -n "$sim" ]; then
      err=$(awk -v n="$nat" -v s="$sim" 'BEGIN {printf "%+.1f", 100 * (s - n) / n}')
    else err=n/a; fi
    printf '%-8s %-8s %5s %10s %12s %8s %10s %10s\n' "$p" "$(lang $p)" "$r" "${nat:-n/a}" "${sim:-n/a}" "$err" "${nw:-n/a}" "${sw:-n/a}"
  done
done
