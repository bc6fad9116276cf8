! SPDX-License-Identifier: Apache-2.0
! Fortran 90 with the mpi module: a token ring, then nonblocking exchanges with both neighbours
! completed by MPI_WAITALL (statuses), MPI_WAITANY and MPI_TESTANY (1-based indices), MPI_WAITSOME,
! synchronous and buffered sends.
program ring
  use mpi
  implicit none
  integer :: rank, nranks, left, right, ierr, token, i, idx, outcount, bsize
  integer :: reqs(4), statuses(MPI_STATUS_SIZE, 4), indices(4), got(4)
  integer :: status(MPI_STATUS_SIZE)
  logical :: flag
  character(len=1), allocatable :: bbuf(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)

  ! The token goes round once; each rank adds its rank: 0 + 1 + ... + (n-1).
  if (rank == 0) then
    token = 0
    call MPI_Send(token, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
    call MPI_Recv(token, 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
    call checki(token, nranks * (nranks - 1) / 2, 'token after one round')
  else
    call MPI_Recv(token, 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
    token = token + rank
    call MPI_Send(token, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
  end if

  ! Both neighbours at once, different tags: statuses say who sent what.
  got = -1
  call MPI_Irecv(got(1), 1, MPI_INTEGER, left, 10, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Irecv(got(2), 1, MPI_INTEGER, right, 20, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 10, MPI_COMM_WORLD, reqs(3), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, left, 20, MPI_COMM_WORLD, reqs(4), ierr)
  call MPI_Waitall(4, reqs, statuses, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Waitall ierror')
  call checki(got(1), left, 'from the left')
  call checki(got(2), right, 'from the right')
  call checki(statuses(MPI_SOURCE, 1), left, 'statuses(MPI_SOURCE, 1)')
  call checki(statuses(MPI_TAG, 1), 10, 'statuses(MPI_TAG, 1)')
  call checki(statuses(MPI_SOURCE, 2), right, 'statuses(MPI_SOURCE, 2)')
  call checki(statuses(MPI_TAG, 2), 20, 'statuses(MPI_TAG, 2)')
  do i = 1, 4
    call checki(reqs(i), MPI_REQUEST_NULL, 'requests freed by MPI_Waitall')
  end do

  ! MPI_Waitany returns 1-based indices, then MPI_UNDEFINED once all are inactive.
  call MPI_Irecv(got(1), 1, MPI_INTEGER, left, 30, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Irecv(got(2), 1, MPI_INTEGER, right, 40, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, left, 40, MPI_COMM_WORLD, ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 30, MPI_COMM_WORLD, ierr)
  indices = 0
  do i = 1, 2
    call MPI_Waitany(2, reqs, indices(i), status, ierr)
    call check(indices(i) == 1 .or. indices(i) == 2, 'MPI_Waitany index in [1,2]')
    if (indices(i) == 1) call checki(status(MPI_TAG), 30, 'tag of request 1')
    if (indices(i) == 2) call checki(status(MPI_TAG), 40, 'tag of request 2')
  end do
  call checki(indices(1) + indices(2), 3, 'MPI_Waitany returns each request once')
  call MPI_Waitany(2, reqs, idx, status, ierr)
  call checki(idx, MPI_UNDEFINED, 'MPI_Waitany with no active request')
  call MPI_Testany(2, reqs, idx, flag, status, ierr)
  call check(flag .and. idx == MPI_UNDEFINED, 'MPI_Testany with no active request')

  ! MPI_Waitsome: indices are 1-based too.
  call MPI_Irecv(got(1), 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Irecv(got(2), 1, MPI_INTEGER, left, 50, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 50, MPI_COMM_WORLD, ierr)
  outcount = 0
  indices = 0
  do while (outcount < 2)
    call MPI_Waitsome(2, reqs, i, indices(outcount + 1:), MPI_STATUSES_IGNORE, ierr)
    outcount = outcount + i
  end do
  call checki(indices(1) + indices(2), 3, 'MPI_Waitsome indices 1 and 2')
  call checki(got(2), left, 'payload through MPI_Waitsome')

  ! Synchronous (nonblocking, so that one rank can send to itself) and buffered sends.
  call MPI_Issend(rank, 1, MPI_INTEGER, right, 60, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Recv(got(1), 1, MPI_INTEGER, left, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call checki(got(1), left, 'MPI_Issend payload')
  bsize = 1000
  allocate(bbuf(bsize))
  call MPI_Buffer_attach(bbuf, bsize, ierr)
  call MPI_Bsend(rank, 1, MPI_INTEGER, right, 70, MPI_COMM_WORLD, ierr)
  call MPI_Recv(got(1), 1, MPI_INTEGER, left, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call checki(got(1), left, 'MPI_Bsend payload')
  call MPI_Buffer_detach(bbuf, bsize, ierr)
  call checki(bsize, 1000, 'MPI_Buffer_detach size')
  call finish('ring_f90')
end program ring

include 'check.inc'
