! SPDX-License-Identifier: Apache-2.0
! Each rank has its own Fortran globals: a COMMON block (with a large array), a module variable
! (initialized and not), and a SAVEd local. Every rank writes its rank into them, yields many
! times (a ring of messages whose payloads land in the COMMON block), and checks they still hold
! its own values.
module rank_state
  implicit none
  integer :: module_counter
  integer :: module_initialized = 42
  double precision :: module_array(1000)
end module rank_state

program privatize
  use mpi
  use rank_state
  implicit none
  integer :: common_rank, common_got
  double precision :: common_big(100000)
  common /shared_names/ common_rank, common_got, common_big
  integer :: rank, nranks, ierr, i, errors, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  errors = 0
  if (module_initialized /= 42 .or. module_counter /= 0 .or. common_rank /= 0) errors = errors + 1
  common_rank = rank
  module_initialized = 1000 + rank
  common_big = rank
  do i = 1, 500
    module_counter = module_counter + rank
    module_array(mod(i, 1000) + 1) = rank * 0.5d0
    if (bump() /= i) errors = errors + 1
    call MPI_Sendrecv(common_rank, 1, MPI_INTEGER, mod(rank + 1, nranks), 0, &
                      common_got, 1, MPI_INTEGER, mod(rank + nranks - 1, nranks), 0, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (common_got /= mod(rank + nranks - 1, nranks)) errors = errors + 1
    if (common_rank /= rank) errors = errors + 1
    if (module_counter /= rank * i) errors = errors + 1
    if (module_initialized /= 1000 + rank) errors = errors + 1
    if (module_array(mod(i, 1000) + 1) /= rank * 0.5d0) errors = errors + 1
    if (common_big(1 + mod(i * 97, 100000)) /= rank) errors = errors + 1
  end do
  call MPI_Allreduce(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a,i0,a)', 'privatize_f90: OK (', nranks, ' ranks, ', &
                                       total, ' errors)'
  if (rank == 0 .and. total /= 0) print '(a,i0,a,i0,a)', 'privatize_f90: FAILED (', nranks, &
                                       ' ranks, ', total, ' errors)'
  call MPI_Finalize(ierr)

contains

  integer function bump()
    integer, save :: calls = 0
    calls = calls + 1
    bump = calls
  end function bump
end program privatize
