/* SPDX-License-Identifier: Apache-2.0 */
/* Process topologies against hand-computed grids and neighbor lists: MPI_Dims_create, the
 * Cartesian calls (create, coords, rank, shift, sub, get, map), graphs, distributed graphs
 * (adjacent and general), MPI_Topo_test, the neighborhood collectives on each kind, and the
 * error classes of bad shapes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static int mod(int a, int n) {
  return ((a % n) + n) % n;
}

static void dims_create(void) {
  struct {
    int nnodes, ndims, in[4], out[4];
  } cases[] = {
      {12, 2, {0, 0}, {4, 3}},
      {64, 3, {0, 0, 0}, {4, 4, 4}},
      {7, 2, {0, 0}, {7, 1}},
      {16, 4, {0}, {2, 2, 2, 2}},
      {24, 3, {0}, {4, 3, 2}},
      {24, 3, {0, 3, 0}, {4, 3, 2}},
      {1, 3, {0}, {1, 1, 1}},
      {30, 2, {0}, {6, 5}},
      {60, 3, {0}, {5, 4, 3}},
      {36, 2, {0}, {6, 6}},
      {6, 2, {0, 6}, {1, 6}},
      /* Equal spreads: the larger smallest factor (as MPICH's topo/dims5 expects). */
      {5040, 3, {0}, {21, 16, 15}},
      {100320, 3, {0}, {57, 44, 40}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    int dims[4];
    memcpy(dims, cases[c].in, sizeof dims);
    MPI_Dims_create(cases[c].nnodes, cases[c].ndims, dims);
    CHECK(!memcmp(dims, cases[c].out, cases[c].ndims * sizeof(int)),
          "Dims_create(%d, %d) gave %d %d %d %d", cases[c].nnodes, cases[c].ndims, dims[0], dims[1],
          dims[2], dims[3]);
  }
  int bad[2] = {5, 0};
  CHECK(MPI_Dims_create(12, 2, bad) == MPI_ERR_DIMS, "12 processes with a dimension of 5");
  CHECK(MPI_Dims_create(12, -1, bad) == MPI_ERR_DIMS, "ndims=-1");
}

/* A p x q grid, periodic in the first dimension only. */
static void cartesian(void) {
  int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2], r, n, src, dst, status;
  MPI_Dims_create(size, 2, dims);
  int p = dims[0], q = dims[1], i = rank / q, j = rank % q;
  MPI_Comm cart, row, col;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  MPI_Topo_test(cart, &status);
  MPI_Cartdim_get(cart, &n);
  CHECK(status == MPI_CART && n == 2, "topo %d ndims %d", status, n);
  MPI_Cart_coords(cart, rank, 2, coords);
  CHECK(coords[0] == i && coords[1] == j, "coords (%d,%d) expected (%d,%d)", coords[0], coords[1],
        i, j);
  int wrapped[2] = {i + p, j};
  MPI_Cart_rank(cart, wrapped, &r);
  CHECK(r == rank, "rank of (%d,%d) is %d", i + p, j, r);
  MPI_Cart_shift(cart, 0, 1, &src, &dst);
  CHECK(src == mod(i - 1, p) * q + j && dst == mod(i + 1, p) * q + j, "shift 0: %d %d", src, dst);
  MPI_Cart_shift(cart, 1, 1, &src, &dst);
  CHECK(src == (j > 0 ? rank - 1 : MPI_PROC_NULL) && dst == (j < q - 1 ? rank + 1 : MPI_PROC_NULL),
        "shift 1: %d %d", src, dst);
  int gd[2], gp[2], gc[2];
  MPI_Cart_get(cart, 2, gd, gp, gc);
  CHECK(gd[0] == p && gd[1] == q && gp[0] == 1 && gp[1] == 0 && gc[0] == i && gc[1] == j,
        "cart_get");
  /* Rows keep dimension 1, columns dimension 0. */
  int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
  MPI_Cart_sub(cart, keep_row, &row);
  MPI_Cart_sub(cart, keep_col, &col);
  MPI_Comm_size(row, &n);
  MPI_Comm_rank(row, &r);
  CHECK(n == q && r == j, "row size %d rank %d", n, r);
  MPI_Comm_size(col, &n);
  MPI_Comm_rank(col, &r);
  CHECK(n == p && r == i, "column size %d rank %d", n, r);
  long long v = rank, sum;
  MPI_Allreduce(&v, &sum, 1, MPI_LONG_LONG, MPI_SUM, row);
  CHECK(sum == (long long)i * q * q + (long long)q * (q - 1) / 2, "row sum %lld", sum);
  MPI_Cart_get(col, 1, gd, gp, gc);
  CHECK(gd[0] == p && gp[0] == 1 && gc[0] == i, "column topology %d %d %d", gd[0], gp[0], gc[0]);
  /* Blocks to the -1 and +1 neighbors of each dimension arrive from the opposite side. */
  int out[4] = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3}, in[4] = {-1, -1, -1, -1};
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, cart);
  MPI_Cart_shift(cart, 0, 1, &src, &dst);
  CHECK(in[0] == src * 10 + 1 && in[1] == dst * 10, "alltoall dim 0: %d %d", in[0], in[1]);
  CHECK(in[2] == (j > 0 ? (rank - 1) * 10 + 3 : -1) &&
            in[3] == (j < q - 1 ? (rank + 1) * 10 + 2 : -1),
        "alltoall dim 1: %d %d", in[2], in[3]);
  int all[4] = {-1, -1, -1, -1};
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, cart);
  CHECK(all[0] == src && all[1] == dst && all[2] == (j > 0 ? rank - 1 : -1), "allgather %d %d %d",
        all[0], all[1], all[2]);
  /* A dup keeps the topology. */
  MPI_Comm d;
  MPI_Comm_dup(cart, &d);
  MPI_Topo_test(d, &status);
  CHECK(status == MPI_CART, "dup of a Cartesian communicator: topology %d", status);
  MPI_Comm_free(&d);
  MPI_Comm_free(&row);
  MPI_Comm_free(&col);
  MPI_Comm_free(&cart);
}

