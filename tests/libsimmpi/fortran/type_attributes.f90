! SPDX-License-Identifier: Apache-2.0
! Attributes on datatypes and the Fortran 90 parameterized types from Fortran (use mpi): a keyval
! with Fortran copy and delete callbacks and one with MPI_TYPE_DUP_FN, values per rank, copies by
! MPI_TYPE_DUP, deletes by MPI_TYPE_FREE; MPI_TYPE_CREATE_F90_REAL/INTEGER for gfortran's kinds,
! used in a reduction.
module type_deletes
  implicit none
  integer :: deletes = 0, last_deleted = -1
end module type_deletes

! Copies the value plus one.
subroutine copy_plus_one(oldtype, keyval, extra_state, value_in, value_out, flag, ierror)
  use mpi
  implicit none
  integer :: oldtype, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, value_in, value_out
  logical :: flag
  value_out = value_in + 1
  flag = .true.
  ierror = MPI_SUCCESS
end subroutine copy_plus_one

subroutine count_delete(datatype, keyval, value, extra_state, ierror)
  use mpi
  use type_deletes
  implicit none
  integer :: datatype, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
  deletes = deletes + 1
  last_deleted = int(value)
  ierror = MPI_SUCCESS
end subroutine count_delete

program type_attributes
  use mpi
  use type_deletes
  implicit none
  external :: copy_plus_one, count_delete
  integer :: rank, n, ierr, key, dupkey, t, dup, freal, fint, size
  integer(kind=MPI_ADDRESS_KIND) :: extra, value
  logical :: flag
  double precision :: x, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  extra = 0
  call MPI_Type_create_keyval(copy_plus_one, count_delete, key, extra, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Type_create_keyval')
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, dupkey, extra, ierr)
  call MPI_Type_contiguous(2, MPI_INTEGER, t, ierr)
  value = 100 * rank + 1
  call MPI_Type_set_attr(t, key, value, ierr)
  value = 100 * rank + 5
  call MPI_Type_set_attr(t, dupkey, value, ierr)
  value = -1
  call MPI_Type_get_attr(t, key, value, flag, ierr)
  call check(flag, 'MPI_Type_get_attr finds the value')
  call checki(int(value), 100 * rank + 1, 'MPI_Type_get_attr value')
  call MPI_Type_dup(t, dup, ierr)
  call MPI_Type_get_attr(dup, key, value, flag, ierr)
  call checki(int(value), 100 * rank + 2, 'the Fortran copy callback on MPI_Type_dup')
  call MPI_Type_get_attr(dup, dupkey, value, flag, ierr)
  call checki(int(value), 100 * rank + 5, 'MPI_TYPE_DUP_FN on MPI_Type_dup')
  call MPI_Type_free(dup, ierr)
  call checki(deletes, 1, 'MPI_Type_free of the duplicate called the delete callback')
  call checki(last_deleted, 100 * rank + 2, 'the duplicate''s value deleted')
  call MPI_Type_delete_attr(t, key, ierr)
  call checki(last_deleted, 100 * rank + 1, 'MPI_Type_delete_attr')
  call MPI_Type_get_attr(t, key, value, flag, ierr)
  call check(.not. flag, 'no value after MPI_Type_delete_attr')
  call MPI_Type_free(t, ierr)
  call MPI_Type_free_keyval(key, ierr)
  call MPI_Type_free_keyval(dupkey, ierr)

  call MPI_Type_create_f90_real(15, MPI_UNDEFINED, freal, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Type_create_f90_real')
  call MPI_Type_size(freal, size, ierr)
  call checki(size, kind(1d0), 'selected_real_kind(15) is double precision')
  x = rank + 0.5d0
  call MPI_Allreduce(x, total, 1, freal, MPI_SUM, MPI_COMM_WORLD, ierr)
  call checkd(total, dble(n * (n - 1)) / 2 + 0.5d0 * n, 'a sum over the f90 real type')
  call MPI_Type_create_f90_integer(4, fint, ierr)
  call MPI_Type_size(fint, size, ierr)
  call checki(size, selected_int_kind(4), 'selected_int_kind(4) is 2 bytes')
  call finish('type_attributes_f90')
end program type_attributes

include 'check.inc'
