// SPDX-License-Identifier: Apache-2.0
// Passive-target synchronization (MPI-3.1 11.5.3): MPI_Win_lock, _unlock, _lock_all and
// _unlock_all. Each target has a lock manager that serves requests in their order of arrival,
// in simulated time: a request reaches the target L after the origin's call, is granted when
// the lock is free (shared locks together, an exclusive one alone), and the grant reaches the
// origin L later, so an uncontended MPI_Win_lock costs mpi.rma.lock_overhead + 2L. MPI_Win_unlock
// waits for the origin's operations to the target to complete, then its release reaches the
// target L later and the next waiter is served. MPI_Win_lock_all takes a shared lock on every
// member at once, without messages (as implementations that acquire it lazily, with the first
// operation to each target), waiting only while some member holds an exclusive lock; exclusive
// requests wait while any MPI_Win_lock_all is held. MPI_MODE_NOCHECK locks are not registered.
#include <string>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/rma/member_wait.hpp"
#include "libsimmpi/rma/operations.hpp"
#include "libsimmpi/rma/win_call.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;
namespace runtime = simmpi::runtime;

namespace {

// A lock request or release on its way to its target.
struct LockMessage {
  Window* win;
  int origin, target;
  LockType type;
  bool served = false;  // mpi.rma.progress = target_call: the target is in an MPI call
};

// Under mpi.rma.progress = target_call, a message that reaches a target busy computing waits
// for its next MPI call: true after rescheduling `arrived` for then.
bool defer_to_target(LockMessage* m, void (*arrived)(void*, std::uint64_t)) {
  if (m->served || !Windows::get().params().target_progress || m->win->is_left()) return false;
  World& w = World::get();
  m->served = true;
  SimTime t = target_serves_at(w, m->win->comm().world_rank(m->target));
  if (t == w.now()) return false;
  w.engine().schedule(t, runtime::Action{arrived, m, 0});
  return true;
}

// The grant of `target`'s lock reaches `origin` L after now.
void grant(World& w, Window& win, int origin, int target) {
  SimTime at =
      w.now() + w.platform().latency(win.comm().world_rank(target), win.comm().world_rank(origin));
  WinMember& m = win.member(origin);
  m.granted_at[target] = at;
  if (m.waiter >= 0) w.scheduler().wake(w.scheduler().process(m.waiter), at);
}

// Serves `target`'s queue in order as far as the lock allows.
void serve(World& w, Window& win, int target) {
  TargetLock& tl = win.lock_at(target);
  while (!tl.queue.empty()) {
    TargetLock::Waiting next = tl.queue.front();
    if (next.type == LockType::Exclusive) {
      if (tl.exclusive >= 0 || tl.shared > 0 || win.lock_all_holders > 0) return;
      tl.exclusive = next.origin;
      ++win.exclusive_holders;
    } else {
      if (tl.exclusive >= 0) return;
      ++tl.shared;
    }
    tl.queue.pop_front();
    grant(w, win, next.origin, target);
  }
}

void request_arrived(void* msg, std::uint64_t) {
  auto* m = static_cast<LockMessage*>(msg);
  if (defer_to_target(m, &request_arrived)) return;
  --m->win->messages_in_flight;
  m->win->lock_at(m->target).queue.push_back({m->origin, m->type});
  serve(World::get(), *m->win, m->target);
  delete m;
}

// MPI_Win_lock_all callers waiting for the last exclusive lock to go.
void serve_lock_all(World& w, Window& win) {
  if (win.exclusive_holders > 0) return;
  for (int origin : win.lock_all_waiting) {
    ++win.lock_all_holders;
    WinMember& m = win.member(origin);
    m.lock_all = true;
    if (m.waiter >= 0) w.scheduler().wake(w.scheduler().process(m.waiter), w.now());
  }
  win.lock_all_waiting.clear();
}

void release_arrived(void* msg, std::uint64_t) {
  auto* m = static_cast<LockMessage*>(msg);
  if (defer_to_target(m, &release_arrived)) return;
  World& w = World::get();
  TargetLock& tl = m->win->lock_at(m->target);
  if (m->type == LockType::Exclusive) {
    tl.exclusive = -1;
    --m->win->exclusive_holders;
  } else {
    --tl.shared;
  }
  serve(w, *m->win, m->target);
  serve_lock_all(w, *m->win);
  if (--m->win->messages_in_flight == 0) Windows::get().remove(m->win);
  delete m;
}

// Sends a request or release to `target`, arriving L after now.
void send(World& w, Window& win, int origin, int target, LockType type,
          void (*arrived)(void*, std::uint64_t)) {
  SimTime at =
      w.now() + w.platform().latency(win.comm().world_rank(origin), win.comm().world_rank(target));
  ++win.messages_in_flight;
  w.engine().schedule(at, runtime::Action{arrived, new LockMessage{&win, origin, target, type}, 0});
}

struct LockWait {
  Window* win;
  int origin, target;  // target -1: MPI_Win_lock_all
  LockType type;
};

std::string describe_lock(const void* ctx) {
  auto* l = static_cast<const LockWait*>(ctx);
  if (l->target < 0)
    return strprintf("waiting for MPI_Win_lock_all on %s while exclusive locks are held",
                     l->win->name().c_str());
  TargetLock& tl = l->win->lock_at(l->target);
  std::string held = tl.exclusive >= 0 ? strprintf("held exclusively by rank %d", tl.exclusive)
                     : tl.shared > 0   ? strprintf("held shared by %d ranks", tl.shared)
                     : l->win->lock_all_holders > 0
                         ? strprintf("held by %d MPI_Win_lock_all", l->win->lock_all_holders)
                         : std::string("requested");
  return strprintf("waiting for the %s lock of rank %d on %s (%s)",
                   l->type == LockType::Exclusive ? "exclusive" : "shared", l->target,
                   l->win->name().c_str(), held.c_str());
}

}  // namespace