static void smaller_grid_and_errors(void) {
  int dims[1] = {size > 1 ? size - 1 : 1}, periods[1] = {0}, newrank;
  MPI_Comm c;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c);
  CHECK((rank < dims[0]) == (c != MPI_COMM_NULL), "rank %d outside a grid of %d", rank, dims[0]);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &newrank);
  CHECK(newrank == (rank < dims[0] ? rank : MPI_UNDEFINED), "cart_map gave %d", newrank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int zero[1] = {0}, big[1] = {size + 1}, coords[1];
  CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, zero, periods, 0, &c) == MPI_ERR_DIMS, "dims {0}");
  CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, big, periods, 0, &c) == MPI_ERR_TOPOLOGY,
        "dims {size+1}");
  CHECK(MPI_Cart_create(MPI_COMM_WORLD, -1, big, periods, 0, &c) == MPI_ERR_DIMS, "ndims -1");
  CHECK(MPI_Cart_coords(MPI_COMM_WORLD, 0, 1, coords) == MPI_ERR_TOPOLOGY,
        "coords without topology");
  int status;
  MPI_Topo_test(MPI_COMM_WORLD, &status);
  CHECK(status == MPI_UNDEFINED, "world has topology %d", status);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* A ring: rank i's neighbors are i-1 and i+1. */
static void graph(void) {
  int* index = malloc(size * sizeof(int));
  int* edges = malloc(2 * size * sizeof(int));
  for (int i = 0; i < size; ++i) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = mod(i - 1, size);
    edges[2 * i + 1] = mod(i + 1, size);
  }
  MPI_Comm g;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g);
  int status, nnodes, nedges, count, nb[2];
  MPI_Topo_test(g, &status);
  MPI_Graphdims_get(g, &nnodes, &nedges);
  MPI_Graph_neighbors_count(g, rank, &count);
  MPI_Graph_neighbors(g, rank, 2, nb);
  int left = mod(rank - 1, size), right = mod(rank + 1, size);
  CHECK(status == MPI_GRAPH && nnodes == size && nedges == 2 * size, "graph dims %d %d", nnodes,
        nedges);
  CHECK(count == 2 && nb[0] == left && nb[1] == right, "neighbors %d %d", nb[0], nb[1]);
  int out[2] = {rank * 10, rank * 10 + 1}, in[2] = {-1, -1};
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, g);
  if (size >= 3) { /* left sends me its block 1, right its block 0 */
    CHECK(in[0] == left * 10 + 1 && in[1] == right * 10, "graph alltoall %d %d", in[0], in[1]);
  } else { /* both edges join the same two ranks: they pair up in order */
    CHECK(in[0] == left * 10 && in[1] == left * 10 + 1, "graph alltoall (2 edges) %d %d", in[0],
          in[1]);
  }
  int ix[1], ed[2];
  MPI_Graph_get(g, 1, 2, ix, ed);
  CHECK(ix[0] == 2 && ed[0] == mod(-1, size) && ed[1] == mod(1, size), "graph_get");
  MPI_Comm_free(&g);
  free(index);
  free(edges);
}

