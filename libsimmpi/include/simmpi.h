/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi's own extensions, usable from C, C++ and (later) Fortran. Programs that want to stay
 * portable wrap them in #ifdef SIMMPI. */
#ifndef SIMMPI_SIMMPI_H
#define SIMMPI_SIMMPI_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/* Simulated seconds since the start of the run, without the polling cost MPI_Wtime charges. */
double simmpi_now(void);

/* The world rank the calling process works for, before MPI_Init too (simmpi-replay's ranks read
 * their trace before they make its MPI_Init); -1 outside a simulated rank. */
int simmpi_rank(void);

/* Memory folding, for running full-size problems in model mode (SMPI's SMPI_SHARED_MALLOC).
 * A shared (folded) block's content is meaningless: every page of it maps a page of one small
 * physical block (runtime.fold_block), the blocks of different ranks may have the same
 * addresses, and messages received into it are timed but not copied. Use it for data whose
 * values do not steer the program (the matrix of a dense solver), never for indices, counts or
 * anything else that decides what the program does next. Outside a simulation these are
 * malloc and free. In model mode (blas.mode = model) with runtime.fold_threshold set, the
 * program's own malloc, calloc and realloc fold blocks of at least that size by themselves. */
void* simmpi_shared_malloc(size_t bytes);
/* A block whose bytes [private_begin, private_end) are ordinary private memory and the rest
 * folded, e.g. a panel whose pivot indices follow its data. Requires private_begin <=
 * private_end <= bytes. Written folded pages of it cost memory until it is freed. */
void* simmpi_partial_shared_malloc(size_t bytes, size_t private_begin, size_t private_end);
/* Frees a block of either kind, or anything malloc returned. */
void simmpi_shared_free(void* p);
/* 1 when the byte at p is folded memory, else 0. */
int simmpi_is_shared(const void* p);

/* One zeroed block of `bytes` per name, the same for every rank of the run and kept until its
 * end (the ranks are fibers of one process; their globals are private, this block is not).
 * For models and tools that look across ranks, e.g. a cache of a computation that every rank
 * repeats with the same inputs; never a way for ranks to communicate behind MPI's back. Calls
 * with one name must ask for one size. */
void* simmpi_process_state(const char* name, size_t bytes);

/* For models of polling loops, e.g. a solver that probes for its next message between chunks
 * of its own work (HPL's trailing update). Stands for up to `rounds` rounds (no bound when
 * rounds < 0) of { computing for `seconds`; MPI_Iprobe(source, tag, comm) } and stops before
 * the probe of the first round whose probe finds a matching message: *round is then that
 * round's number (from 1), and the caller's next MPI_Iprobe for it finds the message. *round
 * is 0 when every round's probe found nothing (then all of them were made). The same
 * simulated times as the loop would give (each probe costs mpi.poll_cost, as MPI_Iprobe's),
 * in one or two events instead of one or more per round (none when no matching message can
 * arrive before the last round ends: the time is then owed like a computation's). Returns an
 * MPI error code. */
int simmpi_poll_rounds(double seconds, long rounds, int source, int tag, MPI_Comm comm,
                       long* round);

#define SIMMPI_SHARED_MALLOC(bytes) simmpi_shared_malloc(bytes)
#define SIMMPI_PARTIAL_SHARED_MALLOC(bytes, private_begin, private_end) \
  simmpi_partial_shared_malloc((bytes), (private_begin), (private_end))
#define SIMMPI_SHARED_FREE(p) simmpi_shared_free(p)

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* SIMMPI_SIMMPI_H */
