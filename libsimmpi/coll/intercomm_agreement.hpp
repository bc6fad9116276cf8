// SPDX-License-Identifier: Apache-2.0
// What the two groups of an intercommunicator must agree on in a collective, which each group's
// own check (Communicator::check_collective, over its members only) cannot see: the same call,
// and for a rooted one, one member of one group passing MPI_ROOT (its other members
// MPI_PROC_NULL) and every member of the other group naming that member. A mismatch would
// otherwise hang or, for a gather whose senders all send eagerly, end with data sent to no one.
#pragma once

#include <cstdint>
#include <string>

namespace simmpi::mpi {

class Communicator;

// Records that member `comm_rank` of intercommunicator view `view` entered its collective
// #seq, `call`, with `root` (rooted calls only). Returns MPI_SUCCESS, or the error class of the
// first disagreement with what members that came earlier passed and a sentence in `why`. The
// record lives until the last member of both groups has entered.
int check_across_groups(Communicator& view, int comm_rank, std::uint32_t seq, const char* call,
                        bool rooted, int root, std::string* why);

}  // namespace simmpi::mpi
