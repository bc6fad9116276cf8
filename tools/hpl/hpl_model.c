/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi-hpl's glue for HPL: each __wrap_X here replaces HPL's function X through the linker's
 * --wrap=X (HPL's files are compiled unchanged), and calls the original, __real_X, when the data
 * must really be computed.
 *  - HPL's own copy and row-swap loops (HPL_dlaswp*, HPL_dlacpy, HPL_dlatcpy), its matrix
 *    generator and its norms are charged as memory-bound kernels of the node model, then run
 *    only in execute mode, as SimBLAS's routines are.
 *  - Model mode keeps HPL's control flow right: each column's pivot row is drawn uniformly among
 *    the rows below the diagonal, the same on every rank (model_pivot; the folded matrix holds
 *    no values); copies into unfolded memory still happen (the pivot exchange of HPL_pdmxswp
 *    carries row indices in a cblas_dcopy); and each panel's pivot
 *    vector (DPIV, DINFO, with L1 before it, which HPL broadcasts as one block) moves out of the
 *    folded panel buffer into a block whose L1 part is folded and whose pivots are private.
 * Included by simmpi-hpl in every HPL build; in execute mode only the charging differs from
 * plain HPL (the loops' time is counted, as SimBLAS's is). */
#include <simmpi.h>
#include <simmpi_compute.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* simmpi-hpl's switches (--explicit-fact, --explicit-update, --model-swap) reach the glue as
 * environment variables, read once per rank (*cached is a global: each rank has its own). */
static int env_switch(const char* name, int* cached) {
  if (*cached < 0) *cached = getenv(name) != NULL;
  return *cached;
}

/* ---- Control flow in model mode ---- */

/* HPL's phase timers (simmpi-hpl --detailed-timing) around what a model stands for, so that HPL's
 * report shows the modeled phase: HPL_ptimer starts or stops timer `which` at each call. A macro
 * since HPL defines the timers' numbers only with HPL_DETAILED_TIMING. */
#ifdef HPL_DETAILED_TIMING
#define PHASE_TIMER(which) HPL_ptimer(which)
#else
#define PHASE_TIMER(which) ((void)0)
#endif

/* splitmix64's finalizer (Steele, Lea, Flood 2014), as a hash. */
static uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void __real_HPL_dlocmax(HPL_T_panel* PANEL, const int N, const int II, const int JJ, double* WORK);
void __wrap_HPL_dlocmax(HPL_T_panel* PANEL, const int N, const int II, const int JJ, double* WORK) {
  if (N <= 0 || simmpi_compute_executes()) {
    __real_HPL_dlocmax(PANEL, N, II, JJ, WORK);
    return;
  }
  /* Model mode: HPL_dlocmax's search, charged as HPL makes it, without reading the entry it
   * finds (folded memory holds no values, and touching a page of it at random costs the host a
   * page fault per column); any nonzero magnitude keeps HPL's control flow (the pivot itself is
   * model_pivot's). */
  const int nb = PANEL->nb, myrow = PANEL->grid->myrow, nprow = PANEL->grid->nprow;
  const int ilindx = (int)cblas_idamax(N, Mptr(PANEL->A, II, JJ, PANEL->lda), 1);
  const int kk = PANEL->ii + II + ilindx;
  int igindx;
  Mindxl2g(igindx, kk, nb, nb, myrow, 0, nprow);
  WORK[0] = 1.0;
  WORK[1] = (double)ilindx;
  WORK[2] = (double)igindx;
  WORK[3] = (double)myrow;
}

void __real_cblas_dcopy(const int N, const double* X, const int INCX, double* Y, const int INCY);
void __wrap_cblas_dcopy(const int N, const double* X, const int INCX, double* Y, const int INCY) {
  __real_cblas_dcopy(N, X, INCX, Y, INCY); /* charges it, and copies in execute mode */
  /* Model mode copies what has values: not into folded memory, nor from it (its values are
   * meaningless, and reading it costs the host page faults). */
  if (N <= 0 || simmpi_compute_executes() || simmpi_is_shared(Y) || simmpi_is_shared(X)) return;
  const double* x = INCX < 0 ? X - (ptrdiff_t)(N - 1) * INCX : X;
  double* y = INCY < 0 ? Y - (ptrdiff_t)(N - 1) * INCY : Y;
  for (int i = 0; i < N; ++i) y[(ptrdiff_t)i * INCY] = x[(ptrdiff_t)i * INCX];
}

static void* checked_malloc(size_t bytes) {
  void* p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "simmpi-hpl: out of memory (%zu bytes) in the model of HPL\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* Panels whose L1, DPIV and DINFO were moved out of their folded buffer (a few per rank), and
 * blocks kept for the next panels: a new block would be a new mapping of folded memory, whose
 * pages the factorization's reads of L1 would fault in again for every panel. On the heap, one
 * table per rank: the program's globals are copied at every switch between ranks. */
enum { kMaxPanels = 64, kSpareBlocks = 4 };
struct PanelBlock {
  HPL_T_panel* panel;
  double* block;
  size_t bytes;
};
static struct PanelBlocks {
  struct PanelBlock moved[kMaxPanels], spare[kSpareBlocks];
} * panel_blocks;

static struct PanelBlocks* rank_panel_blocks(void) {
  if (!panel_blocks) {
    panel_blocks = (struct PanelBlocks*)checked_malloc(sizeof *panel_blocks);
    memset(panel_blocks, 0, sizeof *panel_blocks);
  }
  return panel_blocks;
}

static double* panel_block(size_t bytes, size_t l1) {
  struct PanelBlock* spare = rank_panel_blocks()->spare;
  for (int i = 0; i < kSpareBlocks; ++i) {
    if (!spare[i].block || spare[i].bytes != bytes) continue;
    double* block = spare[i].block;
    spare[i].block = NULL;
    return block;
  }
  return (double*)simmpi_partial_shared_malloc(bytes, l1, bytes);
}

static void release_panel_block(double* block, size_t bytes) {
  struct PanelBlock* spare = rank_panel_blocks()->spare;
  for (int i = 0; i < kSpareBlocks; ++i) {
    if (spare[i].block) continue;
    spare[i].block = block;
    spare[i].bytes = bytes;
    return;
  }
  simmpi_shared_free(block);
}

/* simmpi-hpl --progress sets SIMMPI_HPL_PROGRESS: the process at (0, 0) of the grid says when
 * each twentieth of the panels starts (HPL initializes each panel once), and simmpi-hpl adds the
 * wall time and an estimate of what is left. Rank 0's own code prints it, with no MPI call and no
 * clock read, so the simulation runs exactly as without. */
static void report_progress(const HPL_T_grid* GRID, const HPL_T_pmat* A, const int JA) {
  static int cached = -1;
  if (GRID->iam != 0 || !env_switch("SIMMPI_HPL_PROGRESS", &cached)) return;
  const int panels = (A->n + A->nb - 1) / A->nb, panel = JA / A->nb;
  const int step = panels >= 20 ? panels / 20 : 1;
  if (panel % step == 0 || panel == panels - 1)
    fprintf(stderr, "simmpi-hpl: progress: panel %d of %d\n", panel + 1, panels);
}

void __real_HPL_pdpanel_init(HPL_T_grid* GRID, HPL_T_palg* ALGO, const int M, const int N,
                             const int JB, HPL_T_pmat* A, const int IA, const int JA, const int TAG,
                             HPL_T_panel* PANEL);
void __wrap_HPL_pdpanel_init(HPL_T_grid* GRID, HPL_T_palg* ALGO, const int M, const int N,
                             const int JB, HPL_T_pmat* A, const int IA, const int JA, const int TAG,
                             HPL_T_panel* PANEL) {
  report_progress(GRID, A, JA);
  __real_HPL_pdpanel_init(GRID, ALGO, M, N, JB, A, IA, JA, TAG, PANEL);
  if (!PANEL->WORK || !simmpi_is_shared(PANEL->WORK)) return;
  /* HPL broadcasts L1, DPIV and DINFO as one block (HPL_packL), so they stay together. */
  size_t l1 = (size_t)JB * (size_t)JB * sizeof(double);
  size_t pivots = ((size_t)JB + 1) * sizeof(double);
  struct PanelBlock* moved = rank_panel_blocks()->moved;
  int slot = 0;
  while (slot < kMaxPanels && moved[slot].panel) ++slot;
  if (slot == kMaxPanels) {
    fprintf(stderr, "simmpi-hpl: more than %d HPL panels at once\n", kMaxPanels);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double* block = panel_block(l1 + pivots, l1);
  moved[slot].panel = PANEL;
  moved[slot].block = block;
  moved[slot].bytes = l1 + pivots;
  PANEL->L1 = block;
  PANEL->DPIV = block + (size_t)JB * (size_t)JB;
  PANEL->DINFO = PANEL->DPIV + JB;
  *(PANEL->DINFO) = 0.0;
}

int __real_HPL_pdpanel_free(HPL_T_panel* PANEL);
int __wrap_HPL_pdpanel_free(HPL_T_panel* PANEL) {
  struct PanelBlock* moved = rank_panel_blocks()->moved;
  for (int slot = 0; slot < kMaxPanels; ++slot) {
    if (moved[slot].panel != PANEL) continue;
    release_panel_block(moved[slot].block, moved[slot].bytes);
    moved[slot].panel = NULL;
    moved[slot].block = NULL;
  }
  return __real_HPL_pdpanel_free(PANEL);
}

/* ---- Panel factorization in model mode ----
 * HPL_pdfact on the P ranks of the panel's process column makes, for each of the panel's JB
 * columns, a few local BLAS calls and one pivot exchange of log2(P) rounds (HPL_pdmxswp): at
 * Frontera's size that is most of a run's events. Each column costs the slowest rank's compute
 * for that column plus one exchange, since every exchange waits for the whole column. In model
 * mode the factorization still runs HPL's own code (its recursion, whichever variant HPL.dat
 * picks, and all its bookkeeping), but:
 *  - its BLAS charges are deferred (let no time pass) and recorded per column;
 *  - HPL_pdmxswp does not communicate: every rank of the column picks the same pivot row
 *    (model_pivot), so DPIV ends up the same on all of them, as the real exchange guarantees;
 *  - then one MPI_Allreduce over the column takes the per-column maximum of the compute times
 *    (and synchronizes the column, as HPL's first exchange does), two real HPL_pdmxswp
 *    exchanges (with the last column's arguments) time one exchange, each carrying the latest
 *    end of the step before so that every rank learns the same times, and every rank sleeps
 *    until the same instant: the end of JB exchanges and of the slowest compute of each column.
 * So each rank of the column makes ~3 log2(P) message events per panel instead of ~3 JB log2(P).
 * The figures against HPL's own factorization (simmpi-hpl --explicit-fact) are in docs/hpl.md. */

static struct {
  int active;           /* inside a modeled HPL_pdfact */
  int columns;          /* exchanges made so far */
  double* compute;      /* compute time before each exchange (JB entries) */
  double deferred_mark; /* deferred total at the last exchange */
  int m, ii, jj;        /* the last exchange's arguments, to time real ones with afterwards */
} fact;

/* The pivot of column JJ in model mode: every rank of the column picks the same row from the
 * column's global index, uniformly among the rows still below the diagonal, as partial pivoting
 * does on HPL's random matrix. Fills WORK as HPL_pdmxswp leaves it (magnitude, local row index on
 * its owner relative to II, global row index, owning process row) and records the pivot. */
static int modeled_pivot_row(const HPL_T_panel* PANEL, const int JJ) {
  const int diagonal = PANEL->ia + JJ, candidates = PANEL->m - JJ;
  return diagonal + (int)(mix64((uint64_t)diagonal) % (uint64_t)candidates);
}

static void model_pivot(HPL_T_panel* PANEL, const int M, const int II, const int JJ, double* WORK) {
  const int nb = PANEL->nb, nprow = PANEL->grid->nprow;
  const int row = modeled_pivot_row(PANEL, JJ);
  const int owner = HPL_indxg2p(row, nb, nb, 0, nprow);
  const int local = HPL_indxg2l(row, nb, nb, 0, nprow) - PANEL->ii - II;
  if (owner == PANEL->grid->myrow && (local < 0 || local >= M)) {
    fprintf(stderr,
            "simmpi-hpl: internal error: modeled pivot row %d is not among process row %d's "
            "%d rows from local row %d\n",
            row, owner, M, PANEL->ii + II);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  WORK[0] = 1.0;
  WORK[1] = (double)local;
  WORK[2] = (double)row;
  WORK[3] = (double)owner;
  PANEL->DPIV[JJ] = (double)row;
}

void __real_HPL_pdmxswp(HPL_T_panel* PANEL, const int M, const int II, const int JJ, double* WORK);
void __wrap_HPL_pdmxswp(HPL_T_panel* PANEL, const int M, const int II, const int JJ, double* WORK) {
  if (!fact.active) {
    /* Execute mode, or model mode with --explicit-fact: the real exchange, and in model mode
     * the same pivot as the modeled factorization picks, so that the two differ only in how
     * the factorization's time is simulated. */
    __real_HPL_pdmxswp(PANEL, M, II, JJ, WORK);
    if (!simmpi_compute_executes()) model_pivot(PANEL, M, II, JJ, WORK);
    return;
  }
  if (fact.columns >= PANEL->jb) {
    fprintf(stderr, "simmpi-hpl: internal error: more pivot searches than the panel's %d columns\n",
            PANEL->jb);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  model_pivot(PANEL, M, II, JJ, WORK);
  const double deferred = simmpi_compute_deferred();
  fact.compute[fact.columns++] = deferred - fact.deferred_mark;
  fact.deferred_mark = deferred;
  fact.m = M;
  fact.ii = II;
  fact.jj = JJ;
}

/* HPL_dlocswp[NT] move the pivot row and the diagonal row within the panel and into L1: folded
 * data in model mode, where only a zero pivot (which it records in DINFO) would steer HPL. Run,
 * they copied the uninitialized rows of HPL_pdfact's workspace into L1, whose entries HPL_pdpanrlT
 * then passes to HPL_daxpy as alpha, and an alpha of zero is a BLAS call that does nothing: the
 * prediction depended on stale memory (and they were 9% of the host time at 16 x 16). */
void __real_HPL_dlocswpN(HPL_T_panel* PANEL, const int II, const int JJ, double* WORK);
void __wrap_HPL_dlocswpN(HPL_T_panel* PANEL, const int II, const int JJ, double* WORK) {
  if (simmpi_compute_executes() || WORK[0] == 0.0) __real_HPL_dlocswpN(PANEL, II, JJ, WORK);
}
void __real_HPL_dlocswpT(HPL_T_panel* PANEL, const int II, const int JJ, double* WORK);
void __wrap_HPL_dlocswpT(HPL_T_panel* PANEL, const int II, const int JJ, double* WORK) {
  if (simmpi_compute_executes() || WORK[0] == 0.0) __real_HPL_dlocswpT(PANEL, II, JJ, WORK);
}

/* Runs one real HPL_pdmxswp exchange with the arguments of the factorization's last column,
 * carrying `value` as this rank's candidate magnitude, and returns the column's largest value
 * (the exchange is a max-reduction over the column). The pivot it records is put back. */
static double exchange(HPL_T_panel* PANEL, double* work, double value) {
  const double pivot = PANEL->DPIV[fact.jj];
  __wrap_HPL_dlocmax(PANEL, fact.m, fact.ii, fact.jj, work);
  work[0] = value;
  __real_HPL_pdmxswp(PANEL, fact.m, fact.ii, fact.jj, work);
  PANEL->DPIV[fact.jj] = pivot;
  return work[0];
}

/* simmpi-hpl --explicit-fact sets SIMMPI_HPL_EXPLICIT_FACT: HPL's own factorization then runs
 * as it is, every exchange simulated (to check the model against). */
static int explicit_fact(void) {
  static int cached = -1;
  return env_switch("SIMMPI_HPL_EXPLICIT_FACT", &cached);
}

void __real_HPL_pdfact(HPL_T_panel* PANEL);
void __wrap_HPL_pdfact(HPL_T_panel* PANEL) {
  const int jb = PANEL->jb;
  if (simmpi_compute_executes() || jb <= 0 || PANEL->grid->mycol != PANEL->pcol ||
      explicit_fact()) {
    __real_HPL_pdfact(PANEL); /* elsewhere it only moves the panel's bookkeeping on */
    return;
  }
  fact.compute = (double*)checked_malloc((size_t)jb * sizeof(double));
  fact.columns = 0;
  fact.deferred_mark = 0.0;
  simmpi_compute_defer_begin();
  fact.active = 1;
  __real_HPL_pdfact(PANEL);
  fact.active = 0;
  const double tail = simmpi_compute_defer_end() - fact.deferred_mark; /* after the last one */
  if (fact.columns != jb) {
    fprintf(stderr,
            "simmpi-hpl: internal error: the panel factorization made %d exchanges, not %d\n",
            fact.columns, jb);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  fact.compute[jb - 1] += tail;
  /* HPL's own factorization timer saw none of the deferred time: this one times the model. */
  PHASE_TIMER(HPL_TIMING_RPFACT);
  double compute = 0.0;
  if (PANEL->grid->nprow == 1) { /* HPL_pdmxswp exchanges nothing then */
    for (int c = 0; c < jb; ++c) compute += fact.compute[c];
    simmpi_sleep(compute);
    free(fact.compute);
    PHASE_TIMER(HPL_TIMING_RPFACT);
    return;
  }
  /* The slowest rank's compute for each column; this also waits for the whole column. */
  MPI_Allreduce(MPI_IN_PLACE, fact.compute, jb, MPI_DOUBLE, MPI_MAX, PANEL->grid->col_comm);
  for (int c = 0; c < jb; ++c) compute += fact.compute[c];
  free(fact.compute);
  /* HPL_pdfact's workspace: the pivot row and the diagonal row, and room for a partner's. */
  double* work = (double*)checked_malloc(((size_t)4 + 2 * (size_t)jb) * 2 * sizeof(double));
  const double first = exchange(PANEL, work, MPI_Wtime());  /* latest end of the allreduce */
  const double second = exchange(PANEL, work, MPI_Wtime()); /* latest end of exchange 1 */
  free(work);
  /* The allreduce stands for exchange 0: JB exchanges end jb - 1 exchange times after it. */
  const double end = first + (double)(jb - 1) * (second - first) + compute;
  const double now = MPI_Wtime();
  if (end > now) simmpi_sleep(end - now);
  PHASE_TIMER(HPL_TIMING_RPFACT);
}

/* ---- HPL's pivot bookkeeping: computed once per panel, not once per rank ----
 * HPL_pipid (the panel's pivots as pairs of rows to swap, quadratic in JB) and HPL_plindx1 (which
 * rows each process row sends and receives, with HPL_perm) run on every rank for every panel: at
 * 256 ranks over half the simulator's host time, and it grows with the rank count. Their results
 * depend only on the pivots (the same on every rank), the panel's position and the process row,
 * so the first rank to need them computes them and the others copy them from a cache shared by
 * all ranks (simmpi_process_state). Exact: a cached result is used only when every input is
 * equal, compared in full; in execute mode too. */

enum { kMemoPanels = 8 }; /* panels whose results are kept: ranks run a few panels apart */

/* Where this rank last found each shared cache: naming a cache and looking it up at every call (a
 * snprintf and a search by name) was 3% of a full-size Frontera run. */
enum { kMemoBases = 8 };
static struct MemoBase {
  const char* what;
  int nb, rows;
  size_t ints;
  int* base;
} memo_bases[kMemoBases];

/* The block of `ints` ints for `slot` in the shared cache `what`, one per NB, process count and
 * size of an entry. */
static int* memo_slot(const char* what, int nb, int rows, size_t ints, int slot) {
  struct MemoBase* m = memo_bases;
  for (; m < memo_bases + kMemoBases && m->base; ++m)
    if (m->nb == nb && m->rows == rows && m->ints == ints && !strcmp(m->what, what))
      return m->base + (size_t)slot * ints;
  char name[128];
  snprintf(name, sizeof name, "simmpi-hpl %s nb=%d rows=%d ints=%zu", what, nb, rows, ints);
  int* base = (int*)simmpi_process_state(name, (size_t)rows * kMemoPanels * ints * sizeof(int));
  if (m < memo_bases + kMemoBases) *m = (struct MemoBase){what, nb, rows, ints, base};
  return base + (size_t)slot * ints;
}

void __real_HPL_pipid(HPL_T_panel* PANEL, int* K, int* IPID);
void __wrap_HPL_pipid(HPL_T_panel* PANEL, int* K, int* IPID) {
  const int nb = PANEL->nb, jb = PANEL->jb, ia = PANEL->ia;
  /* valid, ia, jb, K; the pivots (jb doubles, as 2 jb ints); IPID (at most 4 jb ints) */
  const size_t ints = 4 + 2 * (size_t)nb + 4 * (size_t)nb;
  int* e = memo_slot("pipid", nb, 1, ints, (ia / nb) % kMemoPanels);
  double* pivots = (double*)(void*)(e + 4);
  int* ipid = e + 4 + 2 * nb;
  if (e[0] && e[1] == ia && e[2] == jb &&
      !memcmp(pivots, PANEL->DPIV, (size_t)jb * sizeof(double))) {
    *K = e[3];
    memcpy(IPID, ipid, (size_t)e[3] * sizeof(int));
    return;
  }
  __real_HPL_pipid(PANEL, K, IPID);
  e[0] = 1;
  e[1] = ia;
  e[2] = jb;
  e[3] = *K;
  memcpy(pivots, PANEL->DPIV, (size_t)jb * sizeof(double));
  memcpy(ipid, IPID, (size_t)*K * sizeof(int));
}

void __real_HPL_plindx1(HPL_T_panel* PANEL, const int K, const int* IPID, int* IPA, int* LINDXA,
                        int* LINDXAU, int* IPLEN, int* IPMAP, int* IPMAPM1, int* PERMU, int* IWORK);
void __wrap_HPL_plindx1(HPL_T_panel* PANEL, const int K, const int* IPID, int* IPA, int* LINDXA,
                        int* LINDXAU, int* IPLEN, int* IPMAP, int* IPMAPM1, int* PERMU,
                        int* IWORK) {
  const int nb = PANEL->nb, jb = PANEL->jb, ia = PANEL->ia, nprow = PANEL->grid->nprow;
  const size_t n = (size_t)nb, p = (size_t)nprow;
  /* valid, ia, jb, ii, prow, K; IPID (4 nb); IPA (1); LINDXA, LINDXAU (2 nb each); IPLEN
   * (nprow + 1); IPMAP, IPMAPM1 (nprow each); PERMU (nb); and IWORK (2 nb): a workspace, but
   * what HPL_plindx1 leaves in it is read later (a run differed without it). */
  const size_t ints = 6 + 4 * n + 1 + 4 * n + 3 * p + 1 + n + 2 * n;
  const int slot = PANEL->grid->myrow * kMemoPanels + (ia / nb) % kMemoPanels;
  int* e = memo_slot("plindx1", nb, nprow, ints, slot);
  int* ipid = e + 6;
  int* ipa = ipid + 4 * n;
  int* lindxa = ipa + 1;
  int* lindxau = lindxa + 2 * n;
  int* iplen = lindxau + 2 * n;
  int* ipmap = iplen + p + 1;
  int* ipmapm1 = ipmap + p;
  int* permu = ipmapm1 + p;
  int* iwork = permu + n;
  const size_t rows = (size_t)jb;
  /* LINDXA, LINDXAU and PERMU are read only by the row-swap loops (HPL_dlaswp*), which model
   * mode charges without running them: there they are not copied (2/3 of the bytes). */
  const int swaps_run = simmpi_compute_executes();
  const struct {
    int* cached;
    int* caller;
    size_t ints;
  } outputs[] = {{ipa, IPA, 1},
                 {lindxa, LINDXA, swaps_run ? 2 * rows : 0},
                 {lindxau, LINDXAU, swaps_run ? 2 * rows : 0},
                 {iplen, IPLEN, p + 1},
                 {ipmap, IPMAP, p},
                 {ipmapm1, IPMAPM1, p},
                 {permu, PERMU, swaps_run ? rows : 0},
                 {iwork, IWORK, 2 * rows}};
  const int hit = e[0] && e[1] == ia && e[2] == jb && e[3] == PANEL->ii && e[4] == PANEL->prow &&
                  e[5] == K && !memcmp(ipid, IPID, (size_t)K * sizeof(int));
  if (!hit) {
    __real_HPL_plindx1(PANEL, K, IPID, IPA, LINDXA, LINDXAU, IPLEN, IPMAP, IPMAPM1, PERMU, IWORK);
    e[0] = 1;
    e[1] = ia;
    e[2] = jb;
    e[3] = PANEL->ii;
    e[4] = PANEL->prow;
    e[5] = K;
    memcpy(ipid, IPID, (size_t)K * sizeof(int));
  }
  for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; ++i) {
    int* to = hit ? outputs[i].caller : outputs[i].cached;
    const int* from = hit ? outputs[i].cached : outputs[i].caller;
    memcpy(to, from, outputs[i].ints * sizeof(int));
  }
}

/* Whether process row `mydist` (in HPL_spreadT's numbering) sends or receives anything in
 * HPL_spreadT(SIDE, SRCDIST, IPLEN): HPL_spreadT.c's loop with its messages left out, its two
 * sides kept as HPL writes them, so that each can be checked line by line against HPL's. */
static int spreadT_moves(const enum HPL_SIDE side, const int srcdist, int nprow,
                         unsigned int mydist, const int* iplen) {
  unsigned int ip2 = 1, mask = 1, mydist2;
  int k, il, npm1, lbuf;
  if (side == HplLeft) {
    nprow = (npm1 = srcdist) + 1;
    if (mydist > (unsigned int)srcdist || npm1 == 0) return 0;
    for (k = npm1; k > 1; k >>= 1) {
      ip2 <<= 1;
      mask = (mask << 1) + 1;
    }
    mydist2 = (mydist = (unsigned int)npm1 - mydist);
    il = npm1 - (int)ip2;
    do {
      mask ^= ip2;
      if ((mydist & mask) == 0) {
        lbuf = iplen[il + 1] - iplen[il - Mmin(il, (int)ip2)];
        if (lbuf > 0 && ((mydist & ip2) || (int)(mydist ^ ip2) < nprow)) return 1;
      }
      if (mydist2 < ip2) {
        ip2 >>= 1;
        il += (int)ip2;
      } else {
        mydist2 -= ip2;
        ip2 >>= 1;
        il -= (int)ip2;
      }
    } while (ip2 > 0);
    return 0;
  }
  npm1 = (nprow -= srcdist) - 1;
  if (mydist < (unsigned int)srcdist || npm1 == 0) return 0;
  for (k = npm1; k > 1; k >>= 1) {
    ip2 <<= 1;
    mask = (mask << 1) + 1;
  }
  mydist2 = (mydist -= (unsigned int)srcdist);
  il = (int)ip2;
  const int lgth = iplen[srcdist + nprow];
  do {
    mask ^= ip2;
    if ((mydist & mask) == 0) {
      k = il + (int)ip2;
      lbuf = (k >= nprow ? lgth : iplen[srcdist + k]) - iplen[srcdist + il];
      if (lbuf > 0 && ((mydist & ip2) || (int)(mydist ^ ip2) < nprow)) return 1;
    }
    if (mydist2 < ip2) {
      ip2 >>= 1;
      il -= (int)ip2;
    } else {
      mydist2 -= ip2;
      ip2 >>= 1;
      il += (int)ip2;
    }
  } while (ip2 > 0);
  return 0;
}

/* HPL_equil (equilibration, after the row-swap spread) evens out how many rows of U each process
 * row holds: for each process row holding rows outside its share, a loop over all process rows
 * works out the target distribution (IWORK) and HPL_spreadT moves the rows left and/or right. The
 * loop is O(P^2) per call on every rank, 8-9% of a full-size Frontera run's host time (P = 88),
 * and depends only on IPLEN (the rows each process row holds, the same on every rank for a
 * panel). So the first rank computes, as HPL_equil.c does, which process rows spread where with
 * which IWORK, the others reuse it, and every rank makes HPL's spreads in HPL's order. Exact:
 * the cached plan is used only when all of IPLEN is equal (in execute mode too), and a rank
 * whose slot holds another panel's plan still in use runs HPL_equil itself. The plan also says
 * which process rows send or receive anything in each spread: at P = 88 a rank takes part in
 * only a few of its ~50 spreads per panel, and HPL_spreadT's loop through the others (nothing to
 * move, and no broadcast to test once the next panel is in) was 6% of a full-size Frontera
 * run's host time; those calls are left out, and IWORK ends as HPL's loop leaves it. */
void __real_HPL_equil(HPL_T_panel* PBCST, int* IFLAG, HPL_T_panel* PANEL,
                      const enum HPL_TRANS TRANS, const int N, double* U, const int LDU, int* IPLEN,
                      const int* IPMAP, const int* IPMAPM1, int* IWORK);
void __wrap_HPL_equil(HPL_T_panel* PBCST, int* IFLAG, HPL_T_panel* PANEL,
                      const enum HPL_TRANS TRANS, const int N, double* U, const int LDU, int* IPLEN,
                      const int* IPMAP, const int* IPMAPM1, int* IWORK) {
  const int nprow = PANEL->grid->nprow, npm1 = nprow - 1, nb = PANEL->nb;
  if (npm1 <= 1) return;
  const int slen = IPLEN[nprow];
  const int smax = (slen + npm1) / nprow, smin = slen / nprow, ip = slen - nprow * smin;
  int iprow = 0, ll;
  do {
    ll = IPLEN[iprow + 1] - IPLEN[iprow];
    iprow++;
  } while (iprow < nprow && (ll == smin || ll == smax));
  if (iprow == nprow) return; /* balanced already */
  /* The plan: valid, spreads, ranks using it; IPLEN (nprow + 1); per spread: process row, left,
   * right, IWORK (nprow + 1), and for each side whether each process row (by distance) moves
   * anything (2 nprow). */
  const size_t p = (size_t)nprow, per = 3 + p + 1 + 2 * p;
  const size_t ints = 3 + (p + 1) + p * per;
  /* one plan per slot, for the whole grid (its size tells the grids apart) */
  int* plan = memo_slot("equil", nb, 1, ints, (PANEL->ia / nb) % kMemoPanels);
  int* iplen = plan + 3;
  int* spreads = iplen + p + 1;
  if (!plan[0] || memcmp(iplen, IPLEN, (p + 1) * sizeof(int))) {
    if (plan[2] > 0) { /* another panel's plan, still in use: HPL's own code */
      __real_HPL_equil(PBCST, IFLAG, PANEL, TRANS, N, U, LDU, IPLEN, IPMAP, IPMAPM1, IWORK);
      return;
    }
    plan[0] = 0;
    plan[1] = 0;
    memcpy(iplen, IPLEN, (p + 1) * sizeof(int));
    for (iprow = 0; iprow < nprow; iprow++) { /* HPL_equil.c's loop, without the spreads */
      const int ipU = IPLEN[iprow], llU = IPLEN[iprow + 1] - ipU;
      int lltgt = iprow < ip ? smax : smin;
      int iptgt = iprow < ip ? iprow * smax : iprow * smin + ip;
      const int left = ipU < iptgt, right = iptgt + lltgt < ipU + llU;
      if (llU <= 0 || !(left || right)) continue;
      int* e = spreads + (size_t)plan[1]++ * per;
      e[0] = iprow;
      e[1] = left;
      e[2] = right;
      int* work = e + 3;
      int ipcur = ipU, llcur = llU;
      for (int i = 0; i < nprow; i++) {
        lltgt = i < ip ? smax : smin;
        iptgt = i < ip ? i * smax : i * smin + ip;
        const int lastrow = iptgt + lltgt - 1;
        int l = 0;
        if (lastrow >= ipcur && llcur > 0) {
          l = Mmin(lastrow - ipcur + 1, llcur);
          llcur -= l;
        }
        work[i] = ipcur;
        ipcur += l;
        work[i + 1] = ipcur;
      }
      int* moves = work + p + 1;
      for (int side = 0; side < 2; side++)
        for (int d = 0; d < nprow; d++)
          moves[(size_t)side * p + (size_t)d] =
              e[1 + side] &&
              spreadT_moves(side == 0 ? HplLeft : HplRight, iprow, nprow, (unsigned int)d, work);
    }
    plan[0] = 1;
  }
  plan[2]++; /* in use: the spreads switch to other ranks, which must not replace it meanwhile */
  IWORK[nprow] = slen;
  const size_t mydist = (size_t)IPMAPM1[PANEL->grid->myrow];
  int copied = -1; /* the spread whose IWORK is in IWORK */
  for (int k = 0; k < plan[1]; k++) {
    const int* e = spreads + (size_t)k * per;
    const int* moves = e + 3 + p + 1;
    for (int side = 0; side < 2; side++) {
      if (!e[1 + side]) continue;
      /* HPL_spreadT would move nothing here, and test no broadcast */
      if (TRANS == HplTrans && !moves[(size_t)side * p + mydist] && *IFLAG != HPL_KEEP_TESTING)
        continue;
      if (copied != k) memcpy(IWORK, e + 3, (p + 1) * sizeof(int));
      copied = k;
      const enum HPL_SIDE where = side == 0 ? HplLeft : HplRight;
      if (TRANS == HplNoTrans)
        HPL_spreadN(PBCST, IFLAG, PANEL, where, N, U, LDU, e[0], IWORK, IPMAP, IPMAPM1);
      else
        HPL_spreadT(PBCST, IFLAG, PANEL, where, N, U, LDU, e[0], IWORK, IPMAP, IPMAPM1);
    }
  }
  if (plan[1] > 0 && copied != plan[1] - 1) /* as HPL's loop leaves it */
    memcpy(IWORK, spreads + (size_t)(plan[1] - 1) * per + 3, (p + 1) * sizeof(int));
  plan[2]--;
  for (int i = 0; i < nprow; i++) IPLEN[i] = i < ip ? i * smax : i * smin + ip;
}

/* ---- The trailing update in model mode ----
 * HPL_pdupdateTT updates the trailing matrix in chunks of NB columns and, between chunks, tests
 * whether the next panel's broadcast has reached this rank (HPL_bcast: one MPI_Iprobe while the
 * panel is not there); once it is, it updates the rest in one go. At the TOP500 runs' size that
 * is up to ~270 chunks per panel, most of a run's events. In model mode the chunks compute
 * nothing and all cost the same, so the loop's simulated times are known in advance except for
 * when the probe succeeds: simmpi_poll_rounds makes all of its fruitless rounds in one or two
 * events and stops before the probe that finds the panel, which HPL_bcast then makes for real.
 * Exactly the loop's times (docs/hpl.md; test hpl_update_model). Used for the ring broadcasts
 * (1ring, 1ringM, 2ring, 2ringM), whose fruitless test is that one probe and nothing else, with
 * the probe's target learnt from HPL_bcast's own call; the long broadcasts (blong, blongM) make
 * progress between probes and keep HPL's loop. */

static struct {
  int tracking; /* counting the MPI_Iprobe calls of one HPL_bcast test */
  int probes;
  int source, tag;
  MPI_Comm comm;
} probe;

int __real_MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status);
int __wrap_MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  if (probe.tracking) {
    ++probe.probes;
    probe.source = source;
    probe.tag = tag;
    probe.comm = comm;
  }
  return __real_MPI_Iprobe(source, tag, comm, flag, status);
}

/* HPL_bcast's test; 1 when it found nothing after exactly one probe (now in `probe`), for a
 * broadcast whose fruitless test is exactly that. */
static int bcast_test(HPL_T_panel* PBCST, int* test) {
  probe.tracking = 1;
  probe.probes = 0;
  (void)HPL_bcast(PBCST, test);
  probe.tracking = 0;
  if (*test != HPL_KEEP_TESTING || probe.probes != 1) return 0;
  const HPL_T_TOP topo = PBCST->algo->btopo;
  return topo == HPL_1RING || topo == HPL_1RING_M || topo == HPL_2RING || topo == HPL_2RING_M;
}

static int explicit_update(void) {
  static int cached = -1;
  return env_switch("SIMMPI_HPL_EXPLICIT_UPDATE", &cached);
}

/* One chunk of HPL_pdupdateTT: columns [nq0, nq0 + nn) of the trailing matrix, the same calls
 * as HPL's loop makes for it (HPL_pdupdateTT.c). */
static void update_chunk(HPL_T_panel* PANEL, int n, int nq0, int nn) {
  const int jb = PANEL->jb, lda = PANEL->lda, ldl2 = PANEL->ldl2;
  double* Aptr = Mptr(PANEL->A, 0, nq0, lda);
  if (PANEL->grid->nprow == 1) {
    HPL_dlaswp00N(jb, nn, Aptr, lda, PANEL->IWORK);
    HPL_dtrsm(HplColumnMajor, HplLeft, HplUpper, HplTrans, HplUnit, jb, nn, HPL_rone, PANEL->L1, jb,
              Aptr, lda);
    HPL_dgemm(HplColumnMajor, HplNoTrans, HplNoTrans, PANEL->mp - jb, nn, jb, -HPL_rone, PANEL->L2,
              ldl2, Aptr, lda, HPL_rone, Mptr(Aptr, jb, 0, lda), lda);
    return;
  }
  const int curr = PANEL->grid->myrow == PANEL->prow, mp = PANEL->mp - (curr ? jb : 0);
  double* Uptr = Mptr(PANEL->U, nq0, 0, n);
  HPL_dtrsm(HplColumnMajor, HplRight, HplUpper, HplNoTrans, HplUnit, nn, jb, HPL_rone, PANEL->L1,
            jb, Uptr, n);
  HPL_dgemm(HplColumnMajor, HplNoTrans, HplTrans, mp, nn, jb, -HPL_rone, PANEL->L2, ldl2, Uptr, n,
            HPL_rone, curr ? Mptr(Aptr, jb, 0, lda) : Aptr, lda);
  if (curr) HPL_dlatcpy(jb, nn, Uptr, n, Aptr, lda);
}

void __real_HPL_pdupdateTT(HPL_T_panel* PBCST, int* IFLAG, HPL_T_panel* PANEL, const int NN);
void __wrap_HPL_pdupdateTT(HPL_T_panel* PBCST, int* IFLAG, HPL_T_panel* PANEL, const int NN) {
  const int nb = PANEL->nb, jb = PANEL->jb;
  const int n = NN >= 0 ? Mmin(NN, PANEL->nq) : PANEL->nq;
  if (simmpi_compute_executes() || explicit_update()) {
    __real_HPL_pdupdateTT(PBCST, IFLAG, PANEL, NN);
    return;
  }
  PHASE_TIMER(HPL_TIMING_UPDATE);
  if (n <= 0 || jb <= 0) { /* nothing to update: HPL waits for the panel, probing */
    if (PBCST != NULL) {
      int known = bcast_test(PBCST, IFLAG);
      while (*IFLAG != HPL_SUCCESS) {
        long round = 1;
        if (known) simmpi_poll_rounds(0.0, -1, probe.source, probe.tag, probe.comm, &round);
        known = bcast_test(PBCST, IFLAG);
      }
    }
    PHASE_TIMER(HPL_TIMING_UPDATE);
    return;
  }
  int test;
  int known = bcast_test(PBCST, &test);
  if (PANEL->grid->nprow == 1) {
    for (int i = 0; i < jb; i++) PANEL->IWORK[i] = (int)(PANEL->DPIV[i]) - PANEL->ii;
  } else {
    const HPL_T_SWAP fswap = PANEL->algo->fswap;
    if (fswap == HPL_SWAP01 || (fswap == HPL_SW_MIX && n > PANEL->algo->fsthr))
      HPL_pdlaswp01T(PBCST, &test, PANEL, n);
    else
      HPL_pdlaswp00T(PBCST, &test, PANEL, n);
    /* The swaps test the broadcast too: the last of their tests has to be the one probe. */
    known = known && test == HPL_KEEP_TESTING;
  }
  int nq0 = 0;
  while (test == HPL_KEEP_TESTING) {
    const int nn = Mmin(nb, n - nq0);
    if (!known) { /* HPL's own loop */
      update_chunk(PANEL, n, nq0, nn);
      nq0 += nn;
      known = bcast_test(PBCST, &test);
      continue;
    }
    /* Rounds of equal chunks: all the full ones, then the last partial one, then empty ones
     * (HPL keeps testing with nothing left to update). */
    const long rounds = nn == nb ? (n - nq0) / nb : nn > 0 ? 1 : -1;
    simmpi_compute_defer_begin();
    if (nn > 0) update_chunk(PANEL, n, nq0, nn);
    const double chunk = simmpi_compute_defer_end();
    long round = 0;
    simmpi_poll_rounds(chunk, rounds, probe.source, probe.tag, probe.comm, &round);
    nq0 += nn * (int)(round ? round : rounds);
    if (round) known = bcast_test(PBCST, &test); /* finds the panel */
  }
  const int nn = n - nq0;
  if (nn > 0) update_chunk(PANEL, n, nq0, nn);
  PHASE_TIMER(HPL_TIMING_UPDATE);
}

/* ---- The row-swap ring, modeled (opt-in: simmpi-hpl --model-swap) ----
 * HPL_rollT passes the pivot rows of U around the process column in P - 1 steps (each an
 * exchange with one neighbour, alternately the next and the previous one, then a test of the
 * next panel's broadcast): at Frontera's 88 process rows, ~87 steps per rank and panel, twice
 * (HPL rolls the lookahead's columns and the rest separately), most of a full-size run's events.
 * With --model-swap (P >= 3) each rank instead sends each neighbour, at once, all that the ring
 * would send it, and receives likewise: the same bytes on the same links, in 4 messages instead
 * of up to 2 (P - 1), and still a real exchange with the neighbours (a late or busy neighbour
 * holds the rank up). What this leaves out: the ring's P - 2 further latencies per roll, and the
 * broadcast tests between its steps (one test after the exchange instead). The second matters
 * when the next panel's broadcast lands during the ring: a rank that takes it (receives and
 * forwards the panel) holds up the whole ring, and its neighbours, stuck in the ring, cannot
 * test for their own panel meanwhile, so such stalls add up. Hence opt-in: -0.5% to +1.6% from
 * HPL's own ring at the TOP500 proxies' size per rank, up to 15% off with small blocks per rank
 * (docs/hpl.md). The alternatives tried and their errors: tools/bench/RESULTS.md. */

static int model_swap(void) {
  static int cached = -1;
  return env_switch("SIMMPI_HPL_MODEL_SWAP", &cached);
}

/* Step k of the roll that HPL_rollT and HPL_bcast_blong share (size - 1 steps, pieces indexed
 * by ring distance, each step an exchange with alternately the next and the previous rank): the
 * piece the rank at distance `mydist` sends, and whether to its previous neighbour. */
static int roll_sent_piece(int mydist, int k, int size, int* toward_prev) {
  const int l = k >> 1;
  *toward_prev = ((mydist + k) & 1) != 0;
  return *toward_prev ? MModAdd(mydist, l, size) : MModSub(mydist, l, size);
}

/* One exchange with each neighbour, [0] the next and [1] the previous, of the given numbers of
 * doubles (none where 0): what the roll models send instead of the roll's steps. */
static void exchange_with_neighbours(double* buffer, const int peer[2], const int sent[2],
                                     const int received[2], int tag, MPI_Comm comm) {
  MPI_Request requests[4];
  int n = 0;
  for (int s = 0; s < 2; ++s)
    if (received[s] > 0)
      MPI_Irecv(buffer, received[s], MPI_DOUBLE, peer[s], tag, comm, &requests[n++]);
  for (int s = 0; s < 2; ++s)
    if (sent[s] > 0) MPI_Isend(buffer, sent[s], MPI_DOUBLE, peer[s], tag, comm, &requests[n++]);
  MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
}

/* The rows of U that the rank at distance `mydist` in HPL_rollT sends its next (to_next) or
 * previous neighbour over the whole ring, by HPL_rollT.c's own formulas. */
static int roll_rows(int mydist, int to_next, int nprow, const int* IPLEN) {
  int rows = 0;
  for (int k = 0; k < nprow - 1; k++) {
    int toward_prev;
    const int il = roll_sent_piece(mydist, k, nprow, &toward_prev);
    if (toward_prev != to_next) rows += IPLEN[il + 1] - IPLEN[il];
  }
  return rows;
}

void __real_HPL_rollT(HPL_T_panel* PBCST, int* IFLAG, HPL_T_panel* PANEL, const int N, double* U,
                      const int LDU, const int* IPLEN, const int* IPMAP, const int* IPMAPM1);
void __wrap_HPL_rollT(HPL_T_panel* PBCST, int* IFLAG, HPL_T_panel* PANEL, const int N, double* U,
                      const int LDU, const int* IPLEN, const int* IPMAP, const int* IPMAPM1) {
  const int nprow = PANEL->grid->nprow;
  if (simmpi_compute_executes() || !model_swap() || N <= 0 || nprow < 3) {
    __real_HPL_rollT(PBCST, IFLAG, PANEL, N, U, LDU, IPLEN, IPMAP, IPMAPM1);
    return;
  }
  const MPI_Comm comm = PANEL->grid->col_comm;
  const int mydist = IPMAPM1[PANEL->grid->myrow];
  const int prev = MModSub1(mydist, nprow), next = MModAdd1(mydist, nprow);
  const int peer[2] = {IPMAP[next], IPMAP[prev]};
  const int sent[2] = {roll_rows(mydist, 1, nprow, IPLEN) * LDU,
                       roll_rows(mydist, 0, nprow, IPLEN) * LDU};
  const int received[2] = {roll_rows(next, 0, nprow, IPLEN) * LDU,
                           roll_rows(prev, 1, nprow, IPLEN) * LDU};
  exchange_with_neighbours(U, peer, sent, received, MSGID_BEGIN_PFACT, comm);
  if (*IFLAG == HPL_KEEP_TESTING) (void)HPL_bcast(PBCST, IFLAG);
  (void)N;
}

/* ---- The panel's datatype in model mode ----
 * HPL_packL describes the part [INDEX, INDEX + LEN) of a panel (L2's columns, then L1, DPIV and
 * DINFO, which are contiguous) as a struct type with one entry per column of L2: 385 entries
 * for a whole panel at NB = 384, built, committed, walked and freed for every broadcast message,
 * ~8% of a full-size Frontera run's host time. In model mode L2's values do not matter (the
 * matrix is folded, nothing is computed on it), only the bytes and the pivots do, so L2's part
 * becomes one run of as many contiguous doubles from the same first element: the same message
 * size (simmpi times a message by its bytes) and the same L1, DPIV and DINFO entry, in a type
 * of two entries. Where L2 is its own buffer (ranks outside the panel's process column) the run
 * is exactly HPL's columns; in the process column, where L2 lies in the matrix with its leading
 * dimension, the run ends before L2's last column does, so it stays inside the matrix. The
 * same predictions as HPL's types (test hpl_pack_model, against --explicit-pack). */
static int explicit_pack(void) {
  static int cached = -1;
  return env_switch("SIMMPI_HPL_EXPLICIT_PACK", &cached);
}

int __real_HPL_packL(HPL_T_panel* PANEL, const int INDEX, const int LEN, const int IBUF);
int __wrap_HPL_packL(HPL_T_panel* PANEL, const int INDEX, const int LEN, const int IBUF) {
  if (simmpi_compute_executes() || explicit_pack())
    return __real_HPL_packL(PANEL, INDEX, LEN, IBUF);
  const int jb = PANEL->jb, curr = PANEL->grid->myrow == PANEL->prow;
  const int m = PANEL->mp - (curr ? jb : 0), jbm = jb * m;
  const int in_l2 = (m > 0 && INDEX < jbm) ? Mmin(LEN, jbm - INDEX) : 0;
  void* first[2];
  int lengths[2], entries = 0;
  if (in_l2 > 0) { /* HPL_packL.c's first entry: L2's element INDEX, column by column */
    const int in_column = PANEL->grid->mycol == PANEL->pcol;
    const int lda = in_column ? PANEL->lda : PANEL->ldl2;
    double* l2 = in_column ? Mptr(PANEL->A, curr ? jb : 0, -jb, lda) : PANEL->L2;
    first[entries] = Mptr(l2, INDEX % m, INDEX / m, lda);
    lengths[entries++] = in_l2;
  }
  if (LEN > in_l2) {
    first[entries] = PANEL->L1 + (INDEX + in_l2 - jbm);
    lengths[entries++] = LEN - in_l2;
  }
  if (entries == 0) return __real_HPL_packL(PANEL, INDEX, LEN, IBUF);
  MPI_Aint displacements[2], base;
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
  MPI_Get_address(first[0], &base);
  for (int e = 0; e < entries; ++e) {
    MPI_Get_address(first[e], &displacements[e]);
    displacements[e] -= base;
  }
  PANEL->buffers[IBUF] = (void***)first[0];
  PANEL->counts[IBUF] = 1;
  int err = MPI_Type_create_struct(entries, lengths, displacements, types, &PANEL->dtypes[IBUF]);
  if (err == MPI_SUCCESS) err = MPI_Type_commit(&PANEL->dtypes[IBUF]);
  return err;
}

/* ---- HPL's long broadcasts in model mode (opt-in: simmpi-hpl --model-bcast) ----
 * HPL_bcast_blong spreads a panel of COUNT doubles over the Q ranks of a process row in two
 * phases: a binomial scatter of Q pieces of COUNT / Q (log2 Q steps), then a roll of Q - 1 steps
 * in which each rank exchanges one piece with, alternately, its next and its previous neighbour.
 * HPL_bcast_blonM first sends the whole panel to the root's right neighbour (which can then
 * factor the next panel at once) and spreads it over the other Q - 1 ranks in the same way. Both
 * block from the first call on (their probes are compiled out). At Frontera's Q = 91 the roll is
 * ~180 message operations per rank and panel, several times all the rest of a panel's events.
 * The model keeps the scatter step for step (HPL's partners and sizes) and stands for the roll
 * with one exchange with each neighbour carrying the pieces the roll would send it, by HPL's own
 * formulas: the same bytes over the same links. What it leaves out: the roll's Q - 2 further
 * latencies and the coupling of each of its steps to both neighbours' previous step (a late
 * rank holds up the whole row in the roll, only its neighbours here). The messages carry
 * contiguous doubles of a folded scratch block instead of HPL_packL's per-column struct types
 * (simmpi times a message by its bytes); the pivots the panel carries are the modeled ones
 * (modeled_pivot_row), which every receiver sets itself. Figures against HPL's roll: docs/hpl.md;
 * test hpl_bcast_model. */

static int model_bcast(void) {
  static int cached = -1;
  return env_switch("SIMMPI_HPL_MODEL_BCAST", &cached);
}

/* The ranks a long broadcast spreads the panel over: ring distance 0 is the root, and blonM
 * leaves out the root's right neighbour (skip = 1). */
struct LongRing {
  int size, root, skip, npcol;
};

static int ring_rank(const struct LongRing* ring, int dist) {
  return dist == 0 ? ring->root : MModAdd(ring->root, dist + ring->skip, ring->npcol);
}

/* Doubles in piece `indx` of a panel of `total` doubles cut into ring->size pieces of `count`,
 * the last one taking the rest (HPL_blong.c's roll). */
static int long_piece(const struct LongRing* ring, int indx, int count, int total) {
  const int begin = indx * count;
  const int end = Mmin(total, indx == ring->size - 1 ? total : begin + count);
  return Mmax(0, end - begin);
}

/* HPL's binomial scatter, step for step: the same partners and message sizes. */
static void long_scatter(const struct LongRing* ring, int mydist, int count, int total,
                         double* buffer, int msgid, MPI_Comm comm) {
  int ip2 = 1, mask = 1; /* HPL_grid_init's col_ip2m1 and col_mask for ring->size ranks */
  for (int k = ring->size - 1; k > 1; k >>= 1) {
    ip2 <<= 1;
    mask = (mask << 1) + 1;
  }
  int indx = ip2, mydist2 = mydist;
  do {
    mask ^= ip2;
    if ((mydist & mask) == 0) {
      int doubles = total - indx * count;
      if (indx + ip2 < ring->size) doubles = Mmin(doubles, ip2 * count);
      doubles = Mmax(0, doubles);
      const int partner = mydist ^ ip2;
      if ((mydist & ip2) != 0)
        MPI_Recv(buffer, doubles, MPI_DOUBLE, ring_rank(ring, partner), msgid, comm,
                 MPI_STATUS_IGNORE);
      else if (partner < ring->size)
        MPI_Ssend(buffer, doubles, MPI_DOUBLE, ring_rank(ring, partner), msgid, comm);
    }
    if (mydist2 < ip2) {
      ip2 >>= 1;
      indx -= ip2;
    } else {
      mydist2 -= ip2;
      ip2 >>= 1;
      indx += ip2;
    }
  } while (ip2 > 0);
}

/* The roll as one exchange with each neighbour of what its ring->size - 1 steps send each. */
static void long_roll(const struct LongRing* ring, int mydist, int count, int total, double* buffer,
                      int msgid, MPI_Comm comm) {
  const int size = ring->size;
  const int next = MModAdd1(mydist, size), prev = MModSub1(mydist, size);
  int sent[2] = {0, 0}, received[2] = {0, 0}; /* [0]: with the next rank, [1]: the previous */
  for (int k = 0; k < size - 1; ++k) {
    int toward_prev, partner_toward_prev;
    const int out = roll_sent_piece(mydist, k, size, &toward_prev);
    /* what the partner of this step sends it */
    const int in = roll_sent_piece(toward_prev ? prev : next, k, size, &partner_toward_prev);
    sent[toward_prev] += long_piece(ring, out, count, total);
    received[toward_prev] += long_piece(ring, in, count, total);
  }
  const int peer[2] = {ring_rank(ring, next), ring_rank(ring, prev)};
  exchange_with_neighbours(buffer, peer, sent, received, msgid, comm);
}

/* The rank's folded block for the model's messages, grown to `doubles` when needed (the first
 * panel is a rank's largest). */
static struct {
  double* block;
  size_t doubles;
} long_scratch;

static double* long_scratch_for(size_t doubles) {
  if (long_scratch.doubles < doubles) {
    if (long_scratch.block) simmpi_shared_free(long_scratch.block);
    long_scratch.block = (double*)simmpi_shared_malloc(doubles * sizeof(double));
    long_scratch.doubles = doubles;
  }
  return long_scratch.block;
}

/* What the broadcast would have delivered of the panel that matters in model mode: its pivots,
 * computed once per panel and shared (drawing them on every rank was 3.5% of a full-size run).
 * On the root, checks that they are the factorization's. */
static void set_modeled_pivots(HPL_T_panel* PANEL, int is_root) {
  const int nb = PANEL->nb, jb = PANEL->jb;
  /* valid, ia, jb, m; the pivots (jb doubles, as 2 jb ints) */
  int* e = memo_slot("modeled pivots", nb, 1, 4 + 2 * (size_t)nb, (PANEL->ia / nb) % kMemoPanels);
  double* pivots = (double*)(void*)(e + 4);
  if (!(e[0] && e[1] == PANEL->ia && e[2] == jb && e[3] == PANEL->m)) {
    for (int j = 0; j < jb; ++j) pivots[j] = (double)modeled_pivot_row(PANEL, j);
    e[0] = 1;
    e[1] = PANEL->ia;
    e[2] = jb;
    e[3] = PANEL->m;
  }
  if (!is_root) {
    memcpy(PANEL->DPIV, pivots, (size_t)jb * sizeof(double));
  } else if (memcmp(PANEL->DPIV, pivots, (size_t)jb * sizeof(double)) != 0) {
    fprintf(stderr,
            "simmpi-hpl: internal error: the pivots of the panel at row %d are not the modeled "
            "ones\n",
            PANEL->ia);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/* The modeled long broadcast; skip = 1 for blonM. Returns 0 (and does nothing) where HPL's own
 * must run: execute mode, the model off, or rows too short for a roll. */
static int long_bcast_modeled(HPL_T_panel* PANEL, int* IFLAG, int skip) {
  if (simmpi_compute_executes() || !model_bcast() || PANEL == NULL || PANEL->grid->npcol - skip < 3)
    return 0;
  const struct LongRing ring = {PANEL->grid->npcol - skip, PANEL->pcol, skip, PANEL->grid->npcol};
  const int rank = PANEL->grid->mycol, total = PANEL->len, msgid = PANEL->msgid;
  const MPI_Comm comm = PANEL->grid->row_comm;
  double* buffer = long_scratch_for((size_t)Mmax(total, 1));
  const int after_root = MModAdd1(ring.root, ring.npcol);
  if (skip && rank == ring.root) {
    MPI_Ssend(buffer, total, MPI_DOUBLE, after_root, msgid, comm);
  } else if (skip && rank == after_root) {
    MPI_Recv(buffer, total, MPI_DOUBLE, ring.root, msgid, comm, MPI_STATUS_IGNORE);
    set_modeled_pivots(PANEL, 0);
    *IFLAG = HPL_SUCCESS;
    return 1;
  }
  const int mydist = rank == ring.root ? 0 : MModSub(rank, ring.root, ring.npcol) - skip;
  const int count = Mmax(total / ring.size, 1);
  long_scatter(&ring, mydist, count, total, buffer, msgid, comm);
  long_roll(&ring, mydist, count, total, buffer, msgid, comm);
  set_modeled_pivots(PANEL, rank == ring.root);
  *IFLAG = HPL_SUCCESS;
  return 1;
}

int __real_HPL_bcast_blong(HPL_T_panel* PANEL, int* IFLAG);
int __wrap_HPL_bcast_blong(HPL_T_panel* PANEL, int* IFLAG) {
  return long_bcast_modeled(PANEL, IFLAG, 0) ? HPL_SUCCESS : __real_HPL_bcast_blong(PANEL, IFLAG);
}

int __real_HPL_bcast_blonM(HPL_T_panel* PANEL, int* IFLAG);
int __wrap_HPL_bcast_blonM(HPL_T_panel* PANEL, int* IFLAG) {
  return long_bcast_modeled(PANEL, IFLAG, 1) ? HPL_SUCCESS : __real_HPL_bcast_blonM(PANEL, IFLAG);
}
