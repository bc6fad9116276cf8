! SPDX-License-Identifier: Apache-2.0
! One-sided communication from Fortran (use mpi): a window on an array with put, get and
! accumulate between fences, MPI_WIN_ALLOCATE's base address, a counter taken with
! MPI_FETCH_AND_OP under MPI_WIN_LOCK_ALL, exclusive locks, window attributes (predefined ones
! read as their values, a keyval with MPI_WIN_NULL_COPY_FN and a Fortran delete callback), names
! and an error returned under MPI_ERRORS_RETURN.
module rma_counts
  implicit none
  integer :: win_deletes = 0
end module rma_counts

subroutine count_win_delete(win, keyval, value, extra_state, ierror)
  use mpi
  use rma_counts
  implicit none
  integer :: win, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
  win_deletes = win_deletes + int(value)
  ierror = MPI_SUCCESS
end subroutine count_win_delete

program rma_f90
  use mpi
  use rma_counts
  use iso_c_binding
  implicit none
  external :: count_win_delete
  integer :: rank, nranks, ierr, win, win2, right, left, keyval, flag_i, len, cls
  integer(kind=MPI_ADDRESS_KIND) :: disp, sz, value, base_addr
  double precision :: a(8), src(2), got(2)
  integer(kind=8) :: one, ticket, total
  integer(kind=8), pointer :: counter(:)
  type(c_ptr) :: cbase
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)

  ! Fence epochs on an array: put two values to the right, get them back, accumulate into rank 0.
  a = -1d0
  sz = 8 * 8
  call MPI_WIN_CREATE(a, sz, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  src = (/ rank + 0.5d0, rank + 0.25d0 /)
  disp = 2
  call MPI_PUT(src, 2, MPI_DOUBLE_PRECISION, right, disp, 2, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call CHECKD(a(3), left + 0.5d0, 'put a(3)')
  call CHECKD(a(4), left + 0.25d0, 'put a(4)')
  call MPI_GET(got, 2, MPI_DOUBLE_PRECISION, right, disp, 2, MPI_DOUBLE_PRECISION, win, ierr)
  disp = 7
  call MPI_ACCUMULATE(src, 1, MPI_DOUBLE_PRECISION, 0, disp, 1, MPI_DOUBLE_PRECISION, MPI_MAX, &
                      win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call CHECKD(got(1), rank + 0.5d0, 'get')
  if (rank == 0) call CHECKD(a(8), nranks - 0.5d0, 'accumulate max')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, value, flag, ierr)
  call CHECK(flag .and. value == 64, 'MPI_WIN_SIZE')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, value, flag, ierr)
  call CHECK(flag .and. value == 8, 'MPI_WIN_DISP_UNIT')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_CREATE_FLAVOR, value, flag, ierr)
  call CHECK(flag .and. value == MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_CREATE_FLAVOR')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, base_addr, flag, ierr)
  call MPI_GET_ADDRESS(a, disp, ierr)
  call CHECK(flag .and. base_addr == disp, 'MPI_WIN_BASE')
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, count_win_delete, keyval, 0_MPI_ADDRESS_KIND, &
                             ierr)
  value = 5
  call MPI_WIN_SET_ATTR(win, keyval, value, ierr)
  call MPI_WIN_GET_ATTR(win, keyval, value, flag, ierr)
  call CHECK(flag .and. value == 5, 'user attribute')
  call MPI_WIN_SET_NAME(win, 'fortran window', ierr)
  call MPI_WIN_GET_NAME(win, name, len, ierr)
  call CHECK(name(1:len) == 'fortran window', 'name')
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  disp = 100
  call MPI_PUT(src, 1, MPI_DOUBLE_PRECISION, right, disp, 1, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_ERROR_CLASS(ierr, cls, flag_i)
  call CHECKI(cls, MPI_ERR_RMA_RANGE, 'put past the end of the window')
  call MPI_WIN_FENCE(MPI_MODE_NOSUCCEED, win, ierr)
  call MPI_WIN_FREE(win, ierr)
  call CHECKI(win_deletes, 5, 'delete callback')

  ! A counter on rank 0 in MPI_WIN_ALLOCATE's memory.
  sz = 8
  call MPI_WIN_ALLOCATE(sz, 8, MPI_INFO_NULL, MPI_COMM_WORLD, cbase, win2, ierr)
  call c_f_pointer(cbase, counter, (/ 1 /))
  counter(1) = 0
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  one = 1
  disp = 0
  call MPI_WIN_LOCK_ALL(0, win2, ierr)
  call MPI_FETCH_AND_OP(one, ticket, MPI_INTEGER8, 0, disp, MPI_SUM, win2, ierr)
  call MPI_WIN_FLUSH(0, win2, ierr)
  call MPI_WIN_UNLOCK_ALL(win2, ierr)
  call CHECK(ticket >= 0 .and. ticket < nranks, 'ticket')
  call MPI_WIN_LOCK(MPI_LOCK_EXCLUSIVE, 0, 0, win2, ierr)
  call MPI_GET(total, 1, MPI_INTEGER8, 0, disp, 1, MPI_INTEGER8, win2, ierr)
  call MPI_WIN_UNLOCK(0, win2, ierr)
  call CHECK(total >= ticket + 1 .and. total <= nranks, 'counter read under a lock')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) call CHECK(counter(1) == nranks, 'counter')
  call MPI_WIN_FREE(win2, ierr)
  call MPI_WIN_FREE_KEYVAL(keyval, ierr)
  call FINISH('rma_f90')
end program rma_f90

include 'check.inc'
