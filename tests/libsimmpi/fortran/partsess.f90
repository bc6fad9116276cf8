! SPDX-License-Identifier: Apache-2.0
! MPI-4.1 partitioned communication and sessions from Fortran (use mpi): MPI_PSEND_INIT and
! MPI_PRECV_INIT around a ring with unequal partition counts, MPI_PREADY_LIST, MPI_PREADY_RANGE,
! MPI_PREADY and MPI_PARRIVED; a session (an INTEGER handle) with its process sets, a group from
! mpi://WORLD and a communicator from that group. The receive buffer is VOLATILE (see mpi4.f90).
program partsess
  use mpi
  implicit none
  integer :: rank, n, left, right, ierr, i, k, session, nsets, plen, wgroup, comm, csize, total
  integer :: sreq, rreq, list(2)
  integer :: sendv(12)
  integer, volatile :: recvv(12)
  logical :: flag
  character(len=MPI_MAX_PSET_NAME_LEN) :: pname

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  right = mod(rank + 1, n)
  left = mod(rank + n - 1, n)

  call MPI_Psend_init(sendv, 4, 3_MPI_COUNT_KIND, MPI_INTEGER, right, 1, MPI_COMM_WORLD, &
                      MPI_INFO_NULL, sreq, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Psend_init')
  call MPI_Precv_init(recvv, 3, 4_MPI_COUNT_KIND, MPI_INTEGER, left, 1, MPI_COMM_WORLD, &
                      MPI_INFO_NULL, rreq, ierr)
  do k = 1, 2
    sendv = [(1000 * rank + 10 * k + i, i = 1, 12)]
    recvv = -1
    call MPI_Start(rreq, ierr)
    call MPI_Start(sreq, ierr)
    list = [3, 1]
    call MPI_Pready_list(2, list, sreq, ierr)
    call MPI_Pready_range(0, 0, sreq, ierr)
    call MPI_Pready(2, sreq, ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Parrived(rreq, 2, flag, ierr)
    end do
    call checki(recvv(12), 1000 * left + 10 * k + 12, 'last partition after MPI_Parrived')
    call MPI_Wait(sreq, MPI_STATUS_IGNORE, ierr)
    call MPI_Wait(rreq, MPI_STATUS_IGNORE, ierr)
    do i = 1, 12
      call checki(recvv(i), 1000 * left + 10 * k + i, 'partitioned ring')
    end do
  end do
  call MPI_Request_free(sreq, ierr)
  call MPI_Request_free(rreq, ierr)

  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Session_init')
  call check(session /= MPI_SESSION_NULL, 'a session handle')
  call MPI_Session_get_num_psets(session, MPI_INFO_NULL, nsets, ierr)
  call checki(nsets, 2, 'two process sets')
  plen = len(pname)
  call MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 0, plen, pname, ierr)
  call check(pname == 'mpi://WORLD', 'the first process set is mpi://WORLD')
  call checki(plen, 11, 'length of mpi://WORLD (in Fortran without C''s NUL)')
  plen = 0
  pname = 'unchanged'
  call MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 1, plen, pname, ierr)
  call checki(plen, 10, 'length of mpi://SELF asked with pset_len 0')
  call check(pname == 'unchanged', 'pset_len 0 leaves the name alone')
  call MPI_Group_from_session_pset(session, 'mpi://WORLD', wgroup, ierr)
  call MPI_Comm_create_from_group(wgroup, 'org.simmpi.fortran', MPI_INFO_NULL, &
                                  MPI_ERRORS_RETURN, comm, ierr)
  call checki(ierr, MPI_SUCCESS, 'MPI_Comm_create_from_group')
  call MPI_Comm_size(comm, csize, ierr)
  call checki(csize, n, 'size of the communicator from mpi://WORLD')
  call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, comm, ierr)
  call checki(total, n, 'allreduce on it')
  call MPI_Comm_free(comm, ierr)
  call MPI_Group_free(wgroup, ierr)
  call MPI_Session_finalize(session, ierr)
  call checki(session, MPI_SESSION_NULL, 'MPI_Session_finalize')
  call finish('partsess_f90')
end program partsess

include 'check.inc'
