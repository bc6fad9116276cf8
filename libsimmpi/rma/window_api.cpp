// SPDX-License-Identifier: Apache-2.0
// Making and freeing windows (MPI-3.1 11.2): MPI_Win_create, _allocate, _allocate_shared with
// MPI_Win_shared_query, _create_dynamic with _attach and _detach, and MPI_Win_free. Each
// creation is collective over its communicator and costs what MPICH's does: a communicator
// duplication (a context id allreduce) and an allgather of every member's base, size and
// displacement unit.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/comm/attributes.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/intracomm_create.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/info/info_objects.hpp"
#include "libsimmpi/rma/operations.hpp"
#include "libsimmpi/rma/win_call.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;
namespace runtime = simmpi::runtime;

namespace {

struct Entry {
  std::int64_t base, size, disp_unit;
};

// What one member brings to a new window.
struct Making {
  int flavor;
  char* base;
  MPI_Aint size;
  int disp_unit;
  bool owns_base;
  MPI_Info info;
};

// A window's memory must be shared by its members for MPI_Win_allocate_shared: all on one node.
bool one_node(World& w, const Communicator& c) {
  int node = w.platform().node_of(c.world_rank(0));
  for (int i = 1; i < c.size(); ++i)
    if (w.platform().node_of(c.world_rank(i)) != node) return false;
  return true;
}

// One block for the whole window, each member's part right after the one before (contiguous,
// as MPI_Win_allocate_shared does unless alloc_shared_noncontig is given).
void allocate_shared_block(Window& win) {
  MPI_Aint total = 0;
  for (int i = 0; i < win.size(); ++i) total += win.member(i).size;
  char* block = static_cast<char*>(std::calloc(static_cast<std::size_t>(total ? total : 1), 1));
  SIMMPI_ASSERT(block, "cannot allocate the %ld bytes of a shared window", total);
  win.set_shared_block(block);
  MPI_Aint offset = 0;
  for (int i = 0; i < win.size(); ++i) {
    win.member(i).base = block + offset;
    offset += win.member(i).size;
  }
}

void note_hints(ApiCall& call, WinMember& m, MPI_Info info) {
  m.hints.clear();
  if (info == MPI_INFO_NULL) return;
  if (const Info* in = InfoObjects::get().find(call.rank, info)) m.hints = in->entries;
}

int make_window(ApiCall& call, MPI_Comm comm, const Making& mk, MPI_Win* out) {
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (c->is_inter())
    return call.fail(comm, MPI_ERR_COMM,
                     "%s is an intercommunicator; windows need an "
                     "intracommunicator",
                     c->name().c_str());
  if (!out) return call.fail(comm, MPI_ERR_ARG, "win is NULL");
  if (mk.size < 0) return call.fail(comm, MPI_ERR_SIZE, "size=%ld is negative", mk.size);
  if (mk.disp_unit <= 0)
    return call.fail(comm, MPI_ERR_DISP, "disp_unit=%d is not positive", mk.disp_unit);
  if (mk.flavor == MPI_WIN_FLAVOR_SHARED && !one_node(call.world, *c))
    return call.fail(comm, MPI_ERR_RMA_SHARED,
                     "the ranks of %s are not all on one node, so they cannot share memory (make "
                     "the communicator with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED))",
                     c->name().c_str());
  int err = check_collective_call(call, comm, *c, call.name);
  MPI_Comm pc = MPI_COMM_NULL;
  if (err == MPI_SUCCESS) err = dup_comm(call, *c, &pc);
  if (err != MPI_SUCCESS) return err;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::WinCreate);
  if (mk.flavor == MPI_WIN_FLAVOR_DYNAMIC) rec.cancel();  // its displacements are addresses
  rec.value(mk.flavor).value(mk.size).value(mk.disp_unit).value(comm).out(out);
  Communicator& priv = *call.world.find_comm(pc, call.rank);
  Window& win = Windows::get().take(priv, mk.flavor);
  const int me = priv.comm_rank(call.rank);
  WinMember& m = win.member(me);
  m.base = mk.base;
  m.size = mk.size;
  m.disp_unit = mk.disp_unit;
  m.owns_base = mk.owns_base;
  note_hints(call, m, mk.info);
  // The allgather carries what MPICH's carries; every member's entry is in the window once it
  // is over.
  std::vector<Entry> all(static_cast<std::size_t>(priv.size()));
  all[static_cast<std::size_t>(me)] = {reinterpret_cast<std::intptr_t>(mk.base), mk.size,
                                       mk.disp_unit};
  CollContext cc(call.world, priv);
  run_allgatherv(cc, Coll::Allgather, reinterpret_cast<char*>(all.data()),
                 uniform(priv.size(), sizeof(Entry)), strided(priv.size(), sizeof(Entry)));
  // The first member out of it (all sizes are in) makes the shared block.
  if (mk.flavor == MPI_WIN_FLAVOR_SHARED && !win.has_shared_block()) allocate_shared_block(win);
  priv.set_name(
      strprintf("window 0x%08x of %s", static_cast<unsigned>(win.handle()), c->name().c_str()));
  *out = win.handle();
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win* win) {
  ApiCall call("MPI_Win_create");
  return make_window(
      call, comm,
      Making{MPI_WIN_FLAVOR_CREATE, static_cast<char*>(base), size, disp_unit, false, info}, win);
}

