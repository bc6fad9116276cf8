// SPDX-License-Identifier: Apache-2.0
// Nonblocking collectives (MPI_Ibcast, MPI_Iallreduce, ...). Each call runs the blocking
// algorithm the selection picks (dispatch.hpp) on an auxiliary process of the calling rank
// (runtime/sched/scheduler.hpp): it advances by itself in simulated time while the rank
// computes, and completes the call's request (RequestKind::Collective) when it returns. Its
// messages carry the collective's number in their tags, so several collectives can be in flight
// on one communicator.
// Limits: progress is ideal (as with a progress thread or an offloading NIC): the send and
// receive overheads of the collective's messages are charged to the auxiliary process, not to
// the rank's computation; starting a nonblocking collective costs the rank no time.
#pragma once

#include <cstdint>
#include <functional>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

using CollBody = std::function<void(CollContext&)>;
// What an auxiliary process does for a nonblocking operation; it may set the status of the
// request it completes (MPI_Isendrecv's is its receive's).
using NonblockingBody = std::function<void(Request&)>;

// Starts `body` on a new auxiliary process of the calling rank and stores in *request a request
// (RequestKind::Collective, named `call.name`, holding `comm`) that the process completes when
// `body` returns. The one mechanism behind nonblocking collectives, MPI_Isendrecv and
// MPI_Comm_idup. Does not switch.
void launch_nonblocking(ApiCall& call, Communicator& comm, MPI_Request* request,
                        NonblockingBody body);

// Runs `body` as collective `seq` of `comm` for the calling rank: right away on the caller's
// fiber when `request` is nullptr (a blocking call), else on a new auxiliary process whose end
// completes the request stored in *request. `call.name` names it in reports ("rank 3's
// nonblocking MPI_Ibcast"). Returns MPI_SUCCESS. May switch (blocking calls).
int launch_collective(ApiCall& call, Communicator& comm, std::uint32_t seq, MPI_Request* request,
                      CollBody body);

// The error a nonblocking call returns for a NULL `request` argument.
int null_request_error(const char* call);

}  // namespace simmpi::mpi
