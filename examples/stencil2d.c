/* SPDX-License-Identifier: Apache-2.0 */
/* 2-D Jacobi heat diffusion on a square grid split over a px x py process grid, with a halo
 * exchange of one row/column per neighbour each step (nonblocking sends and receives), and a
 * global residual every 10 steps. Rank 0 checks the final total heat against a serial run.
 * Usage: stencil2d [n (grid side)] [steps] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(a, i, j) a[(size_t)(i) * (ln + 2) + (j)]

static void choose_grid(int size, int* px, int* py) {
  *px = 1;
  for (int d = 1; d * d <= size; ++d)
    if (size % d == 0) *px = d;
  *py = size / *px;
}

/* One step on a local block with halos; returns the sum of squared changes. */
static double step(const double* u, double* v, int lm, int ln) {
  double diff = 0;
  for (int i = 1; i <= lm; ++i)
    for (int j = 1; j <= ln; ++j) {
      double x = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
      diff += (x - AT(u, i, j)) * (x - AT(u, i, j));
      AT(v, i, j) = x;
    }
  return diff;
}

/* The initial heat: a hot square in the middle of the global grid. */
static double initial(int gi, int gj, int n) {
  return (gi > n / 4 && gi < 3 * n / 4 && gj > n / 4 && gj < 3 * n / 4) ? 100.0 : 0.0;
}

/* Total heat after `steps` steps on one process, for the check. */
static double serial_total(int n, int steps) {
  int lm = n, ln = n;
  double* u = calloc((size_t)(n + 2) * (n + 2), sizeof(double));
  double* v = calloc((size_t)(n + 2) * (n + 2), sizeof(double));
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) AT(u, i, j) = initial(i - 1, j - 1, n);
  for (int s = 0; s < steps; ++s) {
    step(u, v, lm, ln);
    double* t = u;
    u = v;
    v = t;
  }
  double total = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) total += AT(u, i, j);
  free(u);
  free(v);
  return total;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 64;
  int steps = argc > 2 ? atoi(argv[2]) : 50;
  int px, py;
  choose_grid(size, &px, &py);
  if (n % px || n % py) {
    if (rank == 0) fprintf(stderr, "stencil2d: %d must divide by the %dx%d grid\n", n, px, py);
    MPI_Finalize();
    return 1;
  }
  int pi = rank / py, pj = rank % py;
  int lm = n / px, ln = n / py;
  int north = pi > 0 ? rank - py : MPI_PROC_NULL, south = pi < px - 1 ? rank + py : MPI_PROC_NULL;
  int west = pj > 0 ? rank - 1 : MPI_PROC_NULL, east = pj < py - 1 ? rank + 1 : MPI_PROC_NULL;
  double* u = calloc((size_t)(lm + 2) * (ln + 2), sizeof(double));
  double* v = calloc((size_t)(lm + 2) * (ln + 2), sizeof(double));
  double* col_out = malloc(2 * lm * sizeof(double));
  double* col_in = malloc(2 * lm * sizeof(double));
  for (int i = 1; i <= lm; ++i)
    for (int j = 1; j <= ln; ++j) AT(u, i, j) = initial(pi * lm + i - 1, pj * ln + j - 1, n);
  double t0 = MPI_Wtime(), residual = 0;
  for (int s = 0; s < steps; ++s) {
    MPI_Request req[8];
    /* rows are contiguous; columns go through pack buffers */
    for (int i = 0; i < lm; ++i) {
      col_out[i] = AT(u, i + 1, 1);
      col_out[lm + i] = AT(u, i + 1, ln);
    }
    MPI_Irecv(&AT(u, 0, 1), ln, MPI_DOUBLE, north, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&AT(u, lm + 1, 1), ln, MPI_DOUBLE, south, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Irecv(col_in, lm, MPI_DOUBLE, west, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Irecv(col_in + lm, lm, MPI_DOUBLE, east, 3, MPI_COMM_WORLD, &req[3]);
    MPI_Isend(&AT(u, 1, 1), ln, MPI_DOUBLE, north, 1, MPI_COMM_WORLD, &req[4]);
    MPI_Isend(&AT(u, lm, 1), ln, MPI_DOUBLE, south, 0, MPI_COMM_WORLD, &req[5]);
    MPI_Isend(col_out, lm, MPI_DOUBLE, west, 3, MPI_COMM_WORLD, &req[6]);
    MPI_Isend(col_out + lm, lm, MPI_DOUBLE, east, 2, MPI_COMM_WORLD, &req[7]);
    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < lm; ++i) {
      if (west != MPI_PROC_NULL) AT(u, i + 1, 0) = col_in[i];
      if (east != MPI_PROC_NULL) AT(u, i + 1, ln + 1) = col_in[lm + i];
    }
    double local = step(u, v, lm, ln);
    double* t = u;
    u = v;
    v = t;
    if (s % 10 == 9) MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double elapsed = MPI_Wtime() - t0;
  double local_total = 0, total = 0;
  for (int i = 1; i <= lm; ++i)
    for (int j = 1; j <= ln; ++j) local_total += AT(u, i, j);
  MPI_Reduce(&local_total, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  int status = 0;
  if (rank == 0) {
    double expected = serial_total(n, steps);
    int ok = fabs(total - expected) <= 1e-9 * fabs(expected);
    printf(
        "stencil2d: %dx%d grid on %dx%d ranks, %d steps, %.6f s simulated, residual %.3e, "
        "total heat %.6f (serial %.6f) %s\n",
        n, n, px, py, steps, elapsed, sqrt(residual), total, expected, ok ? "OK" : "MISMATCH");
    status = !ok;
  }
  free(u);
  free(v);
  free(col_out);
  free(col_in);
  MPI_Finalize();
  return status;
}
