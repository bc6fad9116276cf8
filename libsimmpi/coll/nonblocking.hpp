// SPDX-License-Identifier: Apache-2.0
// Nonblocking collectives (MPI_Ibcast, MPI_Iallreduce, ...). Each call runs the blocking
// algorithm the selection picks (dispatch.hpp) on an auxiliary process of the calling rank
// (runtime/sched/scheduler.hpp): it advances by itself in simulated time while the rank
// computes, and completes the call's request (RequestKind::Collective) when it returns. Its
// messages carry the collective's number in their tags, so several collectives can be in flight
// on one communicator.
// Persistent collectives (MPI_Bcast_init..., MPI-4.1 6.13) are the same thing started again:
// the init call checks the arguments and enters the collective once (its number, hence its
// tags, fixed then, so that ranks may start different persistent collectives in different
// orders), and each MPI_Start reads the send buffers and runs the algorithm on a new auxiliary
// process, exactly as the nonblocking call would; completion makes the request inactive.
// Limits: progress is ideal (as with a progress thread or an offloading NIC): the send and
// receive overheads of the collective's messages are charged to the auxiliary process, not to
// the rank's computation; starting a nonblocking collective costs the rank no time.
#pragma once

#include <cstdint>
#include <functional>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

class CallRecord;
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

// A collective ready to start: reads what it sends out of the user's buffers (packing derived
// types) and returns what its algorithm runs. Called once by a blocking or nonblocking call, at
// the call; by every MPI_Start of a persistent collective.
using CollStart = std::function<CollBody()>;

// How a collective entry point was called: blocking (no request), nonblocking (a request that
// completes once) or persistent init (an inactive request that MPI_Start starts).
struct CollRequest {
  MPI_Request* handle = nullptr;
  bool persistent = false;
  CollRequest(MPI_Request* h) : handle(h) {}  // NOLINT: blocking (nullptr) or nonblocking
  static CollRequest persistent_init(MPI_Request* h) {
    CollRequest r(h);
    r.persistent = true;
    return r;
  }
};

// Starts collective `seq` of `comm` for the calling rank: right away on the caller's fiber for
// a blocking call; for a nonblocking one on a new auxiliary process whose end completes the
// request stored in *request.handle; for a persistent init, stores in *request.handle an
// inactive request that start_persistent_collective starts. `call.name` names it in reports
// ("rank 3's nonblocking MPI_Ibcast"). Returns MPI_SUCCESS. May switch (blocking calls).
int launch_collective(ApiCall& call, Communicator& comm, std::uint32_t seq, CollRequest request,
                      CollStart start);

// Adds a collective's request to its call-trace record (core/call_record.hpp); a persistent
// init's record becomes the collective's persistent kind.
void record_request(CallRecord& rec, const CollRequest& request);

// MPI_Start of an inactive persistent collective `r` of the calling rank: reads its send buffers
// now and runs it as launch_collective runs a nonblocking call, completing `r`. Does not switch.
void start_persistent_collective(World& w, Request& r);

// The error a nonblocking call returns for a NULL `request` argument.
int null_request_error(const char* call);

}  // namespace simmpi::mpi
