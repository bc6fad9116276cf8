! SPDX-License-Identifier: Apache-2.0
! A procedure that mpi_f08 does not provide (here MPI_TYPE_EXTENT, an MPI-1 form) must not
! compile: f08_absent_test.sh expects gfortran's error naming it.
program f08_absent
  use mpi_f08
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extent
  integer :: ierr
  call MPI_Init()
  call MPI_Type_extent(MPI_INTEGER, extent, ierr)
  call MPI_Finalize()
end program f08_absent
