// SPDX-License-Identifier: Apache-2.0
// The run's profile (report.profile): where each rank's simulated time went (its own code, MPI
// by function, blocked waiting versus its own overheads), per MPI function (calls, bytes, time
// with its spread over the ranks), per communicator, and the load balance of the ranks' own
// code. Read from the observation stream; every figure is simulated time, so the profile is
// the same byte for byte on every rerun.
#pragma once

#include <cstddef>
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
  struct Figures {  // what calls add up to
    std::uint64_t calls = 0;
    std::int64_t bytes = 0;
    SimTime time, blocked;
  };
  // One function on one rank: its calls since it last changed communicators, and the
  // communicator they were on (its key and size), so that a rank's own call on the same one
  // adds to the cell alone; the communicator's figures are the cells' (fold()). Key kNoComm:
  // calls on no communicator, or already counted in theirs.
  struct Cell : Figures {
    std::uint64_t comm_key = kNoComm;
    std::uint64_t size_and_ordinal = 0;  // the size, and ordinal 0 (see size_and_ordinal())
  };
  struct Function {
    std::string name;
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
    bool settled = false;       // named, and renaming empty: no call needs to look at the name
    // Of the latest call that put a cell on it: calls on the same communicator have the same
    // size, and one made again with the same key and another size puts its callers' cells on
    // it again.
    int size = 0;
    Figures figures;  // its cells', from fold() and finish()
  };

  // The function a call's name is, by the name's address: names are string literals, one per
  // call site's file, so a few addresses stand for each function. A direct-mapped table of the
  // addresses seen answers most calls with one comparison; the others go to add_function.
  struct NameSlot {
    const char* name = nullptr;
    std::size_t first_cell = 0;  // the function's cell of rank 0 in cells_
    std::size_t function = 0;    // in functions_
    bool renames_comm = false;   // MPI_Comm_set_name
  };
  static constexpr int kNameSlotBits = 8;
  static std::size_t name_slot(const char* name) {
    // Fibonacci hashing: literals a few bytes apart land in different slots.
    return static_cast<std::size_t>(
        (reinterpret_cast<std::uintptr_t>(name) * 0x9E3779B97F4A7C15ull) >> (64 - kNameSlotBits));
  }
  // After finish(): all of the function's calls on the rank.
  const Figures& cell(std::size_t function, int rank) const {
    return cells_[function * ranks_.size() + static_cast<std::size_t>(rank)];
  }
  // call() for a call whose function, communicator or process needs a look-up.
  void call_looked_up(const CallFacts& f);
  static void add(Figures& to, const CallFacts& f) {
    ++to.calls;
    if (f.bytes > 0) to.bytes += f.bytes;
    to.time += f.end - f.begin;
    to.blocked += f.blocked;
  }
  static void add(Figures& to, const Figures& from) {
    to.calls += from.calls;
    to.bytes += from.bytes;
    to.time += from.time;
    to.blocked += from.blocked;
  }
  // Moves cell `index`'s calls to its communicator and to folded_; the cell then has none, on
  // no communicator.
  void fold(std::size_t index);
  // Finds or adds the function named `name` and puts its address in by_name_.
  const NameSlot& add_function(const char* name);
  Spread spread(std::size_t function) const;
  // Functions by total time, most first (name breaks ties).
  std::vector<std::size_t> functions_by_time() const;
  // A communicator: its context id and the world rank of its rank 0.
  using CommKey = std::pair<int, int>;
  Comm& comm_of(const CallFacts& f) { return comms_[CommKey{f.comm_context, f.comm_leader}]; }
  // The communicator of a cell's key (packed_key).
  Comm& comm_at(std::uint64_t key) {
    return comms_.at(CommKey{static_cast<int>(key >> 32), static_cast<int>(key & 0xFFFFFFFFu)});
  }
  // A call on `m` that may show or change its name (m not settled, or `renames`).
  static void follow_name(Comm& m, const CallFacts& f, bool renames);
  std::vector<CommKey> comms_by_time() const;
  SimTime own_code(int rank) const {
    return ranks_[rank].end - ranks_[rank].start - ranks_[rank].mpi;
  }

  int rank_count_;
  // Each rank's own figures, made by finish() from the cells (its calls) less `threads_` (the
  // calls of its threads, counted apart as they come: one update fewer for every other call).
  std::vector<Rank> ranks_;
  std::vector<Rank> threads_;
  std::vector<Function> functions_;
  // Every function's cells, one per rank slot: function f's cell of rank r at
  // f * ranks_.size() + r.
  std::vector<Cell> cells_;
  // The calls fold() took from the cells (made at its first call: most runs call a function on
  // one communicator per rank, and never fold before finish()).
  std::vector<Figures> folded_;
  std::vector<NameSlot> by_name_ = std::vector<NameSlot>(std::size_t{1} << kNameSlotBits);
  std::map<CommKey, Comm> comms_;
  // A communicator's key as context and rank-0 rank in one word; a call on none has kNoComm
  // (context and rank -1).
  static std::uint64_t packed_key(const CallFacts& f) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(f.comm_context)) << 32 |
           static_cast<std::uint32_t>(f.comm_leader);
  }
  static constexpr std::uint64_t kNoComm = ~std::uint64_t{0};
  // A call's communicator size and ordinal in one word (adjacent in CallFacts: one load): a
  // cell's matches only the rank's own calls (ordinal 0).
  static std::uint64_t size_and_ordinal(int size, int ordinal) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(size)) << 32 |
           static_cast<std::uint32_t>(ordinal);
  }
};

}  // namespace simmpi::runtime
