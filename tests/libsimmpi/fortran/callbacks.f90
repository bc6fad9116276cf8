! SPDX-License-Identifier: Apache-2.0
! Fortran procedures called back by MPI: a non-commutative user reduction (MPI_Op_create) in
! every reducing collective, a commutative one, attribute copy and delete callbacks (MPI-2 and
! MPI-1 keyvals, the predefined MPI_COMM_DUP_FN and MPI_COMM_NULL_COPY_FN), predefined attributes,
! and error handlers (a Fortran handler, MPI_ERRORS_RETURN).
module callback_counts
  implicit none
  integer :: deletes = 0, last_deleted = -1, handler_calls = 0, handler_code = 0
end module callback_counts

! Composition of affine maps x -> a*x + b stored as (a, b): u o v = (ua*va, ua*vb + ub). Not
! commutative; MPI applies it as invec o inoutvec, invec from the lower ranks.
subroutine compose(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype, invec(2, len), inoutvec(2, len), i
  do i = 1, len
    inoutvec(2, i) = invec(1, i) * inoutvec(2, i) + invec(2, i)
    inoutvec(1, i) = invec(1, i) * inoutvec(1, i)
  end do
end subroutine compose

subroutine absmax(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype, invec(len), inoutvec(len), i
  do i = 1, len
    inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
  end do
end subroutine absmax

! Copies double the value, for extra_state 7 only.
subroutine copy_twice(oldcomm, keyval, extra_state, value_in, value_out, flag, ierror)
  use mpi
  implicit none
  integer :: oldcomm, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, value_in, value_out
  logical :: flag
  flag = extra_state == 7
  value_out = 2 * value_in
  ierror = MPI_SUCCESS
end subroutine copy_twice

subroutine count_delete(comm, keyval, value, extra_state, ierror)
  use mpi
  use callback_counts
  implicit none
  integer :: comm, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
  deletes = deletes + 1
  last_deleted = int(value)
  ierror = MPI_SUCCESS
end subroutine count_delete

subroutine old_delete(comm, keyval, value, extra_state, ierror)
  use callback_counts
  implicit none
  integer :: comm, keyval, value, extra_state, ierror
  deletes = deletes + 1
  last_deleted = value + extra_state
  ierror = 0
end subroutine old_delete

subroutine on_error(comm, code)
  use callback_counts
  implicit none
  integer :: comm, code
  handler_calls = handler_calls + 1
  handler_code = code
end subroutine on_error

program callbacks
  use mpi
  implicit none
  integer :: rank, n, ierr

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call user_ops()
  call attributes()
  call error_handlers()
  call finish('callbacks_f90')

contains

  subroutine user_ops()
    external :: compose, absmax
    integer :: op, maxop, pair(2), res(2), blk(2 * n), i, ierr
    logical :: commutes
    ! Rank r holds (2, r): x0 o ... o x(n-1) = (2**n, sum of r * 2**r).
    call MPI_Op_create(compose, .false., op, ierr)
    call MPI_Op_commutative(op, commutes, ierr)
    call check(.not. commutes, 'MPI_Op_commutative of a non-commutative op')
    pair = [2, rank]
    call MPI_Allreduce(pair, res, 1, MPI_2INTEGER, op, MPI_COMM_WORLD, ierr)
    call checki(res(1), 2**n, 'user op allreduce, a')
    call checki(res(2), sum([(i * 2**i, i = 0, n - 1)]), 'user op allreduce, b')
    res = 0
    call MPI_Reduce(pair, res, 1, MPI_2INTEGER, op, n - 1, MPI_COMM_WORLD, ierr)
    if (rank == n - 1) call checki(res(2), sum([(i * 2**i, i = 0, n - 1)]), 'user op reduce')
    call MPI_Scan(pair, res, 1, MPI_2INTEGER, op, MPI_COMM_WORLD, ierr)
    call checki(res(1), 2**(rank + 1), 'user op scan, a')
    call checki(res(2), sum([(i * 2**i, i = 0, rank)]), 'user op scan, b')
    res = 0
    call MPI_Exscan(pair, res, 1, MPI_2INTEGER, op, MPI_COMM_WORLD, ierr)
    if (rank > 0) call checki(res(2), sum([(i * 2**i, i = 0, rank - 1)]), 'user op exscan')
    blk = [(merge(2, rank, mod(i, 2) == 1), i = 1, 2 * n)]
    call MPI_Reduce_scatter_block(blk, res, 1, MPI_2INTEGER, op, MPI_COMM_WORLD, ierr)
    call checki(res(2), sum([(i * 2**i, i = 0, n - 1)]), 'user op reduce_scatter_block')
    call MPI_Op_free(op, ierr)
    call checki(op, MPI_OP_NULL, 'MPI_Op_free')
    call MPI_Op_create(absmax, .true., maxop, ierr)
    call MPI_Op_commutative(maxop, commutes, ierr)
    call check(commutes, 'MPI_Op_commutative of a commutative op')
    call MPI_Allreduce(-rank, i, 1, MPI_INTEGER, maxop, MPI_COMM_WORLD, ierr)
    call checki(i, n - 1, 'commutative user op')
    call MPI_Op_free(maxop, ierr)
  end subroutine user_ops

  subroutine attributes()
    use callback_counts
    external :: copy_twice, count_delete, old_delete
    integer :: key, dupkey, nullkey, oldkey, dup, ival, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, val
    logical :: flag
    extra = 7
    call MPI_Comm_create_keyval(copy_twice, count_delete, key, extra, ierr)
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, dupkey, extra, ierr)
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, nullkey, extra, ierr)
    call MPI_Comm_set_attr(MPI_COMM_WORLD, key, 21_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_set_attr(MPI_COMM_WORLD, dupkey, 5_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_set_attr(MPI_COMM_WORLD, nullkey, 6_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_get_attr(dup, key, val, flag, ierr)
    call check(flag .and. val == 42, 'the Fortran copy callback doubled the value')
    call MPI_Comm_get_attr(dup, dupkey, val, flag, ierr)
    call check(flag .and. val == 5, 'MPI_COMM_DUP_FN copied the value')
    call MPI_Comm_get_attr(dup, nullkey, val, flag, ierr)
    call check(.not. flag, 'MPI_COMM_NULL_COPY_FN copied nothing')
    call MPI_Comm_free(dup, ierr)
    call checki(deletes, 1, 'the delete callback ran when the duplicate was freed')
    call checki(last_deleted, 42, 'the delete callback saw the duplicate''s value')
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
    call checki(deletes, 2, 'the delete callback ran for MPI_Comm_delete_attr')
    call checki(last_deleted, 21, 'the delete callback saw the original value')
    call MPI_Comm_free_keyval(key, ierr)
    call checki(key, MPI_KEYVAL_INVALID, 'MPI_Comm_free_keyval')
    ! MPI-1: INTEGER values and extra state.
    call MPI_Keyval_create(MPI_DUP_FN, old_delete, oldkey, 100, ierr)
    call MPI_Attr_put(MPI_COMM_WORLD, oldkey, 3, ierr)
    call MPI_Attr_get(MPI_COMM_WORLD, oldkey, ival, flag, ierr)
    call check(flag .and. ival == 3, 'MPI_Attr_get')
    call MPI_Attr_delete(MPI_COMM_WORLD, oldkey, ierr)
    call checki(last_deleted, 103, 'MPI-1 delete callback with its extra state')
    call MPI_Keyval_free(oldkey, ierr)
    ! Predefined attributes read as their values.
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
    call check(flag .and. val == huge(0), 'MPI_TAG_UB')
    call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
    call check(flag .and. ival == huge(0), 'MPI_TAG_UB through MPI_Attr_get')
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, val, flag, ierr)
    call check(flag .and. val == 1, 'MPI_WTIME_IS_GLOBAL')
  end subroutine attributes

  subroutine error_handlers()
    use callback_counts
    external :: on_error
    integer :: handler, comm, cls, len, ierr
    character(len=MPI_MAX_ERROR_STRING) :: text
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_create_errhandler(on_error, handler, ierr)
    call MPI_Comm_set_errhandler(comm, handler, ierr)
    call MPI_Send(rank, 1, MPI_INTEGER, n + 5, 0, comm, ierr)
    call checki(handler_calls, 1, 'the Fortran error handler ran')
    call checki(handler_code, MPI_ERR_RANK, 'the handler saw the error class')
    call checki(ierr, MPI_ERR_RANK, 'ierror after the handler returned')
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    call MPI_Send(rank, 1, MPI_INTEGER, rank, -5, comm, ierr)
    call MPI_Error_class(ierr, cls, ierr)
    call checki(cls, MPI_ERR_TAG, 'MPI_ERRORS_RETURN: a negative tag')
    call checki(handler_calls, 1, 'no handler call under MPI_ERRORS_RETURN')
    call MPI_Error_string(cls, text, len, ierr)
    call check(len > 0 .and. len < MPI_MAX_ERROR_STRING, 'MPI_Error_string length')
    call MPI_Errhandler_free(handler, ierr)
    call checki(handler, MPI_ERRHANDLER_NULL, 'MPI_Errhandler_free')
    call MPI_Comm_free(comm, ierr)
  end subroutine error_handlers
end program callbacks

include 'check.inc'
