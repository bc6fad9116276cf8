/* SPDX-License-Identifier: Apache-2.0 */
/* Charging the time of application code between MPI calls. A program marks a computation that
 * it does not want run (or timed on the host) with
 *     SIMMPI_COMPUTE(flops, bytes);   roofline time of `flops` operations and `bytes` of memory
 *                                     traffic on the rank's share of its node
 *     SIMMPI_SLEEP(seconds);          exactly `seconds` of simulated time
 * Both let simulated time pass for the calling rank only; outside a rank they do nothing. The
 * roofline uses node.frequency (scalar code), node.flops_per_cycle, node.memory_bw and
 * node.core_memory_bw, and the profile's "generic" entry when blas.profile names one. */
#ifndef SIMMPI_COMPUTE_H
#define SIMMPI_COMPUTE_H

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/* flops >= 0 floating-point operations, bytes >= 0 bytes read plus written. */
void simmpi_compute(double flops, double bytes);
/* seconds >= 0 of simulated time. */
void simmpi_sleep(double seconds);
/* Charges one call of the kernel named as in compute profiles ("dlaswp", "dlacpy", "dlange",
 * "dmemcopy", "dmemset", "dgemm"...) doing `flops` operations and moving `bytes` (read plus
 * written), with its dimensions m, n, k (0 when unused; the smallest positive one selects the
 * profile's size class). Returns 1 when the caller must also compute the result (blas.mode =
 * execute, or outside a simulation) and 0 when it must not touch the data, as SimBLAS's own
 * routines do; this lets a program's own kernels (HPL's row swaps) follow the same rules. An
 * unknown name is an error. */
int simmpi_compute_kernel(const char* kernel, double flops, double bytes, long m, long n, long k);
/* Deferred charging, for models that replace many small computations with one charge: between
 * simmpi_compute_defer_begin() and simmpi_compute_defer_end() the calling rank's BLAS calls,
 * SIMMPI_COMPUTE and simmpi_compute_kernel let no time pass; their modeled times add up, and
 * simmpi_compute_defer_end() returns the total in seconds for the caller to charge (e.g. with
 * SIMMPI_SLEEP) when it chooses. MPI calls and SIMMPI_SLEEP still take their time at once.
 * simmpi_compute_deferred() returns the total so far without ending the deferral. Not nested;
 * outside a simulation both return 0. */
void simmpi_compute_defer_begin(void);
double simmpi_compute_deferred(void);
double simmpi_compute_defer_end(void);
/* 1 when computations produce their results (execute mode or outside a simulation), else 0. */
int simmpi_compute_executes(void);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#define SIMMPI_COMPUTE(flops, bytes) simmpi_compute((double)(flops), (double)(bytes))
#define SIMMPI_SLEEP(seconds) simmpi_sleep((double)(seconds))

#endif /* SIMMPI_COMPUTE_H */
