// SPDX-License-Identifier: Apache-2.0
// Looking at the caller's unexpected messages, shared by MPI_(I)probe and the matched probes
// MPI_(I)mprobe: only the first matching message whose envelope has arrived counts, so a
// receive after a probe gets the probed message.
#pragma once

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

// Blocks the caller until a message for a receive (source, tag) on `comm` has arrived and
// returns it (still queued). May switch fibers.
const Message* wait_for_message(ApiCall& call, const Communicator& comm, int source, int tag);
// The matching message if it has arrived, else nullptr; charges one poll (may switch).
const Message* poll_for_message(ApiCall& call, const Communicator& comm, int source, int tag);

// For the run's observers: probe `call` found message `m`, whose arrival may be what ended the
// caller's waiting or polling (the critical path follows it).
void note_probed(ApiCall& call, const Message& m);

// The status a probe reports for message `m`, and for an MPI_PROC_NULL source (MPI-3.1 3.11).
void message_status(const Message& m, MPI_Status* status);
void proc_null_status(MPI_Status* status);

}  // namespace simmpi::mpi
