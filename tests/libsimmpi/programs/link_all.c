/* SPDX-License-Identifier: Apache-2.0 */
/* Links against every C function of MPI-3.1 (and of MPI-4.1 that simmpi has) and its PMPI_ name,
 * from the list in simmpi_functions.h: building this program fails if libsimmpi lacks any of them.
 * Run, it checks that each PMPI_ name is the same function as its MPI_ name and counts them; it
 * makes no MPI call, so no function is run. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

typedef void (*AnyFunction)(void);

struct Entry {
  const char* name;
  const char* area;
  AnyFunction fn, pmpi;
};

#define SIMMPI_FUNCTION(name, area) {#name, #area, (AnyFunction)name, (AnyFunction)P##name},
static const struct Entry kAll[] = {
#include <simmpi_functions.h>
};
#undef SIMMPI_FUNCTION

int main(void) {
  int n = (int)(sizeof kAll / sizeof kAll[0]), mpi31 = 0, bad = 0;
  for (int i = 0; i < n; ++i) {
    mpi31 += strcmp(kAll[i].area, "Removed") != 0 && strcmp(kAll[i].area, "Mpi41") != 0 &&
             strcmp(kAll[i].area, "Mpi41LargeCount") != 0;
    if (!kAll[i].fn || kAll[i].fn != kAll[i].pmpi) {
      fprintf(stderr, "%s and P%s are not one function\n", kAll[i].name, kAll[i].name);
      bad++;
    }
  }
  printf("link_all: %d functions, %d of them MPI-3.1, %d without a matching PMPI_ name\n", n, mpi31,
         bad);
  return bad != 0;
}
