! SPDX-License-Identifier: Apache-2.0
! MPI-4.1 calls from Fortran (use mpi): persistent collectives (MPI_ALLREDUCE_INIT and
! MPI_BCAST_INIT started three times, reading their buffers at each MPI_START, MPI_ALLTOALL_INIT
! with MPI_STARTALL), freed when inactive; MPI_ISENDRECV and MPI_ISENDRECV_REPLACE around a ring.
! Buffers that a persistent or nonblocking operation uses are VOLATILE (MPI-3.1 17.1.17): MPI_WAIT
! does not name them, so gfortran -O2 may otherwise compare their old values after it (as it does
! with any MPI); its ASYNCHRONOUS attribute does not prevent that, and MPI_F_SYNC_REG is absent.
program mpi4
  use mpi
  implicit none
  integer :: rank, n, left, right, ierr, k, i
  integer, volatile :: val, got
  integer :: reqs(2), status(MPI_STATUS_SIZE)
  double precision, volatile :: x(2), sums(2)
  double precision :: got2(2)
  integer, allocatable, volatile :: sendv(:), recvv(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  right = mod(rank + 1, n)
  left = mod(rank + n - 1, n)

  call MPI_Allreduce_init(x, sums, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, &
                          MPI_INFO_NULL, reqs(1), ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Allreduce_init')
  call MPI_Bcast_init(val, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(2), ierr)
  do k = 1, 3
    x = [dble(k * rank), dble(k)]
    val = -1
    if (rank == 0) val = 10 * k
    call MPI_Start(reqs(1), ierr)
    call MPI_Start(reqs(2), ierr)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    got2 = sums  ! a volatile read after the wait
    call checkd(got2(1), dble(k * n * (n - 1) / 2), 'persistent allreduce, sum of k * rank')
    call checkd(got2(2), dble(k * n), 'persistent allreduce, sum of k')
    call checki(val, 10 * k, 'persistent bcast from rank 0')
    call check(reqs(1) /= MPI_REQUEST_NULL, 'the persistent request stays after MPI_Waitall')
  end do
  call MPI_Request_free(reqs(1), ierr)
  call MPI_Request_free(reqs(2), ierr)
  call checki(reqs(1), MPI_REQUEST_NULL, 'MPI_Request_free')

  allocate(sendv(n), recvv(n))
  sendv = [(100 * rank + i, i = 0, n - 1)]
  call MPI_Alltoall_init(sendv, 1, MPI_INTEGER, recvv, 1, MPI_INTEGER, MPI_COMM_WORLD, &
                         MPI_INFO_NULL, reqs(1), ierr)
  call MPI_Startall(1, reqs, ierr)
  call MPI_Wait(reqs(1), status, ierr)
  do i = 1, n
    call checki(recvv(i), 100 * (i - 1) + rank, 'persistent alltoall')
  end do
  call MPI_Request_free(reqs(1), ierr)

  call MPI_Isendrecv(rank, 1, MPI_INTEGER, right, 7, got, 1, MPI_INTEGER, left, 7, &
                     MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Wait(reqs(1), status, ierr)
  call checki(got, left, 'MPI_Isendrecv from the left')
  call checki(status(MPI_SOURCE), left, 'MPI_Isendrecv status source')
  val = 1000 + rank
  call MPI_Isendrecv_replace(val, 1, MPI_INTEGER, left, 8, right, 8, MPI_COMM_WORLD, reqs(1), &
                             ierr)
  call MPI_Wait(reqs(1), status, ierr)
  call checki(val, 1000 + right, 'MPI_Isendrecv_replace from the right')
  call finish('mpi4_f90')
end program mpi4

include 'check.inc'
