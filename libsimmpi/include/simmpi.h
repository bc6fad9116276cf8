/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi's own extensions, usable from C, C++ and (later) Fortran. Programs that want to stay
 * portable wrap them in #ifdef SIMMPI. */
#ifndef SIMMPI_SIMMPI_H
#define SIMMPI_SIMMPI_H

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

/* Simulated seconds since the start of the run, without the polling cost MPI_Wtime charges. */
double simmpi_now(void);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* SIMMPI_SIMMPI_H */
