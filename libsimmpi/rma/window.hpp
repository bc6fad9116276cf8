// SPDX-License-Identifier: Apache-2.0
// One-sided communication windows (MPI-3.1 chapter 11). A window is one object shared by its
// members (the simulator is one address space), like a communicator; what differs per member
// (its memory, its epochs, its error handler) is indexed by its rank in the window's group.
//
// Each window owns a private communicator, a duplicate of the one it was made on (as MPICH
// does): fences and frees synchronize with collectives on it, so they cost what a barrier
// costs and never match the application's messages, and the deadlock report names it.
//
// Operations move their data when the origin issues them (libsimmpi/rma/operations.hpp); what
// takes simulated time is their completion, which synchronization calls wait for. MPI allows
// an operation to take effect at any time between its call and the synchronization that
// completes it, and a program that could see the difference accesses the window erroneously.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "libsimmpi/comm/handle_table.hpp"
#include "libsimmpi/comm/made_together.hpp"
#include "libsimmpi/core/world.hpp"

namespace simmpi::mpi {

// Operations an origin issued whose completion it has not yet waited for.
struct Completion {
  int unknown = 0;  // completion time not known yet (still on the wire)
  SimTime latest;   // the latest completion time known so far
};

enum class LockType : std::uint8_t { None, Shared, Exclusive };

// One member's part of the window and its synchronization state as an origin and a target.
struct WinMember {
  // Its memory (the dynamic flavor has none but what it attaches).
  char* base = nullptr;
  MPI_Aint size = 0;
  int disp_unit = 1;
  bool owns_base = false;  // MPI_Win_allocate: freed with the window
  struct Region {
    std::intptr_t base;
    MPI_Aint size;
  };
  std::vector<Region> attached;  // MPI_Win_attach, in attach order

  // Per member objects.
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  MPI_Comm_errhandler_function* errhandler_fn = nullptr;
  std::string user_name;  // MPI_Win_get_name's answer for this member
  std::vector<std::pair<std::string, std::string>> hints;  // MPI_Win_set_info's, in order
  bool freed = false;

  // Epochs. Fence: an MPI_Win_fence without MPI_MODE_NOSUCCEED opened one (and MPI_MODE_NOSTORE
  // and friends were noted). PSCW: the group of MPI_Win_start (access) and MPI_Win_post
  // (exposure), as comm ranks of the window's group.
  bool fence_epoch = false;
  bool access_started = false;
  std::vector<int> access_group;
  bool exposure_posted = false;
  std::vector<int> exposure_group;
  // Notices that have reached this member, by sender, with their arrival times: posts of
  // targets (for MPI_Win_start) and completions of origins (for MPI_Win_wait).
  std::unordered_map<int, std::deque<SimTime>> posts_from;
  std::unordered_map<int, std::deque<SimTime>> completes_from;
  // Passive target: the locks this member holds or waits for, by target, and MPI_Win_lock_all.
  // A lock taken with MPI_MODE_NOCHECK is not registered at its target.
  struct HeldLock {
    LockType type;
    bool nocheck;
  };
  std::unordered_map<int, HeldLock> locks;
  std::unordered_map<int, SimTime> granted_at;  // target -> when the grant reached this member
  bool lock_all = false;
  bool lock_all_nocheck = false;

  // Its operations as an origin: all, by target, and those not complete locally at issue (gets,
  // fetching atomics, and puts and accumulates over mpi.eager_threshold bytes; see
  // operations.hpp), which MPI_Win_flush_local waits for.
  Completion all, all_local;
  std::unordered_map<int, Completion> by_target, local_by_target;
  // As a target: when its last accumulate is applied. Accumulates and atomics to one target are
  // applied one at a time (their atomicity, MPI-3.1 11.7.1), so they queue on its CPU.
  SimTime reductions_done;
  // The process blocked in a synchronization call of this window, woken by its completions, its
  // lock grants and its notices; -1 when none.
  int waiter = -1;
};

// A target's lock (MPI_Win_lock): holders and the queue of waiting origins, in arrival order.
struct TargetLock {
  int exclusive = -1;  // the holder's comm rank, or -1
  int shared = 0;      // shared holders
  struct Waiting {
    int origin;
    LockType type;
  };
  std::deque<Waiting> queue;
};

// The members' progress through their fences (libsimmpi/rma/fence_sync.hpp), by comm rank.
struct FenceState {
  std::uint64_t generation = 0;         // fences completed by all members
  int arrived = 0;                      // members in the current one
  std::vector<std::uint64_t> entered;   // the fence each member entered last (generation + 1)
  std::vector<SimTime> entry, release;  // the current fence's entry and release times
};

class Window {
 public:
  Window(MPI_Win handle, Communicator& comm, int flavor);
  ~Window();

