! SPDX-License-Identifier: Apache-2.0
! MPI_COMM_SPAWN and MPI_COMM_SPAWN_MULTIPLE from Fortran (use mpi): children of this program,
! checked from both sides: the children's own MPI_COMM_WORLD, command line (GET_COMMAND_ARGUMENT
! reads each rank's own) and MPI_APPNUM, messages both ways and an allreduce over the
! intercommunicator. Arguments are CHARACTER arrays ended by a blank element; spawn_multiple's
! array_of_argv is a (count, *) array with blank-terminated rows; MPI_ARGV_NULL, MPI_ARGVS_NULL
! and MPI_ERRCODES_IGNORE are passed through as C's.
!
!   spawn_f90.sim -n P --set node.count=N -- C [single|multiple|null|multinull]
program spawn
  use mpi
  implicit none
  integer :: parent, ierr, children, rank, n, inter, i, v, remote, total
  integer :: errs(16), maxprocs(2), infos(2)
  character(len=256) :: cmd, mode, word
  character(len=8) :: args(3), argvs(2, 4)
  character(len=256) :: cmds(2)

  call MPI_Init(ierr)
  call MPI_Comm_get_parent(parent, ierr)
  if (parent /= MPI_COMM_NULL) then
    call child(parent)
    stop
  end if
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call get_command_argument(0, cmd)
  call get_command_argument(1, word)
  read (word, *) children
  mode = 'single'
  if (command_argument_count() >= 2) call get_command_argument(2, mode)
  errs = -1
  select case (mode)
  case ('single')
    args = [character(len=8) :: 'child', 'x', ' ']
    call MPI_Comm_spawn(cmd, args, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errs, ierr)
  case ('null')
    call MPI_Comm_spawn(cmd, MPI_ARGV_NULL, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, &
                        MPI_ERRCODES_IGNORE, ierr)
    errs = MPI_SUCCESS
  case ('multiple', 'multinull')
    cmds = cmd
    argvs = ' '
    argvs(1, 1) = 'first'
    argvs(2, 1:3) = [character(len=8) :: 'second', 'y', 'z']
    maxprocs = [1, children - 1]
    infos = MPI_INFO_NULL
    if (mode == 'multiple') then
      call MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
                                   errs, ierr)
    else
      call MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_WORLD, &
                                   inter, errs, ierr)
    end if
  end select
  call checki(ierr, MPI_SUCCESS, 'the spawn')
  if (rank == 0) then
    do i = 1, children
      call checki(errs(i), MPI_SUCCESS, 'array_of_errcodes')
    end do
  end if
  call MPI_Comm_remote_size(inter, remote, ierr)
  call checki(remote, children, 'remote size of the intercommunicator')
  if (rank == 0) then
    do i = 0, children - 1
      call MPI_Send(100 + i, 1, MPI_INTEGER, i, 2, inter, ierr)
    end do
  end if
  do i = rank, children - 1, n
    call MPI_Recv(v, 1, MPI_INTEGER, i, 3, inter, MPI_STATUS_IGNORE, ierr)
    call checki(v, 2 * (100 + i), 'a child''s answer')
  end do
  call MPI_Allreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, inter, ierr)
  call checki(total, 100 * children * (children + 1) / 2, 'allreduce over the children')
  call MPI_Comm_free(inter, ierr)
  call finish('spawn parents')

contains

  ! The children's part: their command line says which spawn made them.
  subroutine child(parent)
    integer, intent(in) :: parent
    integer :: rank, size, remote, ierr, v, nargs, total, i
    integer(kind=MPI_ADDRESS_KIND) :: appnum
    logical :: flag
    character(len=16) :: a(3)

    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    call MPI_Comm_remote_size(parent, remote, ierr)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, appnum, flag, ierr)
    call check(flag, 'MPI_APPNUM is set')
    nargs = command_argument_count()
    a = ' '
    do i = 1, min(nargs, 3)
      call get_command_argument(i, a(i))
    end do
    if (nargs == 0) then  ! MPI_ARGV_NULL or MPI_ARGVS_NULL
      call check(appnum == 0 .or. (appnum == 1 .and. rank >= 1), 'MPI_APPNUM without arguments')
    else if (a(1) == 'child') then
      call checki(nargs, 2, 'a child''s argument count')
      call check(a(2) == 'x', 'a child''s second argument')
      call checki(int(appnum), 0, 'MPI_APPNUM of a single spawn')
    else if (a(1) == 'first') then
      call checki(nargs, 1, 'command 0''s argument count')
      call checki(int(appnum), 0, 'MPI_APPNUM of command 0')
      call checki(rank, 0, 'command 0''s child is rank 0')
    else
      call check(a(1) == 'second' .and. a(2) == 'y' .and. a(3) == 'z', 'command 1''s arguments')
      call checki(nargs, 3, 'command 1''s argument count')
      call checki(int(appnum), 1, 'MPI_APPNUM of command 1')
    end if
    call MPI_Recv(v, 1, MPI_INTEGER, 0, 2, parent, MPI_STATUS_IGNORE, ierr)
    call checki(v, 100 + rank, 'the parents'' root sent')
    call MPI_Send(2 * v, 1, MPI_INTEGER, mod(rank, remote), 3, parent, ierr)
    call MPI_Allreduce(100 * (rank + 1), total, 1, MPI_INTEGER, MPI_SUM, parent, ierr)
    call checki(total, remote * (remote + 1) / 2, 'allreduce over the parents')
    call MPI_Comm_free(parent, ierr)
    call finish('spawn children')
  end subroutine child
end program spawn

include 'check.inc'
