// SPDX-License-Identifier: Apache-2.0
// A communicator: an ordered group of world ranks and the matching context its messages carry.
// One object is shared by all its members (the simulator is one address space); what differs
// per member (its rank, its error handler, its count of collectives) is indexed by comm rank.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpi.h"

namespace simmpi::mpi {

// What one rank passed to a collective call, compared across ranks to catch mismatches.
struct CollectiveSignature {
  const char* call;
  int root;             // -1 when the collective has none
  MPI_Op op;            // MPI_OP_NULL when none
  std::int64_t bytes;   // bytes every rank contributes where the standard requires equality, else -1
};

class Communicator {
 public:
  // The identity mapping over world ranks [0, size).
  Communicator(MPI_Comm handle, int context_id, int size, std::string name);
  // members[i] is the world rank of comm rank i.
  Communicator(MPI_Comm handle, int context_id, std::vector<int> members, std::string name);

  MPI_Comm handle() const { return handle_; }
  // Point-to-point messages carry context_id(); collectives' internal messages carry
  // context_id() + 1, so they never match user receives.
  int context_id() const { return context_id_; }
  int size() const { return size_; }
  int world_rank(int comm_rank) const {
    return members_.empty() ? comm_rank : members_[static_cast<std::size_t>(comm_rank)];
  }
  // -1 when `world_rank` is not a member.
  int comm_rank(int world_rank) const;
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  MPI_Errhandler errhandler(int comm_rank) const;
  void set_errhandler(int comm_rank, MPI_Errhandler h);

  // Records that `comm_rank` entered its next collective with signature `sig`. Returns
  // MPI_SUCCESS, or the error class of the disagreement with what an earlier rank passed and a
  // sentence describing it in `why`.
  int check_collective(int comm_rank, const CollectiveSignature& sig, std::string* why);
  // How many collectives `comm_rank` has entered on this communicator (check_collective calls);
  // the same sequence on every member, so it numbers the collectives' messages apart.
  std::uint32_t collectives_entered(int comm_rank) const {
    return collective_count_.empty() ? 0 : collective_count_[static_cast<std::size_t>(comm_rank)];
  }

 private:
  MPI_Comm handle_;
  int context_id_;
  int size_;
  std::vector<int> members_;  // empty: identity
  std::unordered_map<int, int> rank_of_;
  std::string name_;
  std::unordered_map<int, MPI_Errhandler> errhandlers_;  // only ranks that changed theirs

  struct Pending {
    CollectiveSignature sig;
    int first_rank;
    int arrived;
  };
  std::vector<std::uint32_t> collective_count_;  // per comm rank
  std::unordered_map<std::uint32_t, Pending> pending_;
};

}  // namespace simmpi::mpi
