! SPDX-License-Identifier: Apache-2.0
! Communicators, groups and process topologies through the mpi module: MPI_Comm_split, names
! (CHARACTER arguments), comparisons, groups and ranges, a Cartesian grid with LOGICAL periods,
! its shifts, sub-grids and neighbourhood gather, a graph and a distributed graph with
! MPI_UNWEIGHTED. Expected values are computed from the rank and the grid by hand.
program topology
  use mpi
  implicit none
  integer :: rank, n, ierr

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call split_and_names()
  call groups()
  call cartesian()
  call graphs()
  call finish('topology_f90')

contains

  subroutine split_and_names()
    integer :: sub, none, dup, members, sub_rank, sub_size, result, len, ierr
    logical :: inter
    character(len=MPI_MAX_OBJECT_NAME) :: name
    ! Color r mod 2, key -r: each half in reverse order.
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, sub, ierr)
    members = (n - mod(rank, 2) + 1) / 2
    call MPI_Comm_size(sub, sub_size, ierr)
    call MPI_Comm_rank(sub, sub_rank, ierr)
    call checki(sub_size, members, 'split size')
    call checki(sub_rank, members - 1 - rank / 2, 'split rank, reversed by the key')
    call MPI_Comm_free(sub, ierr)
    call checki(sub, MPI_COMM_NULL, 'MPI_Comm_free')
    call MPI_Comm_split(MPI_COMM_WORLD, merge(0, MPI_UNDEFINED, mod(rank, 2) == 0), 0, none, ierr)
    if (mod(rank, 2) == 1) call checki(none, MPI_COMM_NULL, 'split with MPI_UNDEFINED')
    if (mod(rank, 2) == 0) call MPI_Comm_free(none, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_compare(MPI_COMM_WORLD, dup, result, ierr)
    call checki(result, MPI_CONGRUENT, 'a duplicate is congruent')
    call MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, result, ierr)
    call checki(result, MPI_IDENT, 'a communicator is identical to itself')
    call MPI_Comm_test_inter(dup, inter, ierr)
    call check(.not. inter, 'MPI_Comm_test_inter')
    call MPI_Comm_set_name(dup, 'my duplicate   ', ierr)
    name = 'garbage'
    call MPI_Comm_get_name(dup, name, len, ierr)
    call check(name == 'my duplicate' .and. len == 12, 'MPI_Comm_get_name of a named comm')
    call MPI_Comm_get_name(MPI_COMM_WORLD, name, len, ierr)
    call check(name == 'MPI_COMM_WORLD' .and. len == 14, 'MPI_Comm_get_name of MPI_COMM_WORLD')
    call MPI_Comm_free(dup, ierr)
  end subroutine split_and_names

  subroutine groups()
    integer :: world, pair, evens, grank, gsize, result, ranks(2), out(2), ranges(3, 1)
    integer :: comm, csize, ierr
    call MPI_Comm_group(MPI_COMM_WORLD, world, ierr)
    ranks = [n - 1, 0]
    call MPI_Group_incl(world, min(n, 2), ranks, pair, ierr)
    call MPI_Group_size(pair, gsize, ierr)
    call checki(gsize, min(n, 2), 'MPI_Group_incl size')
    call MPI_Group_rank(pair, grank, ierr)
    if (rank == n - 1) call checki(grank, 0, 'the last rank comes first')
    if (rank == 0 .and. n > 1) call checki(grank, 1, 'rank 0 comes second')
    if (rank /= 0 .and. rank /= n - 1) call checki(grank, MPI_UNDEFINED, 'not in the pair')
    call MPI_Group_translate_ranks(pair, min(n, 2), [0, 1], world, out, ierr)
    call checki(out(1), n - 1, 'translated rank 0 of the pair')
    ranges(:, 1) = [0, n - 1, 2]
    call MPI_Group_range_incl(world, 1, ranges, evens, ierr)
    call MPI_Group_size(evens, gsize, ierr)
    call checki(gsize, (n + 1) / 2, 'even ranks by a range')
    call MPI_Group_compare(evens, evens, result, ierr)
    call checki(result, MPI_IDENT, 'MPI_Group_compare')
    call MPI_Comm_create(MPI_COMM_WORLD, evens, comm, ierr)
    if (mod(rank, 2) == 1) then
      call checki(comm, MPI_COMM_NULL, 'odd ranks are not in the even communicator')
    else
      call MPI_Comm_size(comm, csize, ierr)
      call checki(csize, (n + 1) / 2, 'even communicator size')
      call MPI_Comm_free(comm, ierr)
    end if
    call MPI_Group_free(pair, ierr)
    call MPI_Group_free(evens, ierr)
    call MPI_Group_free(world, ierr)
    call checki(world, MPI_GROUP_NULL, 'MPI_Group_free')
  end subroutine groups

  subroutine cartesian()
    integer :: dims(2), coords(2), gdims(2), gcoords(2), cart, row, src, dst, r, ndims, kind
    integer :: nb(4), row_size, row_rank, i, ierr
    logical :: periods(2), gperiods(2)
    dims = 0
    call MPI_Dims_create(n, 2, dims, ierr)
    call checki(dims(1) * dims(2), n, 'MPI_Dims_create product')
    call check(dims(1) >= dims(2), 'MPI_Dims_create order')
    if (n == 16) call check(dims(1) == 4 .and. dims(2) == 4, 'MPI_Dims_create of 16')
    if (n == 7) call check(dims(1) == 7 .and. dims(2) == 1, 'MPI_Dims_create of 7')
    periods = [.true., .false.]
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
    call MPI_Topo_test(cart, kind, ierr)
    call checki(kind, MPI_CART, 'MPI_Topo_test')
    call MPI_Cartdim_get(cart, ndims, ierr)
    call checki(ndims, 2, 'MPI_Cartdim_get')
    ! Row-major numbering: rank = c1 * dims(2) + c2.
    call MPI_Cart_coords(cart, rank, 2, coords, ierr)
    call checki(coords(1), rank / dims(2), 'first coordinate')
    call checki(coords(2), mod(rank, dims(2)), 'second coordinate')
    call MPI_Cart_rank(cart, coords, r, ierr)
    call checki(r, rank, 'MPI_Cart_rank')
    call MPI_Cart_get(cart, 2, gdims, gperiods, gcoords, ierr)
    call check(gperiods(1) .and. .not. gperiods(2), 'MPI_Cart_get periods (LOGICAL)')
    call check(all(gdims == dims) .and. all(gcoords == coords), 'MPI_Cart_get dims and coords')
    call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
    call checki(src, mod(coords(1) - 1 + dims(1), dims(1)) * dims(2) + coords(2), 'periodic source')
    call checki(dst, mod(coords(1) + 1, dims(1)) * dims(2) + coords(2), 'periodic destination')
    call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
    call checki(src, merge(MPI_PROC_NULL, rank - 1, coords(2) == 0), 'bounded source')
    call checki(dst, merge(MPI_PROC_NULL, rank + 1, coords(2) == dims(2) - 1), 'bounded dest')
    ! Neighbours in order: dimension 0 source and destination, then dimension 1's.
    nb = -1
    call MPI_Neighbor_allgather(rank, 1, MPI_INTEGER, nb, 1, MPI_INTEGER, cart, ierr)
    call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
    call check(nb(1) == src .and. nb(2) == dst, 'neighbour gather along the periodic dimension')
    call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
    call check(nb(3) == merge(-1, src, src == MPI_PROC_NULL), 'neighbour gather, bounded source')
    call check(nb(4) == merge(-1, dst, dst == MPI_PROC_NULL), 'neighbour gather, bounded dest')
    call MPI_Cart_sub(cart, [.false., .true.], row, ierr)
    call MPI_Comm_size(row, row_size, ierr)
    call MPI_Comm_rank(row, row_rank, ierr)
    call checki(row_size, dims(2), 'MPI_Cart_sub size')
    call checki(row_rank, coords(2), 'MPI_Cart_sub rank')
    call MPI_Allreduce(rank, i, 1, MPI_INTEGER, MPI_SUM, row, ierr)
    call checki(i, coords(1) * dims(2) * dims(2) + dims(2) * (dims(2) - 1) / 2, 'sum over a row')
    call MPI_Comm_free(row, ierr)
    call MPI_Comm_free(cart, ierr)
  end subroutine cartesian

  subroutine graphs()
    integer :: index(n), edges(2 * n), graph, dgraph, count, nbrs(2), indeg, outdeg, i, ierr
    integer :: src(1), dst(1), sw(1), dw(1)
    logical :: weighted
    if (n >= 3) then
      ! A ring: node i's neighbours are i-1 and i+1.
      index = [(2 * i, i = 1, n)]
      edges = [(mod(i / 2 - 1 + 2 * mod(i, 2) + n, n), i = 0, 2 * n - 1)]
      call MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, .false., graph, ierr)
      call MPI_Graph_neighbors_count(graph, rank, count, ierr)
      call checki(count, 2, 'MPI_Graph_neighbors_count')
      call MPI_Graph_neighbors(graph, rank, 2, nbrs, ierr)
      call checki(nbrs(1), mod(rank + n - 1, n), 'graph neighbour 1')
      call checki(nbrs(2), mod(rank + 1, n), 'graph neighbour 2')
      call MPI_Comm_free(graph, ierr)
    end if
    src = mod(rank + n - 1, n)
    dst = mod(rank + 1, n)
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 1, dst, &
                                        MPI_UNWEIGHTED, MPI_INFO_NULL, .false., dgraph, ierr)
    call MPI_Dist_graph_neighbors_count(dgraph, indeg, outdeg, weighted, ierr)
    call check(indeg == 1 .and. outdeg == 1, 'distributed graph degrees')
    call check(.not. weighted, 'an MPI_UNWEIGHTED graph is not weighted')
    src = -1
    dst = -1
    call MPI_Dist_graph_neighbors(dgraph, 1, src, sw, 1, dst, dw, ierr)
    call checki(src(1), mod(rank + n - 1, n), 'distributed graph source')
    call checki(dst(1), mod(rank + 1, n), 'distributed graph destination')
    call MPI_Comm_free(dgraph, ierr)
  end subroutine graphs
end program topology

include 'check.inc'
