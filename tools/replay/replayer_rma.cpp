// SPDX-License-Identifier: Apache-2.0
// simmpi-replay's one-sided communication (see replayer.hpp): windows made as the program made
// them (a created one over folded memory of its size), the recorded communication calls with
// the recorded counts, types, targets and displacements, and the synchronization calls.
#include <simmpi.h>

#include "tools/replay/replayer.hpp"

namespace simmpi::replay {

namespace ct = runtime::call_trace;
using ct::Kind;

MPI_Win Replayer::window(std::int64_t recorded) {
  auto w = windows_.find(recorded);
  if (w == windows_.end())
    in_.fail("window " + std::to_string(recorded) + " was not made by an earlier record");
  return w->second.win;
}

void Replayer::window_lifetime(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::WinFree) {
    const std::int64_t recorded = f.next();
    Window w{window(recorded), windows_[recorded].memory};
    MPI_Win_free(&w.win);
    simmpi_shared_free(w.memory);
    windows_.erase(recorded);
    return;
  }
  const int flavor = f.i();
  const MPI_Aint size = static_cast<MPI_Aint>(f.next());
  const int disp_unit = f.i();
  const MPI_Comm c = comm(f.next());
  Window w;
  void* base = nullptr;
  if (flavor == MPI_WIN_FLAVOR_CREATE) {
    w.memory = simmpi_shared_malloc(static_cast<std::size_t>(std::max<MPI_Aint>(size, 1)));
    MPI_Win_create(w.memory, size, disp_unit, MPI_INFO_NULL, c, &w.win);
  } else if (flavor == MPI_WIN_FLAVOR_ALLOCATE) {
    MPI_Win_allocate(size, disp_unit, MPI_INFO_NULL, c, &base, &w.win);
  } else if (flavor == MPI_WIN_FLAVOR_SHARED) {
    MPI_Win_allocate_shared(size, disp_unit, MPI_INFO_NULL, c, &base, &w.win);
  } else {
    in_.fail("window flavor " + std::to_string(flavor) + " is not one the replay makes");
  }
  windows_[f.next()] = w;
}

// The calls' buffers are the folded ones: the origin's and the compare buffer from the send
// side, what comes back into the receive side.
void Replayer::rma_operation(const Record& r) {
  Fields f(r);
  const int call = f.i();
  const MPI_Op o = op(f.next());
  const bool reduces = o != MPI_REPLACE && o != MPI_NO_OP;
  int ocount = f.i();
  const std::int64_t otype_recorded = f.next();
  int rcount = f.i();
  const std::int64_t rtype_recorded = f.next();
  const int target = f.i();
  const MPI_Aint disp = static_cast<MPI_Aint>(f.next());
  int tcount = f.i();
  const std::int64_t ttype_recorded = f.next();
  const MPI_Win w = window(f.next());
  const std::int64_t recorded = f.next();
  if (call < 0 || call >= static_cast<int>(sizeof ct::kRmaCalls / sizeof ct::kRmaCalls[0]))
    in_.fail("a one-sided call the replay does not know (" + std::to_string(call) + ")");
  const std::string_view name = ct::kRmaCalls[call];
  const bool fetching = name.find("et_accumulate") != std::string_view::npos ||
                        name == "MPI_Fetch_and_op" || name == "MPI_Compare_and_swap";
  // Absent buffers were recorded as MPI_DATATYPE_NULL (-1: no bytes).
  auto typed = [&](std::int64_t recorded_type, int* count, bool reduction) {
    return recorded_type == -1 ? MPI_DATATYPE_NULL : type(recorded_type, count, reduction);
  };
  const MPI_Datatype ot = typed(otype_recorded, &ocount, reduces);
  const MPI_Datatype rt = fetching ? typed(rtype_recorded, &rcount, reduces) : MPI_DATATYPE_NULL;
  const MPI_Datatype tt = typed(ttype_recorded, &tcount, reduces);
  const void* origin = send_buffer(ocount);
  void* result =
      recv_buffer(std::max(rcount, name == "MPI_Get" || name == "MPI_Rget" ? ocount : 0));
  MPI_Request q = MPI_REQUEST_NULL;
  if (name == "MPI_Put")
    MPI_Put(origin, ocount, ot, target, disp, tcount, tt, w);
  else if (name == "MPI_Rput")
    MPI_Rput(origin, ocount, ot, target, disp, tcount, tt, w, &q);
  else if (name == "MPI_Get")
    MPI_Get(result, ocount, ot, target, disp, tcount, tt, w);
  else if (name == "MPI_Rget")
    MPI_Rget(result, ocount, ot, target, disp, tcount, tt, w, &q);
  else if (name == "MPI_Accumulate")
    MPI_Accumulate(origin, ocount, ot, target, disp, tcount, tt, o, w);
  else if (name == "MPI_Raccumulate")
    MPI_Raccumulate(origin, ocount, ot, target, disp, tcount, tt, o, w, &q);
  else if (name == "MPI_Get_accumulate")
    MPI_Get_accumulate(origin, ocount, ot, result, rcount, rt, target, disp, tcount, tt, o, w);
  else if (name == "MPI_Rget_accumulate")
    MPI_Rget_accumulate(origin, ocount, ot, result, rcount, rt, target, disp, tcount, tt, o, w, &q);
  else if (name == "MPI_Fetch_and_op")
    MPI_Fetch_and_op(origin, result, tt, target, disp, o, w);
  else
    MPI_Compare_and_swap(origin, send_buffer(2), result, tt, target, disp, w);
  if (recorded != ct::kNoRequest) made(recorded, q);
}

