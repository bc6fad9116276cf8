/* SPDX-License-Identifier: Apache-2.0 */
/* All-to-all personalized exchange on a two-level fat-tree, timed against the cut bound of the
 * tree. Usage: alltoall_bound BYTES LEAF_NODES LEAF_UPLINKS LINK_Bps TOLERANCE
 *
 * The exchange is the pairwise algorithm of MPI_Alltoall (step i: send to rank + i, receive
 * from rank - i), written out with MPI_Sendrecv from one BYTES buffer so that 512 ranks x 1 MB
 * messages fit in memory (MPI_Alltoall would need BYTES x ranks per rank). With one rank per
 * node, N nodes, leaves of m nodes with u uplinks of bandwidth B:
 *   injection bound  (N - 1) BYTES / B        every node sends N - 1 messages
 *   leaf cut bound   m (N - m) BYTES / (u B)  what a leaf sends out crosses its u uplinks
 * The time must be within TOLERANCE (relative) above the larger bound, and never below it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc != 6) {
    if (rank == 0)
      fprintf(stderr, "usage: alltoall_bound BYTES LEAF_NODES LEAF_UPLINKS LINK_Bps TOLERANCE\n");
    MPI_Finalize();
    return 2;
  }
  long bytes = atol(argv[1]);
  double m = atof(argv[2]), u = atof(argv[3]), bw = atof(argv[4]), tolerance = atof(argv[5]);
  char* out = calloc((size_t)bytes, 1);
  char* in = malloc((size_t)bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 1; i < n; ++i) {
    out[0] = (char)rank;
    MPI_Sendrecv(out, (int)bytes, MPI_CHAR, (rank + i) % n, 0, in, (int)bytes, MPI_CHAR,
                 (rank - i + n) % n, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (in[0] != (char)((rank - i + n) % n)) {
      fprintf(stderr, "rank %d step %d: wrong data from rank %d\n", rank, i, (rank - i + n) % n);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  double local = MPI_Wtime() - t0, t;
  MPI_Reduce(&local, &t, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double injection = (n - 1) * (double)bytes / bw;
    double leaf_cut = m * (n - m) * (double)bytes / (u * bw);
    double bound = injection > leaf_cut ? injection : leaf_cut;
    double ratio = t / bound;
    printf(
        "alltoall_bound: %d ranks, %ld bytes per pair: time %.6f s, bound %.6f s (%s), "
        "ratio %.4f\n",
        n, bytes, t, bound, leaf_cut > injection ? "leaf cut" : "injection", ratio);
    printf("alltoall_bound: %s\n", ratio >= 1.0 && ratio <= 1.0 + tolerance ? "OK" : "FAIL");
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
