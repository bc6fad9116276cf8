// SPDX-License-Identifier: Apache-2.0
// Entering a collective file call: the members of a file must call its collective functions in
// the same order (MPI-3.1 13.6.1), checked like communicators' collectives on the file's private
// communicator, and the number of the call there numbers its messages.
#pragma once

#include <cstdint>

#include "libsimmpi/io/file_call.hpp"

namespace simmpi::mpi {

// Checks the caller's entry into collective `name` of `f` (`bytes`: a value every member must
// pass alike, or -1); MPI_SUCCESS, or the error raised on the file. *seq is the call's number.
int enter_file_collective(ApiCall& call, const FileRef& f, const char* name, std::int64_t bytes,
                          std::uint32_t* seq);
// A barrier of the file's members as collective call number `seq`.
void file_barrier(ApiCall& call, const FileRef& f, std::uint32_t seq);

}  // namespace simmpi::mpi
