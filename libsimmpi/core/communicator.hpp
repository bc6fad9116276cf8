// SPDX-License-Identifier: Apache-2.0
// A communicator: an ordered group of world ranks and the matching context its messages carry.
// One object is shared by all its members (the simulator is one address space); what differs
// per member (its rank, its error handler, its count of collectives) is indexed by comm rank.
//
// An intercommunicator has two groups. Each group gets a view of its own: a Communicator whose
// members are that group and whose context is the one its members receive on. The two views
// share the handle and point at each other with remote(); a send on a view goes to a member of
// the other view with the other view's context, so ranks of a send or receive name the remote
// group, as MPI wants. An intracommunicator is its own remote().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpi.h"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

class Topology;  // libsimmpi/topo/topology.hpp

// What one rank passed to a collective call, compared across ranks to catch mismatches.
struct CollectiveSignature {
  const char* call;
  int root;            // -1 when the collective has none
  MPI_Op op;           // MPI_OP_NULL when none
  std::int64_t bytes;  // bytes every rank contributes where the standard requires equality, else -1
};

// The communicators that one collective call (MPI_Comm_split, MPI_Comm_dup...) creates, by key
// (a color, or 0). The first member to have all it needs builds them; the others find them here.
struct CreatedComms {
  const char* call;
  std::map<int, MPI_Comm> comms;
  int takers_left;  // members that have not picked their communicator yet
};

class Communicator {
 public:
  using Members = std::shared_ptr<const std::vector<int>>;

  // The identity mapping over world ranks [0, size).
  Communicator(MPI_Comm handle, int context_id, int size, std::string name);
  // members[i] is the world rank of comm rank i.
  Communicator(MPI_Comm handle, int context_id, std::vector<int> members, std::string name);
  Communicator(MPI_Comm handle, int context_id, Members members, std::string name);
  ~Communicator();

  MPI_Comm handle() const { return handle_; }
  // Gives this communicator (both views of an intercommunicator) its handle.
  void set_handle(MPI_Comm h);
  // Point-to-point messages carry context_id(); collectives' internal messages carry
  // context_id() + 1, so they never match user receives.
  int context_id() const { return context_id_; }
  int size() const { return size_; }
  int world_rank(int comm_rank) const {
    return members_ ? (*members_)[static_cast<std::size_t>(comm_rank)] : comm_rank;
  }
  // world_rank(0), kept (one load: every observed call notes it).
  int first_world_rank() const { return first_member_; }
  // -1 when `world_rank` is not a member. (Inline for the identity: every call asks.)
  int comm_rank(int world_rank) const {
    if (!members_) return world_rank >= 0 && world_rank < size_ ? world_rank : -1;
    return member_rank(world_rank);
  }
  // The world ranks of the members in rank order; nullptr means the identity [0, size()).
  const Members& members() const { return members_; }
  // The name used in diagnostics (the user's name once a member set one).
  const std::string& name() const { return name_; }
  void set_name(std::string name) {
    name_ = std::move(name);
    name_stamp_ = next_name_stamp();
  }
  // Different for every name any communicator of the run has held: equal stamps, equal names
  // (an observed call copies a name only when its stamp differs from the copy's).
  std::uint64_t name_stamp() const { return name_stamp_; }
  // MPI_Comm_get_name's answer for one member: what it set, else "" (predefined: their names).
  std::string user_name(int comm_rank) const;
  void set_user_name(int comm_rank, std::string name);

  // Intercommunicators (see the top of this file).
  bool is_inter() const { return remote_ != this; }
  Communicator& remote() { return *remote_; }
  const Communicator& remote() const { return *remote_; }
  // Makes this view and `other` the two groups of one intercommunicator; this view owns
  // `other` and is the anchor of the pair.
  void pair_with(std::unique_ptr<Communicator> other);
  // The view that owns the pair (itself for an intracommunicator). State of the communicator
  // as a whole (created communicators) lives there.
  Communicator& anchor() { return *anchor_; }
  // An intracommunicator over this view's group with the same context, for the steps of
  // intercommunicator calls that run inside one group; nullptr for an intracommunicator.
  Communicator* local_comm() { return local_.get(); }
  void set_local_comm(std::unique_ptr<Communicator> local) { local_ = std::move(local); }

