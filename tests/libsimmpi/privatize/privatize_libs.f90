! SPDX-License-Identifier: Apache-2.0
! Fortran state per rank: a module variable and a threadprivate variable of a shared library
! (libpriv_mod.so, built with simmpif90 -shared), and the program's own threadprivate module
! variable. Every rank writes its own values, lets the others run, exchanges payloads from those
! variables and checks its own.
module exe_state
  implicit none
  integer :: exe_private = 4
  !$omp threadprivate(exe_private)
end module exe_state

program privatize_libs
  use mpi
  use priv_mod
  use exe_state
  implicit none
  integer :: rank, nranks, ierr, errors, total, next, prev

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  errors = 0
  if (lib_counter /= 5 .or. lib_plain /= 0 .or. lib_private /= 9 .or. exe_private /= 4) &
    errors = errors + 1
  if (lib_bump() /= 6) errors = errors + 1
  lib_counter = 100 + rank
  lib_private = 200 + rank
  exe_private = 300 + rank
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (lib_counter /= 100 + rank .or. lib_private /= 200 + rank .or. exe_private /= 300 + rank) &
    errors = errors + 1
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  call MPI_Sendrecv(lib_counter, 1, MPI_INTEGER, next, 0, lib_plain, 1, MPI_INTEGER, prev, 0, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Sendrecv(exe_private, 1, MPI_INTEGER, next, 1, lib_private, 1, MPI_INTEGER, prev, 1, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (lib_plain /= 100 + prev .or. lib_private /= 300 + prev) errors = errors + 1
  if (lib_counter /= 100 + rank .or. exe_private /= 300 + rank) errors = errors + 1
  call MPI_Reduce(errors, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == 0) then
      write (*, '(a, i0, a)') 'privatize_libs_f90: OK (', nranks, ' ranks, 0 errors)'
    else
      write (*, '(a, i0, a)') 'privatize_libs_f90: FAILED (', total, ' errors)'
    end if
  end if
  call MPI_Finalize(ierr)
end program privatize_libs
