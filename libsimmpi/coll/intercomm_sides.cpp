// SPDX-License-Identifier: Apache-2.0
// What the intercommunicator collectives share: the caller's group as an intracommunicator, the
// order of the groups, and the copy of scattered blocks into a packed buffer and back.
#include <cstring>

#include "libsimmpi/coll/intercomm_algorithms.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

CollContext local_side(CollContext& c) {
  Communicator* local = c.comm().local_comm();
  SIMMPI_ASSERT(local, "intercommunicator %s has a local communicator for each group",
                c.comm().name().c_str());
  return CollContext(c.world(), *local, c.seq());
}

int remote_size(CollContext& c) {
  return c.comm().remote().size();
}

bool is_low_group(CollContext& c) {
  return &c.comm() == &c.comm().anchor();
}

void pack_blocks(const char* user, const Sizes& counts, const Sizes& displs, char* packed) {
  for (std::size_t i = 0, at = 0; i < counts.size(); at += counts[i], ++i)
    if (counts[i]) std::memcpy(packed + at, user + displs[i], counts[i]);
}

void unpack_blocks(const char* packed, const Sizes& counts, const Sizes& displs, char* user) {
  for (std::size_t i = 0, at = 0; i < counts.size(); at += counts[i], ++i)
    if (counts[i]) std::memcpy(user + displs[i], packed + at, counts[i]);
}

}  // namespace simmpi::mpi
