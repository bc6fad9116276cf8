! SPDX-License-Identifier: Apache-2.0
! The Fortran profiling interface: pmpi_tool.f, linked into this program, defines MPI_SEND,
! MPI_ALLREDUCE and MPI_WTIME and calls the library's PMPI_SEND, PMPI_ALLREDUCE and PMPI_WTIME.
! The program (use mpi) sends around a ring and reduces; the tool must have seen each call and
! the results must be what the library computes.
program pmpi
  use mpi
  implicit none
  integer :: rank, n, ierr, got, total
  double precision :: t
  integer :: nsend, nreduce, nwtime, sent
  common /pmpitool/ nsend, nreduce, nwtime, sent

  nsend = 0
  nreduce = 0
  nwtime = 0
  sent = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  if (n > 1) then
    if (rank == 0) then
      call MPI_Send(rank, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, ierr)
      call MPI_Recv(got, 1, MPI_INTEGER, n - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Recv(got, 1, MPI_INTEGER, rank - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_Send(rank, 1, MPI_INTEGER, mod(rank + 1, n), 5, MPI_COMM_WORLD, ierr)
    end if
    call checki(got, mod(rank + n - 1, n), 'the ring through PMPI_SEND')
    call checki(nsend, 1, 'the tool saw one MPI_SEND')
    call checki(sent, 1, 'the tool saw its count')
  end if
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call checki(total, n * (n - 1) / 2, 'the sum through PMPI_ALLREDUCE')
  call checki(nreduce, 1, 'the tool saw one MPI_ALLREDUCE')
  t = MPI_Wtime()
  call check(t >= 0.0d0, 'MPI_WTIME through PMPI_WTIME')
  call checki(nwtime, 1, 'the tool saw one MPI_WTIME')
  call finish('pmpi_f90')
end program pmpi

include 'check.inc'
