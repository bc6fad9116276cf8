// SPDX-License-Identifier: Apache-2.0
// Collective I/O by two-phase aggregation, as ROMIO does it (Thakur, Gropp and Lusk, "Data
// sieving and collective I/O in ROMIO", Frontiers 1999; ROMIO's ad_write_coll.c): the members
// agree on the extent all their accesses span (an allgather of each one's first and last byte),
// which is cut into one file domain per aggregator (File::aggregators), aligned to the stripe
// size as ROMIO's Lustre driver aligns them. The domains are handled in rounds of cb_buffer_size
// bytes: in each round every member sends each aggregator the bytes it has in the aggregator's
// part of the round (real simulated messages on the file's private communicator), and each
// aggregator writes what it received as one storage request (read first when the pieces leave
// holes, as ROMIO's read-modify-write does). A read runs the other way: the aggregator reads,
// then sends each member its bytes. The member's own data moves between its memory and the host
// file directly (host_data), since the model times the shuffle, not its contents.
// Simplifications: the offset lists ROMIO exchanges before the rounds are not timed (only the
// extents' allgather is), and an aggregator waits for its write before its next round (ROMIO
// without its write-behind option).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/io/file.hpp"

namespace simmpi::mpi {

// Runs collective access `access` of `f` for member `me` (its segments already in
// access.segments[me]): the extents' allgather, then `after_agreement` (a read moves its data
// then, once every member's earlier writes are in the host file), then the rounds. May switch.
void two_phase(CollContext& cc, File& f, int me, CollectiveAccess& access,
               hardware::IoDirection dir, const std::function<void()>& after_agreement);

}  // namespace simmpi::mpi
