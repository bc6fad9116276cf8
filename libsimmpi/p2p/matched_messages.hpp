// SPDX-License-Identifier: Apache-2.0
// Messages that MPI_Mprobe/MPI_Improbe took out of a rank's matching queue, named by MPI_Message
// handles until MPI_Mrecv/MPI_Imrecv receives them (MPI-3.1 3.8.2). Handles index per-rank
// tables, like the communicator layer's objects, so they repeat across ranks as with a real MPI.
//
// One MatchedMessages exists per simulated job, beside the World (the launcher owns both).
#pragma once

#include <memory>
#include <vector>

#include "libsimmpi/comm/handle_table.hpp"
#include "libsimmpi/core/world.hpp"

namespace simmpi::mpi {

class MatchedMessages {
 public:
  struct Entry {
    Message* message;
    Communicator* comm;  // held (Communicator::add_request) until the message is received
  };

  explicit MatchedMessages(int ranks);
  ~MatchedMessages();
  MatchedMessages(const MatchedMessages&) = delete;
  MatchedMessages& operator=(const MatchedMessages&) = delete;
  // The job's table; SIMMPI_ASSERTs that it exists.
  static MatchedMessages& get();

  MPI_Message add(int world_rank, Entry e);
  // nullptr unless `h` names a message `world_rank` holds.
  Entry* find(int world_rank, MPI_Message h);
  void remove(int world_rank, MPI_Message h);

 private:
  static MatchedMessages* instance_;
  std::vector<std::unique_ptr<HandleTable<Entry>>> ranks_;  // made on a rank's first Mprobe
};

}  // namespace simmpi::mpi
