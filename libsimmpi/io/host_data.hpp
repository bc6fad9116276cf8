// SPDX-License-Identifier: Apache-2.0
// Moving an access's data between a rank's memory and the host file, at the call: the memory
// side is `count` elements of a datatype (translated to the rank's privatized globals, walked
// block by block), the file side the view's segments; each piece where both are contiguous is
// one pread or pwrite. Folded memory (runtime/fold) is never read: what a folded buffer writes
// is left a hole of the host file (sparse, no disk used), the file only extended to cover it,
// and a read into folded memory reads nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "libsimmpi/io/file_view.hpp"
#include "libsimmpi/p2p/typed_copy.hpp"

namespace simmpi::mpi {

// Writes the first `bytes` packed bytes of `mem` to the segments (which cover them). Returns 0,
// or the errno of the host's refusal. Ends the run when the bytes the ranks wrote to the host
// would pass io.max_host_bytes (`path` names the file in the message).
int host_write(World& w, int fd, const TypedBuffer& mem, const std::vector<FileSegment>& segments,
               std::uint64_t bytes, const std::string& path);
// Reads the segments into `mem`, stopping at the end of the file (MPI-3.1 13.4.1: a read past
// it reads less). Returns the bytes read; *err is set to the errno of a refusal.
std::uint64_t host_read(World& w, int fd, const TypedBuffer& mem,
                        const std::vector<FileSegment>& segments, std::uint64_t bytes, int* err);
// Counts `n` more bytes the ranks write to the host (file `path`); ends the run with a message
// naming the file, the rank and the key when that passes io.max_host_bytes.
void charge_host_bytes(World& w, std::uint64_t n, const std::string& path);
// The host file's size, or -1 (errno set).
std::int64_t host_size(int fd);

}  // namespace simmpi::mpi
