// SPDX-License-Identifier: Apache-2.0
// Attribute caching on communicators (MPI-3.1 section 6.7). Values are per process: each rank
// has its own on each communicator, and its copy and delete callbacks run on its own fiber.
#pragma once

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

// Gives the caller's attributes on `from` to `to` through their copy callbacks (MPI_Comm_dup).
// Returns MPI_SUCCESS or the first callback's error (callbacks may yield).
int copy_attributes(ApiCall& call, MPI_Comm from_handle, const Communicator& from,
                    const Communicator& to);
// Deletes the caller's attributes on `comm` through their delete callbacks (MPI_Comm_free, and
// MPI_Finalize for MPI_COMM_SELF). Returns MPI_SUCCESS or the first callback's error; the
// attributes deleted before it stay deleted.
int delete_attributes(ApiCall& call, MPI_Comm handle, const Communicator& comm);

}  // namespace simmpi::mpi

namespace simmpi::mpi {

struct RankObjects;
// Deletes one attribute of the caller through its keyval's delete callback; the keyval dies with
// its last attribute once freed. Returns the callback's error (the attribute then stays).
int delete_attribute(RankObjects& objects, MPI_Comm handle, const Communicator& comm, int keyval);

}  // namespace simmpi::mpi
