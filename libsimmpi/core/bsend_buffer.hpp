// SPDX-License-Identifier: Apache-2.0
// The buffers of buffered sends (MPI-4.1 3.6): one a rank attaches for the whole process
// (MPI_Buffer_attach), one per communicator (MPI_Comm_attach_buffer) and one per session
// (MPI_Session_attach_buffer). A buffered send uses its communicator's buffer if one is attached,
// else that of the session the communicator was made from, else the process's (3.6.1). A buffer
// attached as MPI_BUFFER_AUTOMATIC never runs out. Messages hold their buffer by a shared_ptr,
// so detaching or freeing the communicator while they are in flight keeps the accounting right.
// Choosing and releasing a buffer: p2p/buffered_send.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mpi.h"

namespace simmpi::mpi {

struct Request;

struct BsendBuffer {
  char* data = nullptr;  // the application's memory, or MPI_BUFFER_AUTOMATIC
  std::uint64_t size = 0;
  std::uint64_t used = 0;         // bytes of messages not yet gone, each with its overhead
  std::vector<Request*> flushes;  // MPI_*_iflush requests completing when `used` falls to 0
  bool is_automatic() const { return data == static_cast<char*>(MPI_BUFFER_AUTOMATIC); }
  bool fits(std::uint64_t charge) const { return is_automatic() || used + charge <= size; }
};

using BsendBufferRef = std::shared_ptr<BsendBuffer>;

}  // namespace simmpi::mpi