void Replayer::rma_sync(const Record& r) {
  Fields f(r);
  switch (r.kind) {
    case Kind::WinFence: {
      const int assert = f.i();
      MPI_Win_fence(assert, window(f.next()));
      return;
    }
    case Kind::WinLock: {
      const int lock_type = f.i(), rank = f.i(), assert = f.i();
      MPI_Win_lock(lock_type, rank, assert, window(f.next()));
      return;
    }
    case Kind::WinUnlock:
    case Kind::WinFlush:
    case Kind::WinFlushLocal: {
      const int rank = f.i();
      const MPI_Win w = window(f.next());
      r.kind == Kind::WinUnlock  ? MPI_Win_unlock(rank, w)
      : r.kind == Kind::WinFlush ? MPI_Win_flush(rank, w)
                                 : MPI_Win_flush_local(rank, w);
      return;
    }
    case Kind::WinLockAll: {
      const int assert = f.i();
      MPI_Win_lock_all(assert, window(f.next()));
      return;
    }
    case Kind::WinPost:
    case Kind::WinStart:
      return access_group(r);
    case Kind::WinTest: {
      const MPI_Win w = window(f.next());
      int flag = 0;
      ++notes_.polls;
      MPI_Win_test(w, &flag);
      const std::int64_t recorded_flag = f.next();
      outcome(recorded_flag, flag);
      if (recorded_flag && !flag) MPI_Win_wait(w);  // as recorded: the epoch ends here
      return;
    }
    default:
      break;
  }
  const MPI_Win w = window(f.next());  // the calls with the window alone
  if (r.kind == Kind::WinUnlockAll)
    MPI_Win_unlock_all(w);
  else if (r.kind == Kind::WinFlushAll)
    MPI_Win_flush_all(w);
  else if (r.kind == Kind::WinFlushLocalAll)
    MPI_Win_flush_local_all(w);
  else if (r.kind == Kind::WinSync)
    MPI_Win_sync(w);
  else if (r.kind == Kind::WinComplete)
    MPI_Win_complete(w);
  else
    MPI_Win_wait(w);
}

// MPI_Win_post and MPI_Win_start: their group as ranks of the window's group.
void Replayer::access_group(const Record& r) {
  Fields f(r);
  const std::vector<int> ranks = f.array();
  const int assert = f.i();
  const MPI_Win w = window(f.next());
  MPI_Group all, g;
  MPI_Win_get_group(w, &all);
  MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &g);
  r.kind == Kind::WinPost ? MPI_Win_post(g, assert, w) : MPI_Win_start(g, assert, w);
  MPI_Group_free(&g);
  MPI_Group_free(&all);
}

}  // namespace simmpi::replay
