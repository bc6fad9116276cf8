#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The build systems MPI projects use, pointed at an installed simmpi as their docs say
# (docs/build-systems.md): CMake's find_package(MPI) with MPI_<LANG>_COMPILER set to the wrappers
# and MPIEXEC_EXECUTABLE to simmpirun, find_package(simmpi), pkg-config, and autoconf's
# ./configure CC=simmpicc. Each build must keep every simmpi link flag: the program runs, and
# with runtime.fold_threshold set its 64 MiB buffers are folded (a build that lost the malloc
# wrappers is refused at start-up, which is checked too).
#   build_systems_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
here=$src/tests/tools/build_systems
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() {  # expect "what" "regex" "text"
  grep -Eq -- "$2" <<<"$3" || fail "$1: output does not match /$2/: $3"
}
# folds "what" PROGRAM: 8 ranks in model mode with automatic folding give the right sum and
# report the buffers folded.
folds() {
  local out
  out=$("$2" -n 8 --set blas.mode=model --set runtime.fold_threshold=1MiB 2>&1) ||
    fail "$1: exited $?: $out"
  expect "$1 runs" "ranks 8 total 8" "$out"
  expect "$1 folds its buffers" "folded memory: [0-9.]+ GiB of addresses shared by the ranks" "$out"
}

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
export PATH=$prefix/bin:$PATH
cp "$here"/big_buffers.c "$here"/hello.cpp "$here"/hello.f90 "$work/"

# The wrappers answer the query options of Open MPI and MPICH with the flags a build needs.
expect "-showme:compile" "^-I$prefix/include/simmpi -fstack-clash-protection$" "$(simmpicc -showme:compile)"
link=$(simmpicc -showme:link)
for flag in "-Wl,--whole-archive,$prefix/lib/libsimmpi_start.a,--no-whole-archive" -lsimmpi \
            -Wl,-znow -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free; do
  grep -qF -- " $flag" <<<" $link" || fail "-showme:link lacks $flag: $link"
done
grep -q '\\' <<<"$link" && fail "-showme:link escapes characters a flag parser would keep: $link"
expect "-showme:libs" "^simmpi$" "$(simmpicc -showme:libs)"
expect "-showme:incdirs" "^$prefix/include/simmpi$" "$(simmpicc -showme:incdirs)"
expect "-showme:libdirs" "^$prefix/lib$" "$(simmpicc -showme:libdirs)"
expect "-compile_info" "^gcc -I$prefix/include/simmpi " "$(simmpicc -compile_info)"
expect "-link-info" "^g\+\+ -I.* -lsimmpi " "$(simmpicxx -link-info)"
expect "-show keeps the user's arguments" " a\.c -o two\\\\ words " "$(simmpicc -show a.c -o 'two words')"
simmpicc -showme:nonsense >/dev/null 2>"$work/err" && fail "an unknown -showme: query succeeded"
expect "unknown query" 'unknown query option "-showme:nonsense"' "$(cat "$work/err")"

# A build that keeps the libraries but loses the wrap flags is refused when folding is asked.
gcc "$work/big_buffers.c" -I"$prefix/include/simmpi" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" \
  -Wl,--whole-archive,"$prefix/lib/libsimmpi_start.a",--no-whole-archive -lsimmpi \
  -o "$work/no_wrap" || fail "linking without the wrap flags"
"$work/no_wrap" -n 2 --set blas.mode=model --set runtime.fold_threshold=1MiB >/dev/null 2>"$work/err" &&
  fail "a program without the malloc wrappers ran with folding asked"
expect "missing wrap flags named" "linked without simmpi's malloc wrappers.*--wrap=malloc" "$(cat "$work/err")"

# A build that keeps only the library, as a CMake project does that links ${MPI_C_LIBRARIES}
# without ${MPI_C_LINK_FLAGS}: the program is not started by simmpi, and its first MPI call
# says so and how to link it, instead of breaking an internal invariant.
gcc "$work/big_buffers.c" -I"$prefix/include/simmpi" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" \
  -lsimmpi -o "$work/library_only" || fail "linking with the library only"
"$work/library_only" >/dev/null 2>"$work/err" && fail "a program without the start hook succeeded"
expect "library-only link explained" \
  "MPI_Init was called outside a simulation: .*not started by simmpi.*-showme:link" \
  "$(cat "$work/err")"

# CMake: find_package(MPI) with the wrappers as MPI compilers; ctest runs through simmpirun.
mkdir "$work/find_mpi"
cp "$here/CMakeLists.find_mpi.txt" "$work/find_mpi/CMakeLists.txt"
cp "$work"/big_buffers.c "$work"/hello.cpp "$work"/hello.f90 "$work/find_mpi/"
if cmake -S "$work/find_mpi" -B "$work/find_mpi/build" -DMPI_C_COMPILER=simmpicc \
     -DMPI_CXX_COMPILER=simmpicxx -DMPI_Fortran_COMPILER=simmpif90 \
     -DMPIEXEC_EXECUTABLE="$prefix/bin/simmpirun" >"$work/log" 2>&1 &&
   cmake --build "$work/find_mpi/build" >>"$work/log" 2>&1; then
  folds "find_package(MPI)" "$work/find_mpi/build/big_buffers"
  (cd "$work/find_mpi/build" && ctest --output-on-failure >>"$work/log" 2>&1) ||
    fail "find_package(MPI) project's ctest through simmpirun: $(tail -20 "$work/log")"
else
  fail "find_package(MPI) project: $(tail -20 "$work/log")"
fi

# CMake: find_package(simmpi) and simmpi::simmpi.
mkdir "$work/find_simmpi"
cp "$here/CMakeLists.find_simmpi.txt" "$work/find_simmpi/CMakeLists.txt"
cp "$work/big_buffers.c" "$work/find_simmpi/"
if cmake -S "$work/find_simmpi" -B "$work/find_simmpi/build" -DCMAKE_PREFIX_PATH="$prefix" \
     >"$work/log" 2>&1 && cmake --build "$work/find_simmpi/build" >>"$work/log" 2>&1; then
  folds "find_package(simmpi)" "$work/find_simmpi/build/big_buffers"
else
  fail "find_package(simmpi) project: $(tail -20 "$work/log")"
fi

# pkg-config.
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs simmpi) ||
  fail "pkg-config --cflags --libs simmpi"
# shellcheck disable=SC2086  # the flags are words
gcc "$work/big_buffers.c" $flags -o "$work/pkg_config" && folds "pkg-config" "$work/pkg_config" ||
  fail "pkg-config build: gcc big_buffers.c $flags"

# autoconf: ./configure CC=simmpicc finds mpi.h and MPI_Init and runs a program.
if command -v autoconf >/dev/null; then
  mkdir "$work/autoconf"
  cp "$here/configure.ac" "$here/Makefile.in" "$work/big_buffers.c" "$work/autoconf/"
  if (cd "$work/autoconf" && autoconf && ./configure CC=simmpicc && make) >"$work/log" 2>&1; then
    folds "./configure CC=simmpicc" "$work/autoconf/big_buffers"
  else
    fail "autoconf project: $(tail -20 "$work/log")"
  fi
else
  fail "autoconf is not installed (tools/setup-deps.sh installs it)"
fi

[ $failures -eq 0 ] && echo "build_systems_test: OK"
exit $failures
