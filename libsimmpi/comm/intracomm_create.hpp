// SPDX-License-Identifier: Apache-2.0
// The collective algorithms that make intracommunicators, as MPICH runs them, so making a
// communicator costs the simulated time it costs there:
//   split:  allgather of (color, key) over the parent, a local sort, a context id allreduce
//           (MPIR_Comm_split_intra);
//   create: a context id allreduce over the parent; the group's members get the communicator
//           (MPIR_Comm_create_intra);
//   dup:    a context id allreduce (MPIR_Comm_dup_impl).
// The caller has checked the arguments and entered the collective (check_collective) under its
// own name; every function may yield and returns MPI_SUCCESS or the raised error.
#pragma once

#include <cstdint>
#include <memory>

#include "libsimmpi/comm/group.hpp"
#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

// Each communicator made gets `topology` (may be nullptr). *out is MPI_COMM_NULL for color
// MPI_UNDEFINED.
int split_comm(ApiCall& call, Communicator& parent, int color, int key,
               const std::shared_ptr<Topology>& topology, MPI_Comm* out);
// `group` is a subgroup of parent's; members outside it get MPI_COMM_NULL.
int create_comm(ApiCall& call, Communicator& parent, const Group& group,
                const std::shared_ptr<Topology>& topology, MPI_Comm* out);
// Same group and topology as `parent` (attributes are the caller's to copy).
int dup_comm(ApiCall& call, Communicator& parent, MPI_Comm* out);
// The same for MPI_Comm_idup, run on an auxiliary process of the caller: `seq` is the number of
// the collective on `parent` (taken when the rank called), and its messages carry it.
int idup_comm(ApiCall& call, Communicator& parent, std::uint32_t seq, MPI_Comm* out);

// The caller leaves `c` (MPI_Comm_free's local part): its context id is free again and the
// object dies with its last member and request.
void leave_comm(ApiCall& call, Communicator& c);

}  // namespace simmpi::mpi