extern "C" {

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  ApiCall call("MPI_Win_lock", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
    return win_fail(call, r, MPI_ERR_LOCKTYPE,
                    "lock_type=%d is not MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE", lock_type);
  if (assert & ~MPI_MODE_NOCHECK)
    return win_fail(call, r, MPI_ERR_ASSERT, "assert=%d is not 0 or MPI_MODE_NOCHECK", assert);
  auto record = [&] {
    CallRecord(call, simmpi::runtime::call_trace::Kind::WinLock)
        .value(lock_type)
        .value(rank)
        .value(assert)
        .value(win);
  };
  if (rank == MPI_PROC_NULL)  // a valid target of every RMA call (11.3)
    return record(), MPI_SUCCESS;
  if ((err = check_rank(call, r, "rank", rank)) != MPI_SUCCESS) return err;
  if (m.locks.count(rank))
    return win_fail(call, r, MPI_ERR_RMA_SYNC, "rank %d is locked by this origin already", rank);
  if (m.lock_all)
    return win_fail(call, r, MPI_ERR_RMA_SYNC, "MPI_Win_lock_all holds every lock already");
  if ((err = check_no_pscw_epoch(call, r, false)) != MPI_SUCCESS) return err;
  record();
  charge_sync(call.world, SyncFamily::Lock);
  m.fence_epoch = false;
  LockType type = lock_type == MPI_LOCK_SHARED ? LockType::Shared : LockType::Exclusive;
  bool nocheck = assert& MPI_MODE_NOCHECK;
  m.locks[rank] = WinMember::HeldLock{type, nocheck};
  if (nocheck) return MPI_SUCCESS;
  send(call.world, *r.win, r.me, rank, type, &request_arrived);
  World& w = call.world;
  const LockWait what{r.win, r.me, rank, type};
  block_member_until(w, m, describe_lock, &what, [&] {
    auto it = m.granted_at.find(rank);
    if (it == m.granted_at.end()) return false;
    if (it->second > w.now()) w.scheduler().wait_until(it->second);
    return true;
  });
  m.granted_at.erase(rank);
  return MPI_SUCCESS;
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  ApiCall call("MPI_Win_unlock", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  auto record = [&] {
    CallRecord(call, simmpi::runtime::call_trace::Kind::WinUnlock).value(rank).value(win);
  };
  if (rank == MPI_PROC_NULL) return record(), MPI_SUCCESS;
  if ((err = check_rank(call, r, "rank", rank)) != MPI_SUCCESS) return err;
  auto it = m.locks.find(rank);
  if (it == m.locks.end())
    return win_fail(call, r, MPI_ERR_RMA_SYNC,
                    "rank %d is not locked by this origin (no "
                    "MPI_Win_lock)",
                    rank);
  record();
  charge_sync(call.world, SyncFamily::Lock);
  wait_operations(call.world, *r.win, r.me, rank, false);
  WinMember::HeldLock held = it->second;
  m.locks.erase(rank);
  if (!held.nocheck) send(call.world, *r.win, r.me, rank, held.type, &release_arrived);
  return MPI_SUCCESS;
}

int MPI_Win_lock_all(int assert, MPI_Win win) {
  ApiCall call("MPI_Win_lock_all", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (assert & ~MPI_MODE_NOCHECK)
    return win_fail(call, r, MPI_ERR_ASSERT, "assert=%d is not 0 or MPI_MODE_NOCHECK", assert);
  if ((err = check_no_passive_epoch(call, r)) != MPI_SUCCESS ||
      (err = check_no_pscw_epoch(call, r, false)) != MPI_SUCCESS)
    return err;
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinLockAll).value(assert).value(win);
  charge_sync(call.world, SyncFamily::Lock);
  m.fence_epoch = false;
  m.lock_all_nocheck = assert& MPI_MODE_NOCHECK;
  if (m.lock_all_nocheck || r.win->exclusive_holders == 0) {
    if (!m.lock_all_nocheck) ++r.win->lock_all_holders;
    m.lock_all = true;
    return MPI_SUCCESS;
  }
  r.win->lock_all_waiting.push_back(r.me);
  const LockWait what{r.win, r.me, -1, LockType::Shared};
  block_member_until(call.world, m, describe_lock, &what, [&] { return m.lock_all; });
  return MPI_SUCCESS;
}

int MPI_Win_unlock_all(MPI_Win win) {
  ApiCall call("MPI_Win_unlock_all", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (!m.lock_all) return win_fail(call, r, MPI_ERR_RMA_SYNC, "no MPI_Win_lock_all epoch is open");
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinUnlockAll).value(win);
  charge_sync(call.world, SyncFamily::Lock);
  wait_operations(call.world, *r.win, r.me, -1, false);
  m.lock_all = false;
  if (m.lock_all_nocheck || --r.win->lock_all_holders > 0) return MPI_SUCCESS;
  for (auto& [target, tl] : r.win->target_locks())
    if (!tl.queue.empty()) serve(call.world, *r.win, target);
  return MPI_SUCCESS;
}

}  // extern "C"
