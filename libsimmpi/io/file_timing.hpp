// SPDX-License-Identifier: Apache-2.0
// The simulated time of file accesses: requests to the storage model (hardware/storage/) made
// for a rank's node, completing MPI requests. A contiguous access is one striped access. An
// independent noncontiguous one is served by data sieving, as ROMIO does (Thakur, Gropp and
// Lusk, "Data sieving and collective I/O in ROMIO", Frontiers 1999): the extent from its first
// to its last byte is read in one access, and for a write then written back, so the holes
// between its pieces cost bandwidth instead of one request each.
#pragma once

#include <cstdint>
#include <vector>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/io/file_view.hpp"

namespace simmpi::mpi {

// A request completed by the library when an access of `f` ends (MPI_File_iwrite's, or the one
// a blocking call waits for). Its status: MPI_SOURCE and MPI_TAG undefined (MPI_ANY_*).
Request* make_io_request(ApiCall& call, File& f);
// Starts the storage requests of the first `bytes` of `segments` for world rank `rank` now;
// `q` completes when they end. Never switches.
void time_access(World& w, File& f, int rank, const std::vector<FileSegment>& segments,
                 std::uint64_t bytes, hardware::IoDirection dir, Request* q);
// Starts one storage access of [offset, offset + bytes) of `f` for world rank `rank` now (an
// aggregator's request in collective I/O); `q` completes when it ends. Never switches.
void time_extent(World& w, File& f, int rank, std::int64_t offset, std::uint64_t bytes,
                 hardware::IoDirection dir, Request* q);
// One metadata operation of the caller (open, close, resize, delete): blocks until it is done.
void wait_metadata(ApiCall& call);

}  // namespace simmpi::mpi