  MPI_Errhandler errhandler(int comm_rank) const;
  // The function of a user error handler, or nullptr for the predefined ones.
  MPI_Comm_errhandler_function* errhandler_function(int comm_rank) const;
  void set_errhandler(int comm_rank, MPI_Errhandler h, MPI_Comm_errhandler_function* fn = nullptr);

  // Life: the object lives until every member freed it and no request refers to it.
  void mark_freed(int comm_rank);
  bool has_freed(int comm_rank) const {
    return !freed_.empty() && freed_[static_cast<std::size_t>(comm_rank)];
  }
  void add_request() { ++requests_; }
  // Returns is_unused() after forgetting one request. (Inline: every request drops one.)
  bool drop_request() {
    SIMMPI_ASSERT(requests_ > 0, "a communicator's request count stays non-negative");
    --requests_;
    return is_unused();
  }
  bool is_unused() const { return active_members_ == 0 && requests_ == 0; }

  // Records that `comm_rank` entered its next collective with signature `sig`. Returns
  // MPI_SUCCESS, or the error class of the disagreement with what an earlier rank passed and a
  // sentence describing it in `why`.
  int check_collective(int comm_rank, const CollectiveSignature& sig, std::string* why);
  // Sequence number of the latest collective `comm_rank` entered (0 for the first).
  std::uint32_t last_collective(int comm_rank) const;
  // What collective #seq created, or nullptr if no member has built it yet.
  CreatedComms* created(std::uint32_t seq);
  CreatedComms& add_created(std::uint32_t seq, const char* call, int takers);
  // One member has its communicator from collective #seq; the last one drops the record.
  void take_created(std::uint32_t seq);

  const std::shared_ptr<Topology>& topology() const { return topology_; }
  void set_topology(std::shared_ptr<Topology> t) { topology_ = std::move(t); }
  // How many collectives `comm_rank` has entered on this communicator (check_collective calls);
  // the same sequence on every member, so it numbers the collectives' messages apart.
  std::uint32_t collectives_entered(int comm_rank) const {
    return collective_count_.empty() ? 0 : collective_count_[static_cast<std::size_t>(comm_rank)];
  }

 private:
  static std::uint64_t next_name_stamp() {
    static std::uint64_t last = 0;
    return ++last;
  }
  int member_rank(int world_rank) const;  // comm_rank() with an explicit member list

  MPI_Comm handle_;
  int context_id_;
  int size_;
  Members members_;  // nullptr: identity
  // World rank -> rank here: arithmetic when the members are evenly spaced (the rows and columns
  // of a process grid, looked up at every call), else the map.
  int first_member_ = 0, member_stride_ = 0;  // stride 0: not evenly spaced
  std::unordered_map<int, int> rank_of_;
  std::string name_;
  std::uint64_t name_stamp_ = next_name_stamp();
  std::unordered_map<int, std::string> user_names_;
  struct Handler {
    MPI_Errhandler handle;
    MPI_Comm_errhandler_function* fn;
  };
  std::unordered_map<int, Handler> errhandlers_;  // only ranks that changed theirs

  Communicator* remote_ = this;
  Communicator* anchor_ = this;
  std::unique_ptr<Communicator> owned_remote_;
  std::unique_ptr<Communicator> local_;

  std::vector<bool> freed_;  // per comm rank, sized on the first free
  int active_members_;
  int requests_ = 0;

  struct Pending {
    CollectiveSignature sig;
    int first_rank;
    int arrived;
  };
  std::vector<std::uint32_t> collective_count_;  // per comm rank
  std::unordered_map<std::uint32_t, Pending> pending_;
  std::unordered_map<std::uint32_t, CreatedComms> created_;

  std::shared_ptr<Topology> topology_;  // shared with dups; a member fills its own part
};

}  // namespace simmpi::mpi
