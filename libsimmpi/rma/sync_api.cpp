// SPDX-License-Identifier: Apache-2.0
// Active-target synchronization (MPI-3.1 11.5.1, 11.5.2) and the flushes (11.5.4):
// MPI_Win_fence, MPI_Win_post/start/complete/wait/test, MPI_Win_flush(_all, _local,
// _local_all) and MPI_Win_sync. Each call costs its family's mpi.rma.fence_overhead,
// _pscw_overhead, _flush_overhead or _win_sync_overhead, then what it waits for:
//   fence     the caller's operations complete, then a dissemination barrier over the members
//             (fence_sync.hpp), as MPICH's and Open MPI's fences
//   post      a notice to each origin of the group, L after the call
//   start     every target's post notice in (MPI_MODE_NOCHECK: none awaited)
//   complete  the caller's operations complete, then a notice to each target, L after
//   wait      every origin's complete notice in
//   flush*    the operations complete (at their targets, or locally)
// The calls that begin an access or exposure epoch close a fence epoch left open (a fence
// without MPI_MODE_NOSUCCEED, as programs commonly end their fence phase).
#include <algorithm>
#include <string>
#include <vector>

#include "libsimmpi/comm/group_api.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/rma/fence_sync.hpp"
#include "libsimmpi/rma/member_wait.hpp"
#include "libsimmpi/rma/operations.hpp"
#include "libsimmpi/rma/win_call.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;
namespace runtime = simmpi::runtime;

