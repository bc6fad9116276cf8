! SPDX-License-Identifier: Apache-2.0
! MPI-IO from Fortran (use mpi): every rank writes its 10 doubles at its own offset with
! MPI_FILE_WRITE_AT_ALL, reads its right neighbour's with MPI_FILE_READ_AT, checks the file's
! size, and a missing file's open returns MPI_ERR_NO_SUCH_FILE (files return errors by default).
!   io_f90 PATH
program io_f90
  use mpi
  implicit none
  integer :: rank, nranks, ierr, fh, right, i, cls, count
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: offset, fsize
  double precision :: out(10), back(10)
  character(len=512) :: path

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, path)
  right = mod(rank + 1, nranks)
  do i = 1, 10
    out(i) = rank * 100 + i
  end do
  call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, &
                     MPI_INFO_NULL, fh, ierr)
  call CHECKI(ierr, MPI_SUCCESS, 'MPI_FILE_OPEN')
  offset = rank * 80
  call MPI_FILE_WRITE_AT_ALL(fh, offset, out, 10, MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, count, ierr)
  call CHECKI(count, 10, 'write_at_all count')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  offset = right * 80
  call MPI_FILE_READ_AT(fh, offset, back, 10, MPI_DOUBLE_PRECISION, status, ierr)
  do i = 1, 10
    call CHECKD(back(i), right * 100d0 + i, 'neighbour''s value')
  end do
  call MPI_FILE_GET_SIZE(fh, fsize, ierr)
  call CHECK(fsize == nranks * 80, 'file size')
  call MPI_FILE_CLOSE(fh, ierr)
  call CHECK(fh == MPI_FILE_NULL, 'closed handle')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_FILE_DELETE(trim(path), MPI_INFO_NULL, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(path), MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call CHECKI(cls, MPI_ERR_NO_SUCH_FILE, 'missing file')
  call FINISH('io_f90')
end program io_f90

include 'check.inc'
