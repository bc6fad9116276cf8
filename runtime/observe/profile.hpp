// SPDX-License-Identifier: Apache-2.0
// The run's profile (report.profile): where each rank's simulated time went (its own code, MPI
// by function, blocked waiting versus its own overheads), per MPI function (calls, bytes, time
// with its spread over the ranks), per communicator, and the load balance of the ranks' own
// code. Read from the observation stream; every figure is simulated time, so the profile is
// the same byte for byte on every rerun.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/observe/observation.hpp"

namespace simmpi::runtime {

class Profile : public Observer {
 public:
  explicit Profile(int ranks);
  void call(const CallFacts& f) override;

  // After the run, with each rank's end on its clock (Process::finish_time): the ranks that
  // ran, which may be fewer than the constructor's (slots for spawned ranks never used).
  // `rank_start` (empty: all zero) is when each rank started, later than zero for the ranks
  // MPI_Comm_spawn started: their own code is counted from then.
  void finish(const std::vector<SimTime>& rank_end, const std::vector<SimTime>& rank_start = {});
  // The summary for stderr, every line prefixed with "simmpi: "; at most `top` functions and
  // communicators, the most time-consuming first.
  std::string text(std::size_t top) const;
  // Everything, for scripts (docs/profile.md describes the fields).
  std::string json() const;

 private:
  struct Cell {  // one function on one rank
    std::uint64_t calls = 0;
    std::int64_t bytes = 0;
    SimTime time, blocked;
  };
  struct Function {
    std::string name;
    std::vector<Cell> ranks;
    bool renames_comm = false;  // MPI_Comm_set_name
  };
  struct Spread {  // a function's time over the ranks that called it
    int calling = 0, min_rank = -1, max_rank = -1;
    SimTime min, max, total, blocked;
    std::uint64_t calls = 0;
    std::int64_t bytes = 0;
  };
  struct Rank {  // the rank's own fiber only: its threads' calls overlap its code
    SimTime mpi, blocked, end, start;
    std::uint64_t calls = 0;
  };
  struct Comm {
    std::string name;
    bool named = false;         // name holds what a call saw
    std::vector<int> renaming;  // ranks whose MPI_Comm_set_name their next call shows
    int size = 0;
    std::uint64_t calls = 0;
    std::int64_t bytes = 0;
    SimTime time, blocked;
  };

  Function& function(const char* name) {
    // Names are string literals: one pointer per call site's file, usually the same each time.
    for (const auto& [ptr, index] : by_pointer_)
      if (ptr == name) return functions_[index];
    return add_function(name);
  }
  Function& add_function(const char* name);
  Spread spread(const Function& f) const;
  // Functions by total time, most first (name breaks ties).
  std::vector<std::size_t> functions_by_time() const;
  // A communicator: its context id and the world rank of its rank 0.
  using CommKey = std::pair<int, int>;
  std::vector<CommKey> comms_by_time() const;
  SimTime own_code(int rank) const {
    return ranks_[rank].end - ranks_[rank].start - ranks_[rank].mpi;
  }

  int rank_count_;
  std::vector<Rank> ranks_;
  std::vector<Function> functions_;
  std::vector<std::pair<const char*, std::size_t>> by_pointer_;  // name literal -> function
  std::map<CommKey, Comm> comms_;
  // The communicator of the last call (map nodes do not move): most calls repeat it.
  CommKey last_comm_key_{-1, -1};
  Comm* last_comm_ = nullptr;
};

}  // namespace simmpi::runtime