namespace {

constexpr int kFenceAsserts =
    MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

// The window ranks of the members of group `h`; false after raising MPI_ERR_GROUP.
bool window_ranks(ApiCall& call, const WinRef& r, MPI_Group h, std::vector<int>* out, int* err) {
  const Group* g = find_group(call, h, MPI_COMM_WORLD, err);
  if (!g) return false;
  out->clear();
  for (int i = 0; i < g->size; ++i) {
    int k = r.win->comm().comm_rank(g->world_rank(i));
    if (k < 0) {
      *err = win_fail(call, r, MPI_ERR_GROUP,
                      "rank %d of the group (world rank %d) is not a "
                      "member of the window",
                      i, g->world_rank(i));
      return false;
    }
    out->push_back(k);
  }
  return true;
}

// Notices (posts or completes) a member waits for from each of `from`.
struct NoticeWait {
  Window* win;
  int me;
  const std::vector<int>* from;
  bool posts;  // MPI_Win_post notices, else MPI_Win_complete ones
};

std::string describe_notices(const void* ctx) {
  auto* n = static_cast<const NoticeWait*>(ctx);
  WinMember& m = n->win->member(n->me);
  auto& got = n->posts ? m.posts_from : m.completes_from;
  std::vector<int> missing;
  for (int k : *n->from) {
    auto it = got.find(k);
    if (it == got.end() || it->second.empty()) missing.push_back(k);
  }
  return strprintf("waiting for %s from %s of %s", n->posts ? "MPI_Win_post" : "MPI_Win_complete",
                   awaited_ranks(missing).c_str(), n->win->name().c_str());
}

// Whether a notice from each of `from` has been sent; the latest arrival time in *latest.
bool all_noticed(WinMember& m, const NoticeWait& n, SimTime* latest) {
  auto& got = n.posts ? m.posts_from : m.completes_from;
  for (int k : *n.from) {
    auto it = got.find(k);
    if (it == got.end() || it->second.empty()) return false;
    *latest = runtime::max(*latest, it->second.front());
  }
  return true;
}

void take_notices(WinMember& m, const NoticeWait& n) {
  auto& got = n.posts ? m.posts_from : m.completes_from;
  for (int k : *n.from) {
    auto it = got.find(k);
    it->second.pop_front();
    if (it->second.empty()) got.erase(it);
  }
}

// Blocks until a notice from each of `from` has arrived, and takes them.
void await_notices(World& w, const WinRef& r, const std::vector<int>& from, bool posts) {
  WinMember& m = r.member();
  const NoticeWait n{r.win, r.me, &from, posts};
  block_member_until(w, m, describe_notices, &n, [&] {
    SimTime latest = w.now();
    if (!all_noticed(m, n, &latest)) return false;
    if (latest > w.now()) w.scheduler().wait_until(latest);
    return true;
  });
  take_notices(m, n);
}

// Sends a notice from the caller to each of `to`, arriving L later.
void send_notices(World& w, const WinRef& r, const std::vector<int>& to, bool posts) {
  int me_world = r.win->comm().world_rank(r.me);
  for (int k : to) {
    WinMember& dst = r.win->member(k);
    SimTime at = w.now() + w.platform().latency(me_world, r.win->comm().world_rank(k));
    (posts ? dst.posts_from : dst.completes_from)[r.me].push_back(at);
    if (dst.waiter >= 0) w.scheduler().wake(w.scheduler().process(dst.waiter), at);
  }
}

// MPI_Win_flush and its siblings: to `rank`, or to every target when `all`. MPI_PROC_NULL is
// a valid target (MPI-3.1 11.3; MPICH and Open MPI return at once).
int flush(const char* name, MPI_Win win, bool all, int rank, bool local) {
  ApiCall call(name, ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  const auto kind = local ? (all ? simmpi::runtime::call_trace::Kind::WinFlushLocalAll
                                 : simmpi::runtime::call_trace::Kind::WinFlushLocal)
                          : (all ? simmpi::runtime::call_trace::Kind::WinFlushAll
                                 : simmpi::runtime::call_trace::Kind::WinFlush);
  auto record = [&] {
    CallRecord rec(call, kind);
    if (!all) rec.value(rank);
    rec.value(win);
  };
  if (!all && rank == MPI_PROC_NULL) return record(), MPI_SUCCESS;
  if (!all && (err = check_rank(call, r, "rank", rank)) != MPI_SUCCESS) return err;
  if (!m.lock_all && (all ? m.locks.empty() : !m.locks.count(rank)))
    return win_fail(call, r, MPI_ERR_RMA_SYNC,
                    "no passive-target epoch to %s is open (call "
                    "MPI_Win_lock or MPI_Win_lock_all first)",
                    all ? "any rank" : strprintf("rank %d", rank).c_str());
  record();
  charge_sync(call.world, SyncFamily::Flush);
  wait_operations(call.world, *r.win, r.me, all ? -1 : rank, local);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Win_fence(int assert, MPI_Win win) {
  ApiCall call("MPI_Win_fence", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (assert & ~kFenceAsserts)
    return win_fail(call, r, MPI_ERR_ASSERT,
                    "assert=%d has bits other than MPI_MODE_NOSTORE, "
                    "_NOPUT, _NOPRECEDE and _NOSUCCEED",
                    assert);
  if ((err = check_no_pscw_epoch(call, r, true)) != MPI_SUCCESS ||
      (err = check_no_passive_epoch(call, r)) != MPI_SUCCESS)
    return err;
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinFence).value(assert).value(win);
  charge_sync(call.world, SyncFamily::Fence);
  if (!(assert& MPI_MODE_NOPRECEDE)) wait_operations(call.world, *r.win, r.me, -1, false);
  Communicator& priv = r.win->comm();
  std::string why;
  int cls =
      priv.check_collective(r.me, CollectiveSignature{"MPI_Win_fence", -1, MPI_OP_NULL, -1}, &why);
  if (cls != MPI_SUCCESS) return win_fail(call, r, cls, "%s", why.c_str());
  fence_barrier(call.world, *r.win, r.me);
  m.fence_epoch = !(assert& MPI_MODE_NOSUCCEED);
  return MPI_SUCCESS;
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  ApiCall call("MPI_Win_post", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (assert & ~(MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT))
    return win_fail(call, r, MPI_ERR_ASSERT,
                    "assert=%d is not a combination of "
                    "MPI_MODE_NOCHECK, _NOSTORE and _NOPUT",
                    assert);
  if (m.exposure_posted)
    return win_fail(call, r, MPI_ERR_RMA_SYNC, "an exposure epoch (MPI_Win_post) is open already");
  std::vector<int> ranks;
  if (!window_ranks(call, r, group, &ranks, &err)) return err;
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinPost)
      .array(ranks.data(), static_cast<int>(ranks.size()))
      .value(assert)
      .value(win);
  charge_sync(call.world, SyncFamily::Pscw);
  m.fence_epoch = false;
  m.exposure_posted = true;
  m.exposure_group = ranks;
  if (!(assert& MPI_MODE_NOCHECK)) send_notices(call.world, r, ranks, true);
  return MPI_SUCCESS;
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  ApiCall call("MPI_Win_start", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (assert & ~MPI_MODE_NOCHECK)
    return win_fail(call, r, MPI_ERR_ASSERT, "assert=%d is not 0 or MPI_MODE_NOCHECK", assert);
  if ((err = check_no_pscw_epoch(call, r, false)) != MPI_SUCCESS ||
      (err = check_no_passive_epoch(call, r)) != MPI_SUCCESS)
    return err;
  std::vector<int> ranks;
  if (!window_ranks(call, r, group, &ranks, &err)) return err;
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinStart)
      .array(ranks.data(), static_cast<int>(ranks.size()))
      .value(assert)
      .value(win);
  charge_sync(call.world, SyncFamily::Pscw);
  m.fence_epoch = false;
  if (!(assert& MPI_MODE_NOCHECK)) await_notices(call.world, r, ranks, true);
  m.access_started = true;
  m.access_group = std::move(ranks);
  return MPI_SUCCESS;
}

int MPI_Win_complete(MPI_Win win) {
  ApiCall call("MPI_Win_complete", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (!m.access_started)
    return win_fail(call, r, MPI_ERR_RMA_SYNC, "no access epoch was started (MPI_Win_start)");
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinComplete).value(win);
  charge_sync(call.world, SyncFamily::Pscw);
  wait_operations(call.world, *r.win, r.me, -1, false);
  send_notices(call.world, r, m.access_group, false);
  m.access_started = false;
  m.access_group.clear();
  return MPI_SUCCESS;
}

int MPI_Win_wait(MPI_Win win) {
  ApiCall call("MPI_Win_wait", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (!m.exposure_posted)
    return win_fail(call, r, MPI_ERR_RMA_SYNC, "no exposure epoch was posted (MPI_Win_post)");
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinWait).value(win);
  charge_sync(call.world, SyncFamily::Pscw);
  await_notices(call.world, r, m.exposure_group, false);
  m.exposure_posted = false;
  m.exposure_group.clear();
  return MPI_SUCCESS;
}

// Polls like MPI_Test: one mpi.poll_cost, and a run of polls that can never succeed ends in the
// deadlock report.
int MPI_Win_test(MPI_Win win, int* flag) {
  ApiCall call("MPI_Win_test");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  WinMember& m = r.member();
  if (!flag) return win_fail(call, r, MPI_ERR_ARG, "flag is NULL");
  if (!m.exposure_posted)
    return win_fail(call, r, MPI_ERR_RMA_SYNC, "no exposure epoch was posted (MPI_Win_post)");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::WinTest);
  rec.value(win).out(flag);
  NoticeWait n{r.win, r.me, &m.exposure_group, false};
  SimTime latest = call.world.now();
  bool sent = all_noticed(m, n, &latest);
  *flag = sent && latest <= call.world.now();
  if (*flag) {
    take_notices(m, n);
    m.exposure_posted = false;
    m.exposure_group.clear();
  }
  call.world.charge_poll(sent);
  return MPI_SUCCESS;
}

int MPI_Win_flush(int rank, MPI_Win win) {
  return flush("MPI_Win_flush", win, false, rank, false);
}

int MPI_Win_flush_all(MPI_Win win) {
  return flush("MPI_Win_flush_all", win, true, -1, false);
}

int MPI_Win_flush_local(int rank, MPI_Win win) {
  return flush("MPI_Win_flush_local", win, false, rank, true);
}

int MPI_Win_flush_local_all(MPI_Win win) {
  return flush("MPI_Win_flush_local_all", win, true, -1, true);
}

// The memory model is unified (MPI_WIN_MODEL): the public and private copies are one, so this
// only costs a synchronization call.
int MPI_Win_sync(MPI_Win win) {
  ApiCall call("MPI_Win_sync", ApiCall::Needs::Init, settle_with_cost());
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinSync).value(win);
  charge_sync(call.world, SyncFamily::WinSync);
  return MPI_SUCCESS;
}

}  // extern "C"