// Plain heap memory, as MPI_Alloc_mem gives (large blocks may be folded like the program's).
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                     MPI_Win* win) {
  ApiCall call("MPI_Win_allocate");
  if (!baseptr) return call.fail(comm, MPI_ERR_ARG, "baseptr is NULL");
  char* base = size > 0 ? static_cast<char*>(std::malloc(static_cast<std::size_t>(size))) : nullptr;
  if (size > 0 && !base) return call.fail(comm, MPI_ERR_NO_MEM, "cannot allocate %ld bytes", size);
  int err = make_window(call, comm,
                        Making{MPI_WIN_FLAVOR_ALLOCATE, base, size, disp_unit, true, info}, win);
  if (err != MPI_SUCCESS) {
    std::free(base);
    return err;
  }
  *static_cast<void**>(baseptr) = base;
  return MPI_SUCCESS;
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void* baseptr, MPI_Win* win) {
  ApiCall call("MPI_Win_allocate_shared");
  if (!baseptr) return call.fail(comm, MPI_ERR_ARG, "baseptr is NULL");
  int err = make_window(call, comm,
                        Making{MPI_WIN_FLAVOR_SHARED, nullptr, size, disp_unit, false, info}, win);
  if (err != MPI_SUCCESS) return err;
  Window* w = Windows::get().find(*win);
  *static_cast<void**>(baseptr) = w->member(w->comm().comm_rank(call.rank)).base;
  return MPI_SUCCESS;
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  ApiCall call("MPI_Win_create_dynamic");
  return make_window(call, comm, Making{MPI_WIN_FLAVOR_DYNAMIC, nullptr, 0, 1, false, info}, win);
}

