/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi-hpl's glue for HPL: each __wrap_X here replaces HPL's function X through the linker's
 * --wrap=X (HPL's files are compiled unchanged), and calls the original, __real_X, when the data
 * must really be computed.
 *  - HPL's own copy and row-swap loops (HPL_dlaswp*, HPL_dlacpy, HPL_dlatcpy), its matrix
 *    generator and its norms are charged as memory-bound kernels of the node model, then run
 *    only in execute mode, as SimBLAS's routines are.
 *  - Model mode keeps HPL's control flow right: the pivot search (HPL_dlocmax) returns a pivot
 *    of random magnitude (the folded matrix holds no values, so the pivot rows fall on random
 *    process rows as with HPL's random matrix); copies into unfolded memory still happen (the
 *    pivot exchange of HPL_pdmxswp carries row indices in a cblas_dcopy); and each panel's pivot
 *    vector (DPIV, DINFO, with L1 before it, which HPL broadcasts as one block) moves out of the
 *    folded panel buffer into a block whose L1 part is folded and whose pivots are private.
 * Included by simmpi-hpl in every HPL build; in execute mode only the charging differs from
 * plain HPL (the loops' time is counted, as SimBLAS's is). */
#include <simmpi.h>
#include <simmpi_compute.h>
#include <stdint.h>
#include <stdio.h>

#include "hpl.h"

#define KERNEL(name, elements, m, n) \
  simmpi_compute_kernel(name, 0.0, 8.0 * (double)(elements), (long)(m), (long)(n), 0)

/* ---- Row swaps and copies: 2 elements moved per element copied, 4 per element swapped ---- */

#define SWAP_LIKE(sym, factor, params, m, n, args)                                       \
  void __real_##sym params;                                                              \
  void __wrap_##sym params {                                                             \
    if (KERNEL("dlaswp", (factor) * (double)(m) * (double)(n), m, n)) __real_##sym args; \
  }

SWAP_LIKE(HPL_dlaswp00N, 4, (const int M, const int N, double* A, const int LDA, const int* IPIV),
          M, N, (M, N, A, LDA, IPIV))
SWAP_LIKE(HPL_dlaswp10N, 4, (const int M, const int N, double* A, const int LDA, const int* IPIV),
          M, N, (M, N, A, LDA, IPIV))
SWAP_LIKE(HPL_dlaswp01N, 2,
          (const int M, const int N, double* A, const int LDA, double* U, const int LDU,
           const int* LINDXA, const int* LINDXAU),
          M, N, (M, N, A, LDA, U, LDU, LINDXA, LINDXAU))
SWAP_LIKE(HPL_dlaswp01T, 2,
          (const int M, const int N, double* A, const int LDA, double* U, const int LDU,
           const int* LINDXA, const int* LINDXAU),
          M, N, (M, N, A, LDA, U, LDU, LINDXA, LINDXAU))
SWAP_LIKE(HPL_dlaswp02N, 2,
          (const int M, const int N, const double* A, const int LDA, double* W0, double* W,
           const int LDW, const int* LINDXA, const int* LINDXAU),
          M, N, (M, N, A, LDA, W0, W, LDW, LINDXA, LINDXAU))
SWAP_LIKE(HPL_dlaswp03N, 2,
          (const int M, const int N, double* U, const int LDU, const double* W0, const double* W,
           const int LDW),
          M, N, (M, N, U, LDU, W0, W, LDW))
SWAP_LIKE(HPL_dlaswp03T, 2,
          (const int M, const int N, double* U, const int LDU, const double* W0, const double* W,
           const int LDW),
          M, N, (M, N, U, LDU, W0, W, LDW))
SWAP_LIKE(HPL_dlaswp04N, 2,
          (const int M0, const int M1, const int N, double* U, const int LDU, double* A,
           const int LDA, const double* W0, const double* W, const int LDW, const int* LINDXA,
           const int* LINDXAU),
          M0 + M1, N, (M0, M1, N, U, LDU, A, LDA, W0, W, LDW, LINDXA, LINDXAU))
