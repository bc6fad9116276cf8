/* SPDX-License-Identifier: Apache-2.0 */
/* Programs for record-then-replay tests (replay_test.sh) of process topologies and the
 * neighbourhood collectives on them, one per argument:
 *   cart       a 2-D Cartesian grid (MPI_Dims_create, periodic in one dimension only): a halo
 *              exchange by MPI_Neighbor_alltoall, MPI_Ineighbor_alltoallv with uneven counts
 *              behind compute, MPI_Neighbor_allgather(v), MPI_Neighbor_alltoallw with a derived
 *              type, MPI_Neighbor_alltoall_c, a persistent MPI_Neighbor_alltoall_init started over
 *              steps, and the rows
 *              of MPI_Cart_sub reduced
 *   graph      MPI_Graph_create (a ring, with chords across when it has an even number of nodes
 *              over 4, over all but the last rank when there are more than 3):
 * MPI_Neighbor_allgather, MPI_Ineighbor_allgatherv, and a persistent MPI_Neighbor_allgatherv_init
 *   distgraph  MPI_Dist_graph_create_adjacent (weighted, two neighbours each way) and
 *              MPI_Dist_graph_create (unweighted, each rank naming the edges of another):
 *              MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoall, a persistent
 *              MPI_Neighbor_alltoallv_init and MPI_Neighbor_alltoallw_init
 * Values are checked where the program decides something from them, so a run also tests MPI. */
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void fail(const char* what) {
  fprintf(stderr, "replay_topologies: rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static void cart(void) {
  enum { halo = 3000 };
  int dims[2] = {0, 0}, periods[2] = {1, 0}, me;
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid, row;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid);
  MPI_Comm_rank(grid, &me);
  double *out = calloc(4 * halo, sizeof(double)), *in = calloc(4 * halo, sizeof(double));
  int counts[4], displs[4];
  for (int i = 0; i < 4; ++i) counts[i] = 500 * (i + 1) + 10 * me, displs[i] = i * halo;
  int rcounts[4];
  MPI_Neighbor_alltoall(counts, 1, MPI_INT, rcounts, 1, MPI_INT, grid);
  for (int step = 0; step < 2; ++step) {
    MPI_Neighbor_alltoall(out, halo / 2, MPI_DOUBLE, in, halo / 2, MPI_DOUBLE, grid);
    MPI_Request q;
    int sdispls[4], rdispls[4], got[4];
    for (int i = 0; i < 4; ++i) {
      int src, dst; /* what the neighbour in direction i sends this way, or 0 off the edge */
      MPI_Cart_shift(grid, i / 2, 1, &src, &dst);
      got[i] = (i % 2 ? dst : src) == MPI_PROC_NULL ? 0 : rcounts[i];
      sdispls[i] = displs[i], rdispls[i] = displs[i];
    }
    MPI_Ineighbor_alltoallv(out, counts, sdispls, MPI_DOUBLE, in, got, rdispls, MPI_DOUBLE, grid,
                            &q);
    SIMMPI_COMPUTE(3e6 * (1 + (me + step) % 3), 2e5);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  int coords[2], mine[2], theirs[8];
  MPI_Cart_coords(grid, me, 2, coords);
  mine[0] = coords[0], mine[1] = coords[1];
  MPI_Neighbor_allgather(mine, 2, MPI_INT, theirs, 2, MPI_INT, grid);
  /* dimension 0 is periodic: its -1 neighbour is always there */
  if (theirs[0] != (coords[0] + dims[0] - 1) % dims[0]) fail("the -1 neighbour's coordinates");
  int vc[4] = {16, 20, 30, 40}, vd[4] = {0, 100, 200, 300};
  MPI_Neighbor_allgatherv(out, 10 + me % 4, MPI_DOUBLE, in, vc, vd, MPI_DOUBLE, grid);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  /* the block sent in direction i arrives from direction i ^ 1: the same bytes both ways */
  MPI_Datatype types[4] = {pair, pair, MPI_DOUBLE, MPI_DOUBLE};
  MPI_Aint wd[4] = {0, 16000, 32000, 48000};
  int wc[4] = {700, 700, 1100, 1100};
  MPI_Neighbor_alltoallw(out, wc, wd, types, in, wc, wd, types, grid);
  MPI_Neighbor_alltoall_c(out, 100, MPI_DOUBLE, in, 100, MPI_DOUBLE, grid); /* as the int form */
  MPI_Request p;
  MPI_Neighbor_alltoall_init(out, halo / 4, MPI_DOUBLE, in, halo / 4, MPI_DOUBLE, grid,
                             MPI_INFO_NULL, &p);
  for (int step = 0; step < 3; ++step) {
    MPI_Start(&p);
    SIMMPI_COMPUTE(1e6 * (1 + me % 2), 0);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&p);
  int remain[2] = {0, 1};
  MPI_Cart_sub(grid, remain, &row);
  int n, sum;
  MPI_Comm_size(row, &n);
  MPI_Allreduce(&coords[1], &sum, 1, MPI_INT, MPI_SUM, row);
  if (sum != n * (n - 1) / 2) fail("the row's sum of coordinates");
  MPI_Type_free(&pair);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
  free(out), free(in);
}

static void graph(void) {
  const int nodes = size > 3 ? size - 1 : size; /* the last rank is left out of the graph */
  int* index = calloc((size_t)nodes, sizeof(int));
  int* edges = calloc(3 * (size_t)nodes, sizeof(int));
  int e = 0;
  for (int i = 0; i < nodes; ++i) {
    edges[e++] = (i + 1) % nodes;
    edges[e++] = (i + nodes - 1) % nodes;
    if (nodes > 4 && nodes % 2 == 0) edges[e++] = (i + nodes / 2) % nodes; /* symmetric */
    index[i] = e;
  }
  MPI_Comm g;
  MPI_Graph_create(MPI_COMM_WORLD, nodes, index, edges, 0, &g);
  if (rank >= nodes) {
    if (g != MPI_COMM_NULL) fail("a rank outside the graph got a communicator");
  } else {
    int me, k;
    MPI_Comm_rank(g, &me);
    MPI_Graph_neighbors_count(g, me, &k);
    if (k != index[0]) fail("the graph's degree");
    double *out = calloc(40000, sizeof(double)), *in = calloc(40000 * 3, sizeof(double));
    int ids[3];
    MPI_Neighbor_allgather(&me, 1, MPI_INT, ids, 1, MPI_INT, g);
    if (ids[0] != (me + 1) % nodes) fail("the first neighbour's rank");
    int counts[3] = {3000, 3000, 3000}, displs[3] = {0, 10000, 20000};
    MPI_Request q;
    MPI_Ineighbor_allgatherv(out, 1000 * (me % 3 + 1), MPI_DOUBLE, in, counts, displs, MPI_DOUBLE,
                             g, &q);
    SIMMPI_COMPUTE(2e6 * (me + 1), 0);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    int c2[3] = {5000, 5000, 5000}, d2[3] = {0, 5000, 10000};
    MPI_Neighbor_allgatherv_init(out, 5000, MPI_DOUBLE, in, c2, d2, MPI_DOUBLE, g, MPI_INFO_NULL,
                                 &q);
    for (int step = 0; step < 2; ++step) {
      MPI_Start(&q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      SIMMPI_COMPUTE(1e6, 0);
    }
    MPI_Request_free(&q);
    MPI_Comm_free(&g);
    free(out), free(in);
  }
  free(index), free(edges);
}

static void distgraph(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const int far = (rank + 2) % size, back = (rank + size - 2) % size;
  int sources[2] = {prev, back}, dests[2] = {next, far}, w[2] = {3, 1};
  MPI_Comm adj, made;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, w, 2, dests, w, MPI_INFO_NULL, 0,
                                 &adj);
  double *out = calloc(60000, sizeof(double)), *in = calloc(60000, sizeof(double));
  MPI_Datatype triple;
  MPI_Type_contiguous(3, MPI_DOUBLE, &triple);
  MPI_Type_commit(&triple);
  MPI_Datatype types[2] = {triple, MPI_DOUBLE};
  int wc[2] = {1000 + 100 * rank, 2000}, rc[2] = {1000 + 100 * prev, 2000};
  MPI_Aint wd[2] = {0, 240000}, rd[2] = {0, 240000};
  /* what `prev` sends its `next` (this rank) is its first block; `back` sends its second */
  MPI_Neighbor_alltoallw(out, wc, wd, types, in, rc, rd, types, adj);
  /* each rank names one edge of another: rank r names the edge (r+1) -> (r+3) */
  int src = next, degree = 1, dst = (rank + 3) % size;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &degree, &dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                        &made);
  int in_deg, out_deg, weighted;
  MPI_Dist_graph_neighbors_count(made, &in_deg, &out_deg, &weighted);
  if (in_deg != 1 || out_deg != 1 || weighted) fail("the created graph's degrees");
  int mine = rank, got = -1;
  MPI_Request q;
  MPI_Ineighbor_alltoall(&mine, 1, MPI_INT, &got, 1, MPI_INT, made, &q);
  SIMMPI_COMPUTE(1.5e6 * (rank % 4 + 1), 0);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (got != (rank + size - 2) % size) fail("the created graph's source");
  int vc[2] = {3000 + rank, 4000}, vd[2] = {0, 20000};
  int vr[2] = {3000 + prev, 4000};
  MPI_Request p[2];
  MPI_Neighbor_alltoallv_init(out, vc, vd, MPI_DOUBLE, in, vr, vd, MPI_DOUBLE, adj, MPI_INFO_NULL,
                              &p[0]);
  MPI_Neighbor_alltoallw_init(out, wc, wd, types, in, rc, rd, types, adj, MPI_INFO_NULL, &p[1]);
  for (int step = 0; step < 3; ++step) {
    MPI_Startall(2, p);
    SIMMPI_COMPUTE(2e6 * (1 + (rank + step) % 2), 1e5);
    MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&p[0]), MPI_Request_free(&p[1]);
  MPI_Type_free(&triple);
  MPI_Comm_free(&made), MPI_Comm_free(&adj);
  free(out), free(in);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "cart"))
      cart();
    else if (!strcmp(argv[i], "graph"))
      graph();
    else if (!strcmp(argv[i], "distgraph"))
      distgraph();
    else {
      fprintf(stderr, "replay_topologies: unknown part %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  MPI_Finalize();
  return 0;
}
