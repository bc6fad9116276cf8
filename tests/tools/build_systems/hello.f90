! SPDX-License-Identifier: Apache-2.0
! A Fortran MPI program for the FindMPI project (MPI::MPI_Fortran).
program hello
  use mpi
  implicit none
  integer :: rank, n, total, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call MPI_Reduce(rank, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,i0)', 'fortran sum ', total, ' of ', n
  call MPI_Finalize(ierr)
end program hello
