! SPDX-License-Identifier: Apache-2.0
! use mpi_f08 (MPI-4.1 19.1.2): handle types with MPI_VAL and == / /=, TYPE(MPI_Status) with its
! public fields, optional IERROR, TYPE(*), DIMENSION(..) buffers (scalars, arrays of any rank,
! MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE), and the calls programs use most: environment and
! communicator queries, blocking and nonblocking point-to-point with wait/test, collectives,
! reductions with a predefined and a user-defined (TYPE(C_PTR) arguments) operation, derived
! datatypes, MPI_WTIME and MPI_SIZEOF; MPI_Waitany, a nonblocking collective, a Cartesian
! communicator, MPI_Buffer_detach's TYPE(C_PTR), an f08 error handler procedure; the
! large-count forms under the same names. A non-contiguous array section is refused with
! MPI_ERR_BUFFER, never sent wrong.
module f08_ops
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use mpi_f08
  implicit none
  integer :: errors_seen = 0
contains
  ! A communicator error handler (MPI_Comm_errhandler_function).
  subroutine count_errors(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    integer :: cls
    call MPI_Error_class(error_code, cls)
    if (cls == MPI_ERR_RANK .and. comm == MPI_COMM_WORLD) errors_seen = errors_seen + 1
  end subroutine count_errors

  ! inoutvec(i) = invec(i) + inoutvec(i), on INTEGERs.
  subroutine add_up(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a + b
  end subroutine add_up
end module f08_ops

program f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_intptr_t
  use mpi_f08
  use f08_ops
  implicit none
  integer :: rank, n, ierr, i, left, right, total, count, s, version, subversion, srank
  integer :: ivals(4), got(4), grid(3, 4), sums(2)
  real(8) :: x(5), y(5), t0
  logical :: flag
  type(MPI_Comm) :: dup, half
  type(MPI_Request) :: reqs(2)
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Datatype) :: row
  type(MPI_Op) :: op
  character(len=MPI_MAX_OBJECT_NAME) :: name
  integer :: namelen
  integer, target :: bsend_buffer(64)
  type(c_ptr) :: detached
  type(MPI_Errhandler) :: handler
  integer(kind=MPI_COUNT_KIND) :: bigcount
  ! The callbacks, checked against mpi_f08's abstract interfaces.
  procedure(MPI_User_function), pointer :: user_fn => add_up
  procedure(MPI_Comm_errhandler_function), pointer :: on_error => count_errors

  call MPI_Init()
  call MPI_Initialized(flag)
  call check(flag, 'MPI_Initialized')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call checki(ierr, MPI_SUCCESS, 'IERROR given')
  call MPI_Get_version(version, subversion)
  call checki(version, MPI_VERSION, 'MPI_Get_version')
  call check(MPI_COMM_WORLD /= MPI_COMM_NULL, 'MPI_COMM_WORLD /= MPI_COMM_NULL')
  call check(MPI_COMM_WORLD%MPI_VAL /= MPI_COMM_SELF%MPI_VAL, 'MPI_VAL of two communicators')
  right = mod(rank + 1, n)
  left = mod(rank + n - 1, n)
  t0 = MPI_Wtime()

  ! Blocking ring with a status.
  ivals = [(100 * rank + i, i = 1, 4)]
  call MPI_Sendrecv(ivals, 4, MPI_INTEGER, right, 3, got, 4, MPI_INTEGER, left, 3, &
                    MPI_COMM_WORLD, status)
  call checki(got(4), 100 * left + 4, 'MPI_Sendrecv')
  call checki(status%MPI_SOURCE, left, 'status%MPI_SOURCE')
  call checki(status%MPI_TAG, 3, 'status%MPI_TAG')
  call MPI_Get_count(status, MPI_INTEGER, count)
  call checki(count, 4, 'MPI_Get_count')

  ! Nonblocking, scalars and arrays, MPI_Waitall with statuses.
  call MPI_Irecv(total, 1, MPI_INTEGER, left, 4, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 4, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, statuses)
  call checki(total, left, 'MPI_Irecv of a scalar')
  call checki(statuses(1)%MPI_SOURCE, left, 'array_of_statuses(1)%MPI_SOURCE')
  call check(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, 'requests freed')
  call MPI_Irecv(x, 5, MPI_DOUBLE_PRECISION, left, 5, MPI_COMM_WORLD, reqs(1))
  y = [(rank + 0.5d0 * i, i = 1, 5)]
  call MPI_Send(y, 5, MPI_DOUBLE_PRECISION, right, 5, MPI_COMM_WORLD)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, MPI_STATUS_IGNORE)
  end do
  call checkd(x(5), left + 2.5d0, 'MPI_Irecv + MPI_Test of an array')

  ! Collectives.
  total = -1
  if (rank == 0) total = 42
  call MPI_Bcast(total, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call checki(total, 42, 'MPI_Bcast')
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call checki(total, n * (n - 1) / 2, 'MPI_Allreduce')
  sums = [rank, 1]
  call MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call checki(sums(2), n, 'MPI_Allreduce with MPI_IN_PLACE')
  x = rank
  call MPI_Reduce(x, y, 5, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD)
  if (rank == 0) call checkd(y(3), dble(n - 1), 'MPI_Reduce MPI_MAX')
  call MPI_Allgather(rank, 1, MPI_INTEGER, grid, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call checki(grid(mod(n - 1, 3) + 1, (n - 1) / 3 + 1), n - 1, 'MPI_Allgather into a 2-D array')
  call MPI_Barrier(MPI_COMM_WORLD)

  ! A user-defined operation: C calls the f08 procedure with TYPE(C_PTR) buffers.
  call MPI_Op_create(user_fn, .true., op)
  call MPI_Allreduce(10 * (rank + 1), total, 1, MPI_INTEGER, op, MPI_COMM_WORLD)
  call checki(total, 5 * n * (n + 1), 'a user operation')
  call MPI_Op_free(op)
  call check(op == MPI_OP_NULL, 'MPI_Op_free')

  ! Derived datatypes: row 2 of a 3x4 array.
  grid = reshape([(i, i = 1, 12)], [3, 4]) + 100 * rank
  call MPI_Type_vector(4, 1, 3, MPI_INTEGER, row)
  call MPI_Type_commit(row)
  call MPI_Type_size(row, s)
  call checki(s, 16, 'MPI_Type_size of the row')
  call MPI_Sendrecv(grid(2, 1), 1, row, right, 6, ivals, 4, MPI_INTEGER, left, 6, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call checki(ivals(3), 100 * left + 8, 'a row through MPI_Type_vector')
  call MPI_Type_free(row)

  ! Communicators, names.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_name(dup, 'the duplicate')
  call MPI_Comm_get_name(dup, name, namelen)
  call check(name == 'the duplicate', 'MPI_Comm_get_name')
  call checki(namelen, 13, 'its length')
  call MPI_Comm_split(dup, mod(rank, 2), -rank, half)
  call MPI_Comm_rank(half, srank)
  call checki(srank, (n - 1 - rank) / 2, 'MPI_Comm_split with key -rank')
  call MPI_Comm_free(half)
  call MPI_Comm_free(dup)
  call check(dup == MPI_COMM_NULL, 'MPI_Comm_free')

  ! More: MPI_Waitany (1-based index), MPI_Iallreduce, a Cartesian ring (LOGICAL periods), a
  ! buffered send whose buffer MPI_Buffer_detach returns as a TYPE(C_PTR), an error handler
  ! procedure.
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitany(2, reqs, i, status)
  call check(i == 1 .or. i == 2, 'MPI_Waitany''s index is 1-based')
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call checki(got(1), left, 'MPI_Waitany + MPI_Waitall')
  call MPI_Iallreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call checki(total, n * (n + 1) / 2, 'MPI_Iallreduce')
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [n], [.true.], .false., half)
  call MPI_Cart_shift(half, 0, 1, i, s)
  call checki(s, right, 'MPI_Cart_shift on a periodic ring')
  call MPI_Comm_free(half)
  call MPI_Buffer_attach(bsend_buffer, 4 * size(bsend_buffer))
  call MPI_Bsend(rank, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD)
  call MPI_Recv(total, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call checki(total, rank, 'MPI_Bsend to itself')
  call MPI_Buffer_detach(detached, s)
  ! Compared as integers: at -O2, gfortran 12 gives c_associated(detached, c_loc(bsend_buffer))
  ! .false. here although the two addresses print the same.
  call check(transfer(detached, 0_c_intptr_t) == transfer(c_loc(bsend_buffer), 0_c_intptr_t), &
             'MPI_Buffer_detach''s address')
  call checki(s, 4 * size(bsend_buffer), 'MPI_Buffer_detach''s size')
  call MPI_Comm_create_errhandler(on_error, handler)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler)
  call MPI_Send(rank, 1, MPI_INTEGER, n + 5, 0, MPI_COMM_WORLD, ierr)
  call checki(errors_seen, 1, 'the f08 error handler ran')
  call MPI_Errhandler_free(handler)

  ! Large counts (MPI-4.1): INTEGER(KIND=MPI_COUNT_KIND) counts select the _c forms.
  ivals = [(10 * rank + i, i = 1, 4)]
  call MPI_Sendrecv(ivals, 4_MPI_COUNT_KIND, MPI_INTEGER, right, 10, got, 4_MPI_COUNT_KIND, &
                    MPI_INTEGER, left, 10, MPI_COMM_WORLD, status)
  call checki(got(2), 10 * left + 2, 'MPI_Sendrecv with MPI_COUNT_KIND counts')
  call MPI_Get_count(status, MPI_INTEGER, bigcount)
  call check(bigcount == 4, 'MPI_Get_count into an MPI_COUNT_KIND count')
  call MPI_Type_size(MPI_DOUBLE_PRECISION, bigcount)
  call check(bigcount == 8, 'MPI_Type_size into an MPI_COUNT_KIND size')
  call MPI_Allreduce(rank, total, 1_MPI_COUNT_KIND, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call checki(total, n * (n - 1) / 2, 'MPI_Allreduce with an MPI_COUNT_KIND count')
  call MPI_Type_contiguous(3_MPI_COUNT_KIND, MPI_INTEGER, row)
  call MPI_Type_commit(row)
  call MPI_Type_size(row, s)
  call checki(s, 12, 'MPI_Type_contiguous with an MPI_COUNT_KIND count')
  call MPI_Type_free(row)

  ! MPI_SIZEOF; a strided section is refused.
  call MPI_Sizeof(x, s)
  call checki(s, 8, 'MPI_Sizeof of REAL(8)')
  call MPI_Sizeof(rank, s)
  call checki(s, 4, 'MPI_Sizeof of INTEGER')
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Send(ivals(1:4:2), 2, MPI_INTEGER, rank, 7, MPI_COMM_WORLD, ierr)
  call checki(ierr, MPI_ERR_BUFFER, 'a strided section is MPI_ERR_BUFFER')
  call MPI_Send(ivals(2:3), 2, MPI_INTEGER, rank, 7, MPI_COMM_WORLD, ierr)
  call MPI_Recv(got, 4, MPI_INTEGER, rank, 7, MPI_COMM_WORLD, status, ierr)
  call checki(ierr, MPI_SUCCESS, 'a contiguous section is sent')
  call MPI_Get_count(status, MPI_INTEGER, count)
  call checki(count, 2, 'its count')
  call check(MPI_Wtime() >= t0, 'MPI_Wtime')
  call finish('f08')
end program f08

include 'check.inc'
