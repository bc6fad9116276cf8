#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `cmake --install` gives a usable prefix: its simmpicc builds and runs a program, and a CMake
# project finds simmpi with find_package(simmpi) and links simmpi::simmpi. simmpi's stand-in
# headers (mpi.h, cblas.h, cuda_runtime.h...) are in include/simmpi/, where they shadow nothing.
#   install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for h in mpi.h simmpi.h cblas.h cuda_runtime.h cuda_runtime_api.h cublas_v2.h mpif.h mpi.mod mpi_f08.mod; do
  [ -e "$work/prefix/include/$h" ] && { echo "FAIL: include/$h would shadow other software's"; exit 1; }
done
for h in mpi.h cblas.h cuda_runtime.h cublas_v2.h; do
  [ -f "$work/prefix/include/simmpi/$h" ] || { echo "FAIL: include/simmpi/$h is not installed"; exit 1; }
done
[ -f "$work/prefix/lib/pkgconfig/simmpi.pc" ] || { echo "FAIL: no pkg-config file"; exit 1; }
"$work/prefix/bin/simmpicc" "$src/examples/ring.c" -o "$work/ring.sim"
out=$("$work/ring.sim" -n 6 --quiet)
grep -q "token 15 (expected 15)" <<<"$out" || { echo "FAIL: installed simmpicc: $out"; exit 1; }
# The installed Fortran wrapper finds mpi.mod and mpif.h in the prefix.
if command -v gfortran >/dev/null; then
  cat >"$work/hello.f90" <<'F90'
program hello
  use mpi
  implicit none
  integer :: rank, n, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  if (rank == n - 1) print '(a,i0,a,i0)', 'hello from ', rank, ' of ', n
  call MPI_Finalize(ierr)
end program hello
F90
  "$work/prefix/bin/simmpif90" "$work/hello.f90" -o "$work/hello.sim"
  out=$("$work/hello.sim" -n 3 --quiet)
  grep -q "hello from 2 of 3" <<<"$out" || { echo "FAIL: installed simmpif90: $out"; exit 1; }
  [ -f "$work/prefix/include/simmpi/mpif.h" ] || { echo "FAIL: mpif.h is not installed"; exit 1; }
  [ -f "$work/prefix/include/simmpi/mpi_f08.mod" ] || { echo "FAIL: mpi_f08.mod is not installed"; exit 1; }
fi
mkdir "$work/project"
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(uses_simmpi C)
find_package(simmpi REQUIRED)
add_executable(ring.sim $src/examples/ring.c)
target_link_libraries(ring.sim PRIVATE simmpi::simmpi)
CMAKE
cmake -S "$work/project" -B "$work/project/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/project/build" >/dev/null
out=$("$work/project/build/ring.sim" -n 4 --quiet)
grep -q "token 6 (expected 6)" <<<"$out" || { echo "FAIL: find_package build: $out"; exit 1; }
# The replay tools are installed and find the prefix's library.
for t in simmpi-replay simmpi-otf2-trace simmpi-dumpi-trace simmpi-report simmpi-sweep simmpi-hpl simmpi-traffic; do
  [ -x "$work/prefix/bin/$t" ] || { echo "FAIL: $t is not installed"; exit 1; }
done
"$work/prefix/bin/simmpi-replay.sim" --help >/dev/null 2>&1 ||
  { echo "FAIL: the installed simmpi-replay.sim does not start"; exit 1; }
ldd "$work/prefix/bin/simmpi-replay.sim" | grep -q "$work/prefix/bin/../lib/libsimmpi.so" ||
  { echo "FAIL: the installed replay program does not use the prefix's libsimmpi"; exit 1; }
echo "install_test: OK"
