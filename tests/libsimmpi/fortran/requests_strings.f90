! SPDX-License-Identifier: Apache-2.0
! Generalized requests with Fortran callbacks (MPI_GREQUEST_START: INTEGER(KIND=MPI_ADDRESS_KIND)
! extra state, the query's status, the free and cancel calls), MPI_INFO_GET_STRING (whose
! Fortran buflen leaves out C's NUL: the value's length, 0 to ask only for it, truncation) and
! MPI_PACK_EXTERNAL / MPI_UNPACK_EXTERNAL ("external32" is big-endian) and MPI_SIZEOF, from use mpi.
program requests_strings
  use mpi
  implicit none
  integer :: rank, ierr, req, count, info, buflen
  integer :: status(MPI_STATUS_SIZE), values(3), back(3)
  integer(kind=MPI_ADDRESS_KIND) :: extra, position, size
  logical :: flag, cancelled
  character(len=32) :: value
  character(len=1) :: packed(64)
  integer :: frees, cancels
  logical :: cancel_complete
  common /greq/ frees, cancels, cancel_complete
  external :: query_fn, free_fn, cancel_fn

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)

  ! A generalized request completed, then waited for: the query fills the status.
  frees = 0
  cancels = 0
  extra = 1000 + rank
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Grequest_start')
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, status, ierr)
  call checki(req, MPI_REQUEST_NULL, 'the request is freed by MPI_Wait')
  call checki(status(MPI_SOURCE), 1000 + rank, 'the query''s status sees the extra state')
  call checki(status(MPI_TAG), 7, 'MPI_TAG set by the query')
  call MPI_Get_count(status, MPI_INTEGER, count, ierr)
  call checki(count, 5, 'MPI_Status_set_elements in the query')
  call checki(frees, 1, 'free_fn ran once')
  ! One cancelled before it completes.
  extra = 2000 + rank
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call MPI_Cancel(req, ierr)
  call checki(cancels, 1, 'cancel_fn ran')
  call check(.not. cancel_complete, 'cancel_fn is told the request is not complete')
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, status, ierr)
  call checki(status(MPI_SOURCE), 2000 + rank, 'the second request''s status')
  call MPI_Test_cancelled(status, cancelled, ierr)
  call check(.not. cancelled, 'the query did not mark it cancelled')
  call checki(frees, 2, 'free_fn ran for both requests')

  ! MPI_INFO_GET_STRING: Fortran lengths without the NUL.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'color', 'blue-green', ierr)
  buflen = 0
  value = 'untouched'
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Info_get_string')
  call check(flag, 'the key is found')
  call checki(buflen, 10, 'buflen 0 asks for the length')
  call check(value == 'untouched', 'buflen 0 leaves the value alone')
  buflen = len(value)
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierr)
  call check(value == 'blue-green', 'the whole value')
  call checki(buflen, 10, 'the value''s length')
  buflen = 4
  value = ' '
  call MPI_Info_get_string(info, 'color', buflen, value, flag, ierr)
  call check(value == 'blue', 'a value cut to buflen characters')
  call checki(buflen, 10, 'the whole value''s length after a cut')
  buflen = len(value)
  call MPI_Info_get_string(info, 'shape', buflen, value, flag, ierr)
  call check(.not. flag, 'a missing key')
  call MPI_Info_free(info, ierr)
  ! MPI_INFO_CREATE_ENV (MPI-4.1) takes no arguments from Fortran but the info.
  call MPI_Info_create_env(info, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Info_create_env')
  buflen = len(value)
  call MPI_Info_get_string(info, 'maxprocs', buflen, value, flag, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, count, ierr)
  call check(flag .and. value == trim(adjustl(itoa(count))), 'MPI_INFO_CREATE_ENV: maxprocs')
  call MPI_Info_free(info, ierr)

  ! external32 round trip.
  values = [1, -2, 65536 + rank]
  position = 0
  call MPI_Pack_external_size('external32', 3, MPI_INTEGER, size, ierr)
  call check(size == 12, 'MPI_Pack_external_size of three INTEGERs')
  call MPI_Pack_external('external32', values, 3, MPI_INTEGER, packed, 64_MPI_ADDRESS_KIND, &
                         position, ierr)
  call check(position == 12, 'MPI_Pack_external advances the position')
  call checki(ichar(packed(4)), 1, 'external32 is big-endian')
  call checki(ichar(packed(1)), 0, 'external32: the high byte first')
  position = 0
  back = 0
  call MPI_Unpack_external('external32', packed, 12_MPI_ADDRESS_KIND, position, back, 3, &
                           MPI_INTEGER, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Unpack_external')
  call check(position == 12, 'MPI_Unpack_external advances the position')
  call checki(back(1), 1, 'unpacked 1')
  call checki(back(2), -2, 'unpacked -2')
  call checki(back(3), 65536 + rank, 'unpacked 65536 + rank')
  ! MPI_SIZEOF, in the mpi module too.
  call MPI_Sizeof(position, count, ierr)
  call checki(count, 8, 'MPI_SIZEOF of an INTEGER(KIND=MPI_ADDRESS_KIND)')
  call MPI_Sizeof(values, count, ierr)
  call checki(count, 4, 'MPI_SIZEOF of an INTEGER array')
  call finish('requests_strings_f90')

contains

  function itoa(i) result(text)
    integer, intent(in) :: i
    character(len=12) :: text
    write (text, '(I0)') i
  end function itoa
end program requests_strings

subroutine query_fn(extra_state, status, ierror)
  use mpi
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: status(MPI_STATUS_SIZE), ierror
  status(MPI_SOURCE) = int(extra_state)
  status(MPI_TAG) = 7
  call MPI_Status_set_elements(status, MPI_INTEGER, 5, ierror)
end subroutine query_fn

subroutine free_fn(extra_state, ierror)
  use mpi
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: ierror, frees, cancels
  logical :: cancel_complete
  common /greq/ frees, cancels, cancel_complete
  if (extra_state >= 1000) frees = frees + 1
  ierror = MPI_SUCCESS
end subroutine free_fn

subroutine cancel_fn(extra_state, complete, ierror)
  use mpi
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  logical :: complete
  integer :: ierror, frees, cancels
  logical :: cancel_complete
  common /greq/ frees, cancels, cancel_complete
  cancels = cancels + 1
  cancel_complete = complete
  ierror = MPI_SUCCESS
end subroutine cancel_fn

include 'check.inc'