SWAP_LIKE(HPL_dlaswp04T, 2,
          (const int M0, const int M1, const int N, double* U, const int LDU, double* A,
           const int LDA, const double* W0, const double* W, const int LDW, const int* LINDXA,
           const int* LINDXAU),
          M0 + M1, N, (M0, M1, N, U, LDU, A, LDA, W0, W, LDW, LINDXA, LINDXAU))
SWAP_LIKE(HPL_dlaswp05N, 2,
          (const int M, const int N, double* A, const int LDA, const double* U, const int LDU,
           const int* LINDXA, const int* LINDXAU),
          M, N, (M, N, A, LDA, U, LDU, LINDXA, LINDXAU))
SWAP_LIKE(HPL_dlaswp05T, 2,
          (const int M, const int N, double* A, const int LDA, const double* U, const int LDU,
           const int* LINDXA, const int* LINDXAU),
          M, N, (M, N, A, LDA, U, LDU, LINDXA, LINDXAU))
SWAP_LIKE(HPL_dlaswp06N, 4,
          (const int M, const int N, double* A, const int LDA, double* U, const int LDU,
           const int* LINDXA),
          M, N, (M, N, A, LDA, U, LDU, LINDXA))
SWAP_LIKE(HPL_dlaswp06T, 4,
          (const int M, const int N, double* A, const int LDA, double* U, const int LDU,
           const int* LINDXA),
          M, N, (M, N, A, LDA, U, LDU, LINDXA))

void __real_HPL_dlacpy(const int M, const int N, const double* A, const int LDA, double* B,
                       const int LDB);
void __wrap_HPL_dlacpy(const int M, const int N, const double* A, const int LDA, double* B,
                       const int LDB) {
  if (simmpi_compute_kernel("dlacpy", 0.0, 16.0 * (double)M * (double)N, M, N, 0))
    __real_HPL_dlacpy(M, N, A, LDA, B, LDB);
}

void __real_HPL_dlatcpy(const int M, const int N, const double* A, const int LDA, double* B,
                        const int LDB);
void __wrap_HPL_dlatcpy(const int M, const int N, const double* A, const int LDA, double* B,
                        const int LDB) {
  if (simmpi_compute_kernel("dlacpy", 0.0, 16.0 * (double)M * (double)N, M, N, 0))
    __real_HPL_dlatcpy(M, N, A, LDA, B, LDB);
}

/* ---- Matrix generation and norms: they touch every local element ---- */

static void local_size(const HPL_T_grid* grid, int m, int n, int nb, int* mp, int* nq) {
  *mp = HPL_numroc(m, nb, nb, grid->myrow, 0, grid->nprow);
  *nq = HPL_numroc(n, nb, nb, grid->mycol, 0, grid->npcol);
}

void __real_HPL_pdmatgen(const HPL_T_grid* GRID, const int M, const int N, const int NB, double* A,
                         const int LDA, const int ISEED);
void __wrap_HPL_pdmatgen(const HPL_T_grid* GRID, const int M, const int N, const int NB, double* A,
                         const int LDA, const int ISEED) {
  int mp, nq;
  local_size(GRID, M, N, NB, &mp, &nq);
  if (simmpi_compute_kernel("dmemset", 0.0, 8.0 * (double)mp * (double)nq, mp, nq, 0))
    __real_HPL_pdmatgen(GRID, M, N, NB, A, LDA, ISEED);
}

double __real_HPL_pdlange(const HPL_T_grid* GRID, const HPL_T_NORM NORM, const int M, const int N,
                          const int NB, const double* A, const int LDA);
double __wrap_HPL_pdlange(const HPL_T_grid* GRID, const HPL_T_NORM NORM, const int M, const int N,
                          const int NB, const double* A, const int LDA) {
  int mp, nq;
  local_size(GRID, M, N, NB, &mp, &nq);
  double elements = (double)mp * (double)nq;
  if (simmpi_compute_kernel("dlange", elements, 8.0 * elements, mp, nq, 0))
    return __real_HPL_pdlange(GRID, NORM, M, N, NB, A, LDA);
  return 1.0; /* model mode: no data, and the residual check is reported as not checked */
}

