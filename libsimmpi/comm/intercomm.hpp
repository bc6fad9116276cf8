// SPDX-License-Identifier: Apache-2.0
// Intercommunicator algorithms shared with the communicator calls.
#pragma once

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

// MPI_Comm_dup of an intercommunicator view (the caller entered the collective): each group
// agrees on a context id over its local communicator, the leaders swap them, each leader
// broadcasts the other group's id to its group (MPICH's MPIR_Get_intercomm_contextid). May
// yield.
int dup_intercomm(ApiCall& call, Communicator& view, MPI_Comm* out);

}  // namespace simmpi::mpi
