// SPDX-License-Identifier: Apache-2.0
// Which attached buffer a buffered send uses, giving its room back, and waiting for a buffer to
// empty (MPI-4.1 3.6; the buffers are core/bsend_buffer.hpp's).
#pragma once

#include <cstdint>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/bsend_buffer.hpp"

namespace simmpi::mpi {

// The buffer a buffered send of `world_rank` on `comm` uses: the communicator's, else its
// session's, else the process's; nullptr when none is attached.
BsendBufferRef bsend_buffer_for(World& w, int world_rank, MPI_Comm comm);

// Gives back the room message `m` holds in its buffer as it leaves the sender: wakes the sender
// (a detach or a flush waits for this) and completes the buffer's iflush requests once it is
// empty. Nothing for a message that is not a buffered send's.
void release_bsend(World& w, Message& m);

// Blocks the caller until every message in `b` has left it (MPI_Buffer_detach, the flushes).
// May yield.
void wait_until_empty(ApiCall& call, const BsendBuffer& b);

// A request that completes when `b` is empty (the iflushes): complete at once if it is.
MPI_Request start_flush(ApiCall& call, BsendBuffer& b);

}  // namespace simmpi::mpi