/* Sources r-1, r-2 and destinations r+1, r+2, weighted 1 and 2. */
static void dist_graph_adjacent(void) {
  int src[2] = {mod(rank - 1, size), mod(rank - 2, size)},
      dst[2] = {mod(rank + 1, size), mod(rank + 2, size)};
  int w[2] = {1, 2};
  MPI_Comm g;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, w, 2, dst, w, MPI_INFO_NULL, 0, &g);
  int indeg, outdeg, weighted, s[2], sw[2], d[2], dw[2], status;
  MPI_Topo_test(g, &status);
  MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted);
  MPI_Dist_graph_neighbors(g, 2, s, sw, 2, d, dw);
  CHECK(status == MPI_DIST_GRAPH && indeg == 2 && outdeg == 2 && weighted, "dist graph counts");
  CHECK(s[0] == src[0] && s[1] == src[1] && d[0] == dst[0] && sw[1] == 2 && dw[0] == 1,
        "dist graph lists");
  /* Alltoallv: destination k gets k + 1 copies of rank * 10 + k. */
  int out[3] = {rank * 10, rank * 10 + 1, rank * 10 + 1}, sc[2] = {1, 2}, sd[2] = {0, 1};
  int in[3] = {-1, -1, -1}, rc[2] = {1, 2}, rd[2] = {0, 1};
  MPI_Neighbor_alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, g);
  CHECK(in[0] == src[0] * 10 && in[1] == src[1] * 10 + 1 && in[2] == src[1] * 10 + 1,
        "alltoallv %d %d %d", in[0], in[1], in[2]);
  /* Allgatherv into reversed slots. */
  int got[2] = {-1, -1}, counts[2] = {1, 1}, displs[2] = {1, 0};
  MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, got, counts, displs, MPI_INT, g);
  CHECK(got[1] == src[0] && got[0] == src[1], "allgatherv %d %d", got[0], got[1]);
  /* Alltoallw: a double to the first destination, an int to the second. */
  struct {
    double x;
    int i;
  } sendw = {rank + 0.5, rank}, recvw = {-1, -1};
  int wc[2] = {1, 1};
  MPI_Aint sdisp[2] = {0, (char*)&sendw.i - (char*)&sendw},
           rdisp[2] = {0, (char*)&recvw.i - (char*)&recvw};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Neighbor_alltoallw(&sendw, wc, sdisp, types, &recvw, wc, rdisp, types, g);
  CHECK(recvw.x == src[0] + 0.5 && recvw.i == src[1], "alltoallw %g %d", recvw.x, recvw.i);
  MPI_Comm_free(&g);
}

/* Rank 0 names every edge i -> i+1 (weight i); then each rank names r -> r+2, unweighted. */
static void dist_graph_general(void) {
  MPI_Comm g;
  int* srcs = malloc(size * sizeof(int));
  int* degs = malloc(size * sizeof(int));
  int* dsts = malloc(size * sizeof(int));
  int* ws = malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) srcs[i] = i, degs[i] = 1, dsts[i] = mod(i + 1, size), ws[i] = i;
  MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, srcs, degs, dsts, ws, MPI_INFO_NULL,
                        0, &g);
  int indeg, outdeg, weighted, s, sw, d, dw;
  MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted);
  MPI_Dist_graph_neighbors(g, 1, &s, &sw, 1, &d, &dw);
  CHECK(indeg == 1 && outdeg == 1 && weighted, "general dist graph degrees %d %d %d", indeg, outdeg,
        weighted);
  CHECK(s == mod(rank - 1, size) && sw == mod(rank - 1, size) && d == mod(rank + 1, size) &&
            dw == rank,
        "general dist graph: in %d (w %d) out %d (w %d)", s, sw, d, dw);
  MPI_Comm_free(&g);
  int mine = rank, to = mod(rank + 2, size), one = 1, got = -1;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &mine, &one, &to, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted);
  CHECK(indeg == 1 && outdeg == 1 && !weighted, "unweighted degrees %d %d %d", indeg, outdeg,
        weighted);
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, &got, 1, MPI_INT, g);
  CHECK(got == mod(rank - 2, size), "allgather over r->r+2 got %d", got);
  MPI_Comm_free(&g);
  free(srcs), free(degs), free(dsts), free(ws);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  dims_create();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  cartesian();
  smaller_grid_and_errors();
  graph();
  dist_graph_adjacent();
  dist_graph_general();
  return finish("topologies");
}