  MPI_Win handle() const { return handle_; }
  // The private communicator (see the top of this file).
  Communicator& comm() { return comm_; }
  int flavor() const { return flavor_; }
  const int* flavor_ptr() const { return &flavor_; }  // MPI_WIN_CREATE_FLAVOR's value
  int size() const { return comm_.size(); }
  WinMember& member(int comm_rank) { return members_[static_cast<std::size_t>(comm_rank)]; }
  // "window 0x20000001 of MPI_COMM_WORLD", or the name a member set.
  const std::string& name() const { return comm_.name(); }
  void set_name(std::string name) { comm_.set_name(std::move(name)); }

  // The shared block of MPI_Win_allocate_shared (freed with the window).
  void set_shared_block(char* block) { shared_block_ = block; }
  bool has_shared_block() const { return shared_block_ != nullptr; }

  // Lock state at target `comm_rank`, made on first use, and the members in MPI_Win_lock_all.
  TargetLock& lock_at(int comm_rank) { return locks_[comm_rank]; }
  std::unordered_map<int, TargetLock>& target_locks() { return locks_; }
  int lock_all_holders = 0;
  int exclusive_holders = 0;  // exclusive locks held at any target
  std::vector<int> lock_all_waiting;

  FenceState& fence() { return fence_; }

  // A member left the window (MPI_Win_free); true when it was the last.
  bool leave(int comm_rank);
  bool is_left() const { return live_members_ == 0; }
  // Lock requests and releases on their way: a window whose members all left lives on until
  // the last one arrives.
  int messages_in_flight = 0;

 private:
  MPI_Win handle_;
  Communicator& comm_;
  int flavor_;
  std::vector<WinMember> members_;
  int live_members_;
  char* shared_block_ = nullptr;
  std::unordered_map<int, TargetLock> locks_;
  FenceState fence_;
};

// The families of synchronization calls, each with its own cost (mpi.rma.<family>_overhead):
// published measurements of one implementation differ twentyfold between them (foMPI on a Cray
// XE6: 17 ns for MPI_Win_sync, 76 ns for a flush, 350 ns per PSCW notice, 400 ns for an unlock).
enum class SyncFamily {
  Fence,    // MPI_Win_fence
  Pscw,     // MPI_Win_post, _start, _complete, _wait
  Lock,     // MPI_Win_lock, _unlock, _lock_all, _unlock_all
  Flush,    // MPI_Win_flush, _flush_all, _flush_local, _flush_local_all
  WinSync,  // MPI_Win_sync
  Count
};

// The software costs of one-sided calls (the mpi.rma.* keys), read once per job: CPU time of
// the origin for issuing one operation, and of a synchronization call of each family.
struct RmaParams {
  SimTime put_overhead;
  SimTime get_overhead;
  SimTime accumulate_overhead;
  SimTime atomic_overhead;
  std::array<SimTime, static_cast<std::size_t>(SyncFamily::Count)> sync_overheads;
  bool target_progress;  // mpi.rma.progress = target_call
  explicit RmaParams(const runtime::Config& config);
  SimTime sync_overhead(SyncFamily f) const { return sync_overheads[static_cast<std::size_t>(f)]; }
};

// When a target can serve a one-sided request that reaches it at the current time: now under
// mpi.rma.progress = hardware, else when `target_world` next is in an MPI call (now if it is
// blocked in one, else when its current computation or sleep ends).
SimTime target_serves_at(World& w, int target_world);

// The job's windows by handle (the same handle on every member), as World keeps communicators.
// One Windows exists per simulated job, beside the World (the launcher owns both).
class Windows {
 public:
  explicit Windows(const runtime::Config& config);
  ~Windows();
  Windows(const Windows&) = delete;
  Windows& operator=(const Windows&) = delete;
  static Windows& get();
  const RmaParams& params() const { return params_; }

  // The window `h` names, or nullptr.
  Window* find(MPI_Win h);
  // The window being made on private communicator `comm` by its members: the first caller makes
  // it (registering a handle), the others find it; made by MPI_Win_create and its siblings.
  Window& take(Communicator& comm, int flavor);
  // Destroys `w` and frees its handle once its last member left and no lock message of it is on
  // its way (called again when the last one arrives).
  void remove(Window* w);

 private:
  static Windows* instance_;
  RmaParams params_;
  HandleTable<std::unique_ptr<Window>> table_{SIMMPI_KIND_WIN, 1};  // 0 is MPI_WIN_NULL
  MadeTogether<Window> making_;
};

}  // namespace simmpi::mpi
