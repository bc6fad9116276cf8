// SPDX-License-Identifier: Apache-2.0
// Group handles of the calling rank, for the calls that take groups (MPI_Comm_create...).
#pragma once

#include "libsimmpi/comm/group.hpp"
#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

// The group `h` names for the caller (MPI_GROUP_EMPTY included), or nullptr after raising
// MPI_ERR_GROUP on `comm`.
const Group* find_group(ApiCall& call, MPI_Group h, MPI_Comm comm, int* err);
// A new handle of the caller for `g` (MPI_GROUP_EMPTY if `g` is empty).
MPI_Group new_group_handle(ApiCall& call, Group g);

}  // namespace simmpi::mpi
