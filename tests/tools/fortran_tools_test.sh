#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Checks simmpif90 and simmpif77 as a user drives them: separate compilation of a module and a
# program that uses it, -show with and without -c, SIMMPI_FC, a real MPI's Fortran libraries
# dropped, fixed-form and free-form sources including mpif.h, and the -fsecond-underscore
# convention (g77's) resolving too.
#   fortran_tools_test.sh BUILD_DIR
set -u
bin=$1/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() {  # expect "what" "regex" "text"
  grep -Eq -- "$2" <<<"$3" || fail "$1: output does not match /$2/: $3"
}
cd "$work" || exit 1

cat >counter.f90 <<'F90'
module counter
  implicit none
  integer :: total = 0
end module counter
F90
cat >main.f90 <<'F90'
program main
  use mpi
  use counter
  implicit none
  integer :: rank, n, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0)', 'total=', total
  call MPI_Finalize(ierr)
end program main
F90
"$bin/simmpif90" -O1 -c counter.f90 -o counter.o || fail "simmpif90 -c module"
"$bin/simmpif90" -c main.f90 -o main.o || fail "simmpif90 -c program"
"$bin/simmpif90" main.o counter.o -o two.sim -lmpifort -lmpi_usempif08 || fail "simmpif90 link"
out=$(./two.sim -n 5 --quiet) || fail "module program exited $?"
expect "separately compiled program" "^total=10$" "$out"

# Fixed form with mpif.h, compiled and linked in one step; also with g77's second underscore.
cat >f77.f <<'F77'
      PROGRAM F77
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, N, IERR, ISUM
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, N, IERR)
      CALL MPI_REDUCE(RANK + 1, ISUM, 1, MPI_INTEGER, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) PRINT '(A,I0,A,F4.1)', 'sum=', ISUM, ' tick>0=',
     &    MIN(1.0, REAL(MPI_WTICK() * 1.0D12))
      CALL MPI_FINALIZE(IERR)
      END
F77
"$bin/simmpif77" f77.f -o f77.sim -lfmpich || fail "simmpif77"
out=$(./f77.sim -n 4 --quiet)
expect "simmpif77 program" "^sum=10 tick>0= 1.0$" "$out"
"$bin/simmpif77" -fsecond-underscore f77.f -o f77u.sim || fail "simmpif77 -fsecond-underscore"
nm f77u.sim | grep -q " U mpi_reduce__" || fail "-fsecond-underscore: mpi_reduce__ not referenced"
out=$(./f77u.sim -n 4 --quiet)
expect "-fsecond-underscore program" "^sum=10" "$out"
# mpif.h is valid free form too.
printf "program p\n  implicit none\n  include 'mpif.h'\n  integer :: ierr\n  call MPI_INIT(ierr)\n  call MPI_FINALIZE(ierr)\nend program p\n" >free.f90
"$bin/simmpif90" free.f90 -o free.sim || fail "mpif.h in free form"

show=$("$bin/simmpif90" -show main.f90 -o app.sim)
expect "simmpif90 -show" "^gfortran .*-I[^ ]*include .*-fallow-argument-mismatch .*main.f90 -o app.sim .*-lsimmpi" "$show"
show=$("$bin/simmpif90" -show -c main.f90)
grep -q -- "-lsimmpi" <<<"$show" && fail "simmpif90 -show -c should not link: $show"
show=$("$bin/simmpif77" -show f77.f)
expect "simmpif77 -show" "^gfortran .*f77.f" "$show"
show=$(SIMMPI_FC=gfortran-12 "$bin/simmpif90" -show main.f90)
expect "SIMMPI_FC" "^gfortran-12 " "$show"
show=$("$bin/simmpif90" -show main.f90 -lmpifort -lmpi_mpifh)
grep -q -- "-lmpifort\|-lmpi_mpifh" <<<"$show" && fail "a real MPI's Fortran libraries are not dropped: $show"

[ $failures -eq 0 ] && echo "fortran_tools_test: OK"
exit $failures