/* ---- Control flow in model mode ---- */

/* splitmix64 (Steele, Lea, Flood 2014); the state is a global, so each rank has its own. */
static uint64_t pivot_state;
static double random_magnitude(void) {
  if (pivot_state == 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pivot_state = 0x9e3779b97f4a7c15ULL * (uint64_t)(rank + 1);
  }
  uint64_t z = (pivot_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return 0.5 + (double)(z >> 11) / 18014398509481984.0; /* in [0.5, 1) */
}

void __real_HPL_dlocmax(HPL_T_panel* PANEL, const int N, const int II, const int JJ, double* WORK);
void __wrap_HPL_dlocmax(HPL_T_panel* PANEL, const int N, const int II, const int JJ, double* WORK) {
  __real_HPL_dlocmax(PANEL, N, II, JJ, WORK);
  if (N > 0 && !simmpi_compute_executes()) WORK[0] = random_magnitude();
}

void __real_cblas_dcopy(const int N, const double* X, const int INCX, double* Y, const int INCY);
void __wrap_cblas_dcopy(const int N, const double* X, const int INCX, double* Y, const int INCY) {
  __real_cblas_dcopy(N, X, INCX, Y, INCY); /* charges it, and copies in execute mode */
  if (N <= 0 || simmpi_compute_executes() || simmpi_is_shared(Y)) return;
  const double* x = INCX < 0 ? X - (ptrdiff_t)(N - 1) * INCX : X;
  double* y = INCY < 0 ? Y - (ptrdiff_t)(N - 1) * INCY : Y;
  for (int i = 0; i < N; ++i) y[(ptrdiff_t)i * INCY] = x[(ptrdiff_t)i * INCX];
}

/* Panels whose L1, DPIV and DINFO were moved out of their folded buffer (a few per rank). */
enum { kMaxPanels = 64 };
static struct {
  HPL_T_panel* panel;
  double* block;
} moved[kMaxPanels];

void __real_HPL_pdpanel_init(HPL_T_grid* GRID, HPL_T_palg* ALGO, const int M, const int N,
                             const int JB, HPL_T_pmat* A, const int IA, const int JA, const int TAG,
                             HPL_T_panel* PANEL);
void __wrap_HPL_pdpanel_init(HPL_T_grid* GRID, HPL_T_palg* ALGO, const int M, const int N,
                             const int JB, HPL_T_pmat* A, const int IA, const int JA, const int TAG,
                             HPL_T_panel* PANEL) {
  __real_HPL_pdpanel_init(GRID, ALGO, M, N, JB, A, IA, JA, TAG, PANEL);
  if (!PANEL->WORK || !simmpi_is_shared(PANEL->WORK)) return;
  /* HPL broadcasts L1, DPIV and DINFO as one block (HPL_packL), so they stay together. */
  size_t l1 = (size_t)JB * (size_t)JB * sizeof(double);
  size_t pivots = ((size_t)JB + 1) * sizeof(double);
  int slot = 0;
  while (slot < kMaxPanels && moved[slot].panel) ++slot;
  if (slot == kMaxPanels) {
    fprintf(stderr, "simmpi-hpl: more than %d HPL panels at once\n", kMaxPanels);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double* block = (double*)simmpi_partial_shared_malloc(l1 + pivots, l1, l1 + pivots);
  moved[slot].panel = PANEL;
  moved[slot].block = block;
  PANEL->L1 = block;
  PANEL->DPIV = block + (size_t)JB * (size_t)JB;
  PANEL->DINFO = PANEL->DPIV + JB;
  *(PANEL->DINFO) = 0.0;
}

int __real_HPL_pdpanel_free(HPL_T_panel* PANEL);
int __wrap_HPL_pdpanel_free(HPL_T_panel* PANEL) {
  for (int slot = 0; slot < kMaxPanels; ++slot) {
    if (moved[slot].panel != PANEL) continue;
    simmpi_shared_free(moved[slot].block);
    moved[slot].panel = NULL;
    moved[slot].block = NULL;
  }
  return __real_HPL_pdpanel_free(PANEL);
}
