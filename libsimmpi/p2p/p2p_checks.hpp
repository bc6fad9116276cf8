// SPDX-License-Identifier: Apache-2.0
// Argument checks shared by the point-to-point entry points.
#pragma once

#include <cstdint>

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

enum class Direction { Send, Recv };

struct P2PTarget {
  Communicator* comm = nullptr;
  const Datatype* type = nullptr;
  int error = MPI_SUCCESS;  // set when a check failed under MPI_ERRORS_RETURN
  bool ok() const { return comm && type && error == MPI_SUCCESS; }
};

// Checks comm, count, datatype, buffer, peer rank and tag of a send or receive.
// `count` is 64-bit: the int and the large-count (_c) calls share it.
P2PTarget check_p2p(ApiCall& call, Direction dir, const void* buf, MPI_Count count,
                    MPI_Datatype type, int peer, int tag, MPI_Comm comm);

// Raises MPI_ERR_TRUNCATE for a completed receive whose message did not fit; MPI_SUCCESS else.
int check_truncation(ApiCall& call, const Request& r);

// Reserves room in the attached buffer for a buffered send of `bytes` bytes (MPI_Bsend,
// MPI_Start of an MPI_Bsend_init request); MPI_SUCCESS, or the error raised on `comm`. The
// transport gives the room back when the message has been delivered.
int reserve_bsend(ApiCall& call, MPI_Comm comm, std::uint64_t bytes);

}  // namespace simmpi::mpi