// rank MPI_PROC_NULL: the first member with a non-empty part (MPI-3.1 11.2.3).
// MPI-4.1 11.2.3: any window but a dynamic one may be queried. Only the parts of a window of
// MPI_Win_allocate_shared are shared memory; in a window of MPI_Win_create or MPI_Win_allocate a
// rank reaches only its own part directly, as separate processes would (simmpi's ranks could
// reach every part, but a program that relied on it would not run on a real machine), and any
// other part is given as size 0 and a NULL base.
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  ApiCall call("MPI_Win_shared_query");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (r.win->flavor() == MPI_WIN_FLAVOR_DYNAMIC)
    return win_fail(call, r, MPI_ERR_RMA_FLAVOR,
                    "a window of MPI_Win_create_dynamic has no memory of its own to share");
  if (!size || !disp_unit || !baseptr) return win_fail(call, r, MPI_ERR_ARG, "an output is NULL");
  if (rank == MPI_PROC_NULL) {
    rank = 0;
    while (rank + 1 < r.win->size() && r.win->member(rank).size == 0) ++rank;
  } else if ((err = check_rank(call, r, "rank", rank)) != MPI_SUCCESS) {
    return err;
  }
  const WinMember& m = r.win->member(rank);
  *disp_unit = m.disp_unit;
  if (r.win->flavor() == MPI_WIN_FLAVOR_SHARED || &m == &r.member()) {
    *size = m.size;
    *static_cast<void**>(baseptr) = m.base;
  } else {
    *size = 0;
    *static_cast<void**>(baseptr) = nullptr;
  }
  return MPI_SUCCESS;
}

int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  ApiCall call("MPI_Win_attach");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (r.win->flavor() != MPI_WIN_FLAVOR_DYNAMIC)
    return win_fail(call, r, MPI_ERR_RMA_FLAVOR,
                    "only windows made by MPI_Win_create_dynamic take attached memory");
  if (size < 0) return win_fail(call, r, MPI_ERR_SIZE, "size=%ld is negative", size);
  if (!base && size > 0) return win_fail(call, r, MPI_ERR_BASE, "base is NULL");
  auto lo = reinterpret_cast<std::intptr_t>(base);
  for (const WinMember::Region& g : r.member().attached)
    if (lo < g.base + g.size && g.base < lo + size)
      return win_fail(call, r, MPI_ERR_RMA_ATTACH,
                      "[%p, +%ld) overlaps memory attached before at [%p, +%ld)", base, size,
                      reinterpret_cast<void*>(g.base), g.size);
  r.member().attached.push_back({lo, size});
  return MPI_SUCCESS;
}

int MPI_Win_detach(MPI_Win win, const void* base) {
  ApiCall call("MPI_Win_detach");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (r.win->flavor() != MPI_WIN_FLAVOR_DYNAMIC)
    return win_fail(call, r, MPI_ERR_RMA_FLAVOR,
                    "only windows made by MPI_Win_create_dynamic have attached memory");
  auto& regions = r.member().attached;
  for (auto it = regions.begin(); it != regions.end(); ++it)
    if (it->base == reinterpret_cast<std::intptr_t>(base)) {
      regions.erase(it);
      return MPI_SUCCESS;
    }
  return win_fail(call, r, MPI_ERR_RMA_ATTACH, "no memory was attached at %p", base);
}

// Collective: every member's operations complete, then a barrier (as MPICH's), then the
// attributes' delete callbacks.
int MPI_Win_free(MPI_Win* win) {
  ApiCall call("MPI_Win_free");
  if (!win) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "win is NULL");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, *win, &err);
  if (!r) return err;
  if ((err = check_no_passive_epoch(call, r)) != MPI_SUCCESS ||
      (err = check_no_pscw_epoch(call, r, true)) != MPI_SUCCESS)
    return err;
  wait_operations(call.world, *r.win, r.me, -1, false);
  Communicator& priv = r.win->comm();
  std::string why;
  int cls =
      priv.check_collective(r.me, CollectiveSignature{"MPI_Win_free", -1, MPI_OP_NULL, -1}, &why);
  if (cls != MPI_SUCCESS) return win_fail(call, r, cls, "%s", why.c_str());
  CallRecord(call, simmpi::runtime::call_trace::Kind::WinFree).value(*win);
  CollContext cc(call.world, priv, priv.last_collective(r.me));
  run_barrier(cc);
  err = delete_attributes(call, *win, &priv);
  if (err != MPI_SUCCESS)
    return win_fail(call, r, err, "an attribute delete callback returned %d", err);
  Window* w = r.win;
  bool last = w->leave(r.me);
  leave_comm(call, priv);
  if (last) Windows::get().remove(w);
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
