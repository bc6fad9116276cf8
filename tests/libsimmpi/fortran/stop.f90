! SPDX-License-Identifier: Apache-2.0
! How a Fortran rank ends: STOP ends only the rank (STOP 3 on one rank stops the job with status
! 3, as under mpirun), MPI_Abort ends the job, and the command line (GET_COMMAND_ARGUMENT) reads
! the same on every rank, even after others have ended.
program stop_test
  use mpi
  implicit none
  integer :: rank, n, ierr, i, ticks
  character(len=32) :: mode, extra

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call get_command_argument(1, mode)
  call get_command_argument(2, extra)
  if (mode == 'abort' .and. rank == n - 1) call MPI_Abort(MPI_COMM_WORLD, 7, ierr)
  call MPI_Finalize(ierr)
  if (mode == 'stop3' .and. rank == 1) stop 3
  if (mode == 'args') then
    ! Rank 0 reads its arguments again after the others have ended: reading the clock advances
    ! its simulated time, so they run to their end first.
    if (rank == 0) then
      do i = 1, 10
        call system_clock(ticks)
      end do
      call get_command_argument(2, extra)
      print '(a,a,a,i0,a)', 'args: [', trim(extra), '] on ', n, ' ranks'
    end if
    stop
  end if
  if (rank == 0) print '(a)', 'stop_f90: ended normally'
end program stop_test
