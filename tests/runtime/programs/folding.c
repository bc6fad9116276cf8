/* SPDX-License-Identifier: Apache-2.0 */
/* Memory folding end to end (runtime/fold, libsimmpi's payload copies):
 *   folding [GiB]   run with --set runtime.fold_threshold=1MiB
 * In model mode, malloc/calloc/realloc of 1 MiB or more fold, smaller ones do not; explicit
 * SIMMPI_SHARED_MALLOC always folds. Each rank folds GiB (default 8) of matrix: the run must
 * still fit in little memory. Messages into folded memory are not copied, while the private
 * part of a partial block, reached by a contiguous send or by a struct datatype that mixes
 * folded and private blocks (HPL's panel broadcast), arrives intact. Prints "folding: OK". */
#include <mpi.h>
#include <simmpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                  \
  do {                                    \
    if (!(cond)) {                        \
      printf("FAIL line %d: ", __LINE__); \
      printf(__VA_ARGS__);                \
      printf("\n");                       \
      ++failures;                         \
    }                                     \
  } while (0)

enum { kPrivate = 512 };

static void allocations(int model, double gib) {
  size_t big = (size_t)(gib * 1073741824.0);
  char* matrix = malloc(big);
  char* small = malloc(1000);
  CHECK(simmpi_is_shared(matrix) == model, "a %zu-byte malloc folds in model mode only", big);
  CHECK(!simmpi_is_shared(small), "a 1000-byte malloc never folds");
  double* c = calloc(1 << 20, sizeof(double));
  CHECK(simmpi_is_shared(c) == model, "an 8 MiB calloc folds in model mode only");
  c = realloc(c, 16 << 20);
  CHECK(simmpi_is_shared(c) == model, "a folded block stays folded when it grows");
  small = realloc(small, 4 << 20);
  CHECK(!simmpi_is_shared(small), "a private block stays private when it grows");
  small[(4 << 20) - 1] = 1;
  void* explicit_block = SIMMPI_SHARED_MALLOC(2 << 20);
  CHECK(simmpi_is_shared(explicit_block), "SIMMPI_SHARED_MALLOC folds in either mode");
  SIMMPI_SHARED_FREE(explicit_block);
  free(c);
  free(small);
  free(matrix);
}

/* Rank 0 sends a partial block whole, then as a struct of a folded run and the private part. */
static void messages(int rank) {
  size_t bytes = 4 << 20;
  char* block = SIMMPI_PARTIAL_SHARED_MALLOC(bytes, bytes - kPrivate, bytes);
  char* priv = block + bytes - kPrivate;
  CHECK(simmpi_is_shared(block) && !simmpi_is_shared(priv), "partial block: folded, then private");
  int blens[2] = {(int)(bytes / 2), kPrivate};
  MPI_Aint disps[2] = {0, (MPI_Aint)(bytes - kPrivate)};
  MPI_Datatype types[2] = {MPI_BYTE, MPI_BYTE}, panel;
  MPI_Type_create_struct(2, blens, disps, types, &panel);
  MPI_Type_commit(&panel);
  for (int round = 0; round < 2; ++round) {
    if (rank == 0) {
      for (int i = 0; i < kPrivate; ++i) priv[i] = (char)(i * 7 + round);
      if (round == 0)
        MPI_Send(block, (int)bytes, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
      else
        MPI_Send(block, 1, panel, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
      memset(priv, 0, kPrivate);
      if (round == 0)
        MPI_Recv(block, (int)bytes, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else
        MPI_Recv(block, 1, panel, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int wrong = 0;
      for (int i = 0; i < kPrivate; ++i) wrong += priv[i] != (char)(i * 7 + round);
      CHECK(wrong == 0, "round %d: %d of the %d private bytes did not arrive", round, wrong,
            kPrivate);
    }
  }
  MPI_Type_free(&panel);
  SIMMPI_SHARED_FREE(block);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int model = !simmpi_compute_executes();
  allocations(model, argc > 1 ? atof(argv[1]) : 8.0);
  if (size >= 2) messages(rank);
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0 && total == 0) printf("folding: OK\n");
  MPI_Finalize();
  return total != 0;
}
