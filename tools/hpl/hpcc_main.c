/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi-hpl's driver for the HPL inside hpcc (Debian's hpcc source package): hpcc turned HPL's
 * main into HPL_main(argc, argv, rdata, failure) and reads hpccinf.txt (HPL.dat's format),
 * writing hpccoutf.txt. This file gives it the main and the one hpcc function HPL calls. It is
 * compiled with HPL's own headers; HPL's files are used unchanged. */
#include <stdio.h>

#include "hpl.h"

int HPL_main(int argc, char** argv, HPL_RuntimeData* rdata, int* failure);

/* HPL_pdinfo calls this when hpccinf.txt is unreadable or invalid (hpcc then runs its own
 * defaults). simmpi-hpl checks the file before running, so reaching this is an error. */
int HPCC_Defaults(HPL_T_test* test, int* ns, int* n, int* nbs, int* nb, HPL_T_ORDER* pmap,
                  int* npqs, int* p, int* q, int* npfs, HPL_T_FACT* pf, int* nbms, int* nbm,
                  int* ndvs, int* ndv, int* nrfs, HPL_T_FACT* rf, int* ntps, HPL_T_TOP* tp,
                  int* ndhs, int* dh, HPL_T_SWAP* fswap, int* tswap, int* l1notran, int* unotran,
                  int* equil, int* align, MPI_Comm comm) {
  (void)test, (void)ns, (void)n, (void)nbs, (void)nb, (void)pmap, (void)npqs, (void)p, (void)q;
  (void)npfs, (void)pf, (void)nbms, (void)nbm, (void)ndvs, (void)ndv, (void)nrfs, (void)rf;
  (void)ntps, (void)tp, (void)ndhs, (void)dh, (void)fswap, (void)tswap, (void)l1notran;
  (void)unotran, (void)equil, (void)align;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    fprintf(stderr, "simmpi-hpl: HPL rejected hpccinf.txt (see the HPL_pdinfo message above)\n");
  MPI_Abort(comm, 2);
  return 0;
}

int main(int argc, char** argv) {
  HPL_RuntimeData rdata;
  int failure = 0;
  MPI_Init(&argc, &argv);
  HPL_main(argc, argv, &rdata, &failure);
  MPI_Finalize();
  return 0;
}
