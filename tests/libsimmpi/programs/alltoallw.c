/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_Alltoallw and MPI_Ialltoallw (MPI-3.1 5.8) with a datatype per peer: rank i sends rank j
 * the j + 1 ints {1000 i + 10 j + k}, k < j + 1, as j + 1 MPI_INTs to even peers and as one
 * contiguous type of j + 1 ints to odd ones; rank j receives from rank i into a vector with a
 * gap after every int (a strided type), so the values land at every other int. Byte
 * displacements are laid out by hand. Also MPI_IN_PLACE, where every block keeps its place. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int expected(int from, int to, int k) {
  return 1000 * from + 10 * to + k;
}

static void exchange(int rank, int size, int nonblocking) {
  int* counts = malloc(2 * size * sizeof(int));
  int* rcounts = counts + size;
  int* sdispls = malloc(2 * size * sizeof(int));
  int* rdispls = sdispls + size;
  MPI_Datatype* types = malloc(2 * size * sizeof(MPI_Datatype));
  MPI_Datatype* rtypes = types + size;
  int stotal = 0, rtotal = 0;
  for (int j = 0; j < size; ++j) {
    sdispls[j] = stotal * (int)sizeof(int);
    stotal += j + 1;
    if (j % 2 == 0) {
      counts[j] = j + 1, types[j] = MPI_INT;
    } else {
      counts[j] = 1;
      MPI_Type_contiguous(j + 1, MPI_INT, &types[j]);
      MPI_Type_commit(&types[j]);
    }
    /* From rank j: rank + 1 ints, each followed by a gap. */
    rdispls[j] = rtotal * (int)sizeof(int);
    rtotal += 2 * (rank + 1);
    rcounts[j] = 1;
    MPI_Type_vector(rank + 1, 1, 2, MPI_INT, &rtypes[j]);
    MPI_Type_commit(&rtypes[j]);
  }
  int* sendbuf = malloc(stotal * sizeof(int));
  int* recvbuf = malloc(rtotal * sizeof(int));
  for (int j = 0, at = 0; j < size; ++j)
    for (int k = 0; k <= j; ++k) sendbuf[at++] = expected(rank, j, k);
  for (int i = 0; i < rtotal; ++i) recvbuf[i] = -1;
  if (nonblocking) {
    MPI_Request r;
    MPI_Ialltoallw(sendbuf, counts, sdispls, types, recvbuf, rcounts, rdispls, rtypes,
                   MPI_COMM_WORLD, &r);
    memset(sendbuf, 0, stotal * sizeof(int)); /* packed at the call: free to reuse */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else {
    MPI_Alltoallw(sendbuf, counts, sdispls, types, recvbuf, rcounts, rdispls, rtypes,
                  MPI_COMM_WORLD);
  }
  int bad = 0;
  for (int i = 0; i < size; ++i)
    for (int k = 0; k <= rank; ++k) {
      bad += recvbuf[(2 * (rank + 1) * i) + 2 * k] != expected(i, rank, k);
      bad += recvbuf[(2 * (rank + 1) * i) + 2 * k + 1] != -1; /* the gaps stay untouched */
    }
  CHECK(bad == 0, "%s: %d wrong ints", nonblocking ? "MPI_Ialltoallw" : "MPI_Alltoallw", bad);
  for (int j = 0; j < size; ++j) {
    if (j % 2) MPI_Type_free(&types[j]);
    MPI_Type_free(&rtypes[j]);
  }
  free(counts), free(sdispls), free(types), free(sendbuf), free(recvbuf);
}

/* In place: 2 doubles per peer; rank r's block j holds r + 0.5 j + {0, 0.25} before and
 * j + 0.5 r + {0, 0.25} after. */
static void in_place(int rank, int size) {
  double* buf = malloc(2 * size * sizeof(double));
  int* counts = malloc(size * sizeof(int));
  int* displs = malloc(size * sizeof(int));
  MPI_Datatype* types = malloc(size * sizeof(MPI_Datatype));
  for (int j = 0; j < size; ++j) {
    buf[2 * j] = rank + 0.5 * j, buf[2 * j + 1] = rank + 0.5 * j + 0.25;
    counts[j] = 2, displs[j] = 2 * j * (int)sizeof(double), types[j] = MPI_DOUBLE;
  }
  MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, counts, displs, types, MPI_COMM_WORLD);
  int bad = 0;
  for (int j = 0; j < size; ++j)
    bad += buf[2 * j] != j + 0.5 * rank || buf[2 * j + 1] != j + 0.5 * rank + 0.25;
  CHECK(bad == 0, "MPI_IN_PLACE: %d wrong blocks", bad);
  free(buf), free(counts), free(displs), free(types);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  exchange(rank, size, 0);
  exchange(rank, size, 1);
  in_place(rank, size);
  return finish("alltoallw");
}
