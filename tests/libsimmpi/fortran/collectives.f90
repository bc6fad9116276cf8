! SPDX-License-Identifier: Apache-2.0
! Every collective through the mpi module, blocking and then nonblocking (MPI_Ixxx + MPI_Wait),
! with Fortran datatypes (INTEGER, DOUBLE PRECISION, LOGICAL, DOUBLE COMPLEX, 2INTEGER,
! 2DOUBLE_PRECISION), MPI_IN_PLACE, and results computed by hand for n ranks, rank r.
program collectives
  use mpi
  implicit none
  integer :: rank, n, ierr, pass
  logical :: nb

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  do pass = 0, 1
    nb = pass == 1
    call barrier_bcast()
    call reductions()
    call logical_and_loc()
    call gathers()
    call scatters()
    call all_to_all()
    call reduce_scatters_and_scans()
  end do
  call reduce_local()
  call finish('collectives_f90')

contains

  ! Completes a nonblocking collective right away.
  subroutine complete(req)
    integer :: req, ierr
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call checki(req, MPI_REQUEST_NULL, 'request freed by MPI_Wait')
  end subroutine complete

  subroutine barrier_bcast()
    integer :: buf(5), i, req, ierr
    if (nb) then
      call MPI_Ibarrier(MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
    end if
    buf = 0
    if (rank == n - 1) buf = [((n - 1) * 100 + i, i = 1, 5)]
    if (nb) then
      call MPI_Ibcast(buf, 5, MPI_INTEGER, n - 1, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Bcast(buf, 5, MPI_INTEGER, n - 1, MPI_COMM_WORLD, ierr)
    end if
    do i = 1, 5
      call checki(buf(i), (n - 1) * 100 + i, 'bcast from the last rank')
    end do
  end subroutine barrier_bcast

  subroutine reductions()
    double precision :: x(3), sum(3), prod, factor
    integer :: a(2), imax, i, req, ierr
    double complex :: z, zsum
    x = [(dble(rank + i), i = 1, 3)]
    if (nb) then
      call MPI_Ireduce(x, sum, 3, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Reduce(x, sum, 3, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    end if
    if (rank == 0) then
      do i = 1, 3
        call checkd(sum(i), dble(n * (n - 1) / 2 + n * i), 'reduce sum of doubles')
      end do
    end if
    if (nb) then
      call MPI_Ireduce(rank, imax, 1, MPI_INTEGER, MPI_MAX, n / 2, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Reduce(rank, imax, 1, MPI_INTEGER, MPI_MAX, n / 2, MPI_COMM_WORLD, ierr)
    end if
    if (rank == n / 2) call checki(imax, n - 1, 'reduce max to rank n/2')
    ! The odd ranks contribute 2, the others 1: the product is 2**(n/2).
    factor = 1 + mod(rank, 2)
    if (nb) then
      call MPI_Iallreduce(factor, prod, 1, MPI_DOUBLE_PRECISION, MPI_PROD, &
                          MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Allreduce(factor, prod, 1, MPI_DOUBLE_PRECISION, MPI_PROD, &
                         MPI_COMM_WORLD, ierr)
    end if
    call checkd(prod, 2.0d0**(n / 2), 'allreduce prod')
    a = [rank, 1]
    if (nb) then
      call MPI_Iallreduce(MPI_IN_PLACE, a, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Allreduce(MPI_IN_PLACE, a, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    call checki(a(1), n * (n - 1) / 2, 'allreduce in place, sum of ranks')
    call checki(a(2), n, 'allreduce in place, count')
    z = dcmplx(dble(rank), -dble(rank))
    call MPI_Allreduce(z, zsum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
    call checkd(dble(zsum), dble(n * (n - 1) / 2), 'double complex sum, real part')
    call checkd(dimag(zsum), -dble(n * (n - 1) / 2), 'double complex sum, imaginary part')
    call MPI_Allreduce(2**mod(rank, 8), i, 1, MPI_INTEGER, MPI_BOR, MPI_COMM_WORLD, ierr)
    call checki(i, 2**min(n, 8) - 1, 'allreduce bor')
  end subroutine reductions

  subroutine logical_and_loc()
    logical :: even, land, lor, lxor
    double precision :: dpair(2), dmax(2)
    integer :: ipair(2), imin(2), req, ierr
    even = mod(rank, 2) == 0
    if (nb) then
      call MPI_Iallreduce(even, land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Allreduce(even, land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    end if
    call MPI_Allreduce(even, lor, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(even, lxor, 1, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD, ierr)
    call check(land .eqv. (n == 1), 'logical and')
    call check(lor, 'logical or')
    call check(lxor .eqv. (mod((n + 1) / 2, 2) == 1), 'logical xor')
    ! MAXLOC: values -|r - n/2| peak at r = n/2. MINLOC: values mod(r+1, n) are 0 at r = n-1.
    dpair = [-dble(abs(rank - n / 2)), dble(rank)]
    if (nb) then
      call MPI_Iallreduce(dpair, dmax, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, &
                          req, ierr)
      call complete(req)
    else
      call MPI_Allreduce(dpair, dmax, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
    end if
    call checkd(dmax(1), 0.0d0, 'maxloc value')
    call checkd(dmax(2), dble(n / 2), 'maxloc location')
    ipair = [mod(rank + 1, n), rank]
    call MPI_Allreduce(ipair, imin, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
    call checki(imin(1), 0, 'minloc value')
    call checki(imin(2), n - 1, 'minloc location')
  end subroutine logical_and_loc

  subroutine gathers()
    integer :: mine(2), all(2 * n), counts(n), displs(n), vals(n * (n + 1) / 2), copies(n)
    integer :: j, k, req, ierr
    mine = [rank, rank * rank]
    all = -1
    if (nb) then
      call MPI_Igather(mine, 2, MPI_INTEGER, all, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Gather(mine, 2, MPI_INTEGER, all, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    end if
    if (rank == 0) then
      do j = 0, n - 1
        call checki(all(2 * j + 1), j, 'gather, first element')
        call checki(all(2 * j + 2), j * j, 'gather, second element')
      end do
    end if
    ! Rank j contributes j+1 copies of j (from a variable: a nonblocking call's buffers must outlive
    ! the call, which an expression's temporary does not).
    copies = rank
    counts = [(j + 1, j = 0, n - 1)]
    displs = [(j * (j + 1) / 2, j = 0, n - 1)]
    vals = -1
    if (nb) then
      call MPI_Igatherv(copies, rank + 1, MPI_INTEGER, vals, counts, displs, &
                        MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Gatherv(copies, rank + 1, MPI_INTEGER, vals, counts, displs, &
                       MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    end if
    if (rank == 0) call check_blocks(vals, 'gatherv')
    all = -1
    if (nb) then
      call MPI_Iallgather(rank, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Allgather(rank, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    end if
    do j = 0, n - 1
      call checki(all(j + 1), j, 'allgather')
    end do
    vals = -1
    if (nb) then
      call MPI_Iallgatherv(copies, rank + 1, MPI_INTEGER, vals, counts, displs, &
                           MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Allgatherv(copies, rank + 1, MPI_INTEGER, vals, counts, displs, &
                          MPI_INTEGER, MPI_COMM_WORLD, ierr)
    end if
    call check_blocks(vals, 'allgatherv')
  end subroutine gathers

  ! Block j (from position j(j+1)/2 + 1) holds j+1 copies of j.
  subroutine check_blocks(vals, what)
    integer :: vals(*), j, k
    character(len=*) :: what
    do j = 0, n - 1
      do k = 1, j + 1
        call checki(vals(j * (j + 1) / 2 + k), j, what)
      end do
    end do
  end subroutine check_blocks

  subroutine scatters()
    integer :: src(2 * n), mine(2), counts(n), displs(n), vals(n * (n + 1) / 2), got(n)
    integer :: j, k, req, ierr
    src = [(10 * (k / 2) + mod(k, 2), k = 0, 2 * n - 1)]
    if (nb) then
      call MPI_Iscatter(src, 2, MPI_INTEGER, mine, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Scatter(src, 2, MPI_INTEGER, mine, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    end if
    call checki(mine(1), 10 * rank, 'scatter, first element')
    call checki(mine(2), 10 * rank + 1, 'scatter, second element')
    ! From the last rank, rank j gets 100j+1 ... 100j+j+1.
    counts = [(j + 1, j = 0, n - 1)]
    displs = [(j * (j + 1) / 2, j = 0, n - 1)]
    vals = [((100 * j + k, k = 1, j + 1), j = 0, n - 1)]
    got = -1
    if (nb) then
      call MPI_Iscatterv(vals, counts, displs, MPI_INTEGER, got, rank + 1, MPI_INTEGER, n - 1, &
                         MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Scatterv(vals, counts, displs, MPI_INTEGER, got, rank + 1, MPI_INTEGER, n - 1, &
                        MPI_COMM_WORLD, ierr)
    end if
    do k = 1, rank + 1
      call checki(got(k), 100 * rank + k, 'scatterv')
    end do
  end subroutine scatters

  subroutine all_to_all()
    integer :: send(n), recv(n), scounts(n), sdispls(n), rcounts(n), rdispls(n)
    integer :: vsend(n * (n + 1) / 2), vrecv(n * (rank + 1)), j, k, req, ierr
    send = [(100 * rank + j, j = 0, n - 1)]
    if (nb) then
      call MPI_Ialltoall(send, 1, MPI_INTEGER, recv, 1, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Alltoall(send, 1, MPI_INTEGER, recv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    end if
    do j = 0, n - 1
      call checki(recv(j + 1), 100 * j + rank, 'alltoall')
    end do
    ! Rank r sends j+1 copies of 100r+j to rank j, and so gets r+1 copies of 100j+r from each j.
    scounts = [(j + 1, j = 0, n - 1)]
    sdispls = [(j * (j + 1) / 2, j = 0, n - 1)]
    vsend = [((100 * rank + j, k = 0, j), j = 0, n - 1)]
    rcounts = rank + 1
    rdispls = [(j * (rank + 1), j = 0, n - 1)]
    vrecv = -1
    if (nb) then
      call MPI_Ialltoallv(vsend, scounts, sdispls, MPI_INTEGER, vrecv, rcounts, rdispls, &
                          MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Alltoallv(vsend, scounts, sdispls, MPI_INTEGER, vrecv, rcounts, rdispls, &
                         MPI_INTEGER, MPI_COMM_WORLD, ierr)
    end if
    do j = 0, n - 1
      do k = 1, rank + 1
        call checki(vrecv(rdispls(j + 1) + k), 100 * j + rank, 'alltoallv')
      end do
    end do
  end subroutine all_to_all

  subroutine reduce_scatters_and_scans()
    integer :: send(n * (n + 1) / 2), counts(n), got(n), blk(2 * n), two(2), s, j, k, req, ierr
    integer :: mine
    ! Element k (1-based) is k + r: its sum over ranks is n*k + n(n-1)/2. Rank r gets r+1 of them
    ! from position r(r+1)/2 + 1.
    send = [(k + rank, k = 1, n * (n + 1) / 2)]
    counts = [(j + 1, j = 0, n - 1)]
    if (nb) then
      call MPI_Ireduce_scatter(send, got, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Reduce_scatter(send, got, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    do j = 1, rank + 1
      k = rank * (rank + 1) / 2 + j
      call checki(got(j), n * k + n * (n - 1) / 2, 'reduce_scatter')
    end do
    blk = [(k * rank, k = 1, 2 * n)]
    if (nb) then
      call MPI_Ireduce_scatter_block(blk, two, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Reduce_scatter_block(blk, two, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    call checki(two(1), (2 * rank + 1) * (n * (n - 1) / 2), 'reduce_scatter_block, first')
    call checki(two(2), (2 * rank + 2) * (n * (n - 1) / 2), 'reduce_scatter_block, second')
    mine = rank + 1
    if (nb) then
      call MPI_Iscan(mine, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Scan(mine, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    call checki(s, (rank + 1) * (rank + 2) / 2, 'scan')
    s = -1
    if (nb) then
      call MPI_Iexscan(mine, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      call complete(req)
    else
      call MPI_Exscan(mine, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    if (rank > 0) call checki(s, rank * (rank + 1) / 2, 'exscan')
  end subroutine reduce_scatters_and_scans

  subroutine reduce_local()
    integer :: inout(2), ierr
    inout = [10, 20]
    call MPI_Reduce_local([1, 2], inout, 2, MPI_INTEGER, MPI_SUM, ierr)
    call checki(inout(1), 11, 'reduce_local, first')
    call checki(inout(2), 22, 'reduce_local, second')
  end subroutine reduce_local
end program collectives

include 'check.inc'
