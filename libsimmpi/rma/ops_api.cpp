// SPDX-License-Identifier: Apache-2.0
// The communication calls of MPI-3.1 11.3: MPI_Put, MPI_Get, MPI_Accumulate,
// MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and the request-based MPI_Rput,
// MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate. Each checks its arguments against the target's
// part of the window and the caller's epochs, charges the origin's overhead and issues the
// operation (operations.hpp).
#include <algorithm>
#include <string_view>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/core/reduce_op.hpp"
#include "libsimmpi/p2p/transport.hpp"
#include "libsimmpi/rma/operations.hpp"
#include "libsimmpi/rma/win_call.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;
namespace runtime = simmpi::runtime;

namespace {

// One call's arguments. Absent buffers have no type (MPI_DATATYPE_NULL).
struct Args {
  RmaKind kind = RmaKind::Put;
  MPI_Op op = MPI_REPLACE;
  const void* origin = nullptr;
  int origin_count = 0;
  MPI_Datatype origin_type = MPI_DATATYPE_NULL;
  void* result = nullptr;
  int result_count = 0;
  MPI_Datatype result_type = MPI_DATATYPE_NULL;
  const void* compare = nullptr;
  int target_rank = MPI_PROC_NULL;
  MPI_Aint target_disp = 0;
  int target_count = 0;
  MPI_Datatype target_type = MPI_DATATYPE_NULL;
  MPI_Request* request = nullptr;  // nullptr for the calls that make none
};

// The arguments of the calls with one buffer at each end: MPI_Put, MPI_Get, MPI_Accumulate
// (`op`) and their request-based forms.
Args one_buffer(RmaKind kind, MPI_Op op, const void* origin, int origin_count,
                MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp, int target_count,
                MPI_Datatype target_type) {
  return Args{.kind = kind,
              .op = op,
              .origin = origin,
              .origin_count = origin_count,
              .origin_type = origin_type,
              .target_rank = target_rank,
              .target_disp = target_disp,
              .target_count = target_count,
              .target_type = target_type};
}

// MPI_Get_accumulate's arguments and its request-based form's.
Args get_accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, void* result,
                    int result_count, MPI_Datatype result_type, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op) {
  return Args{.kind = RmaKind::GetAccumulate,
              .op = op,
              .origin = origin,
              .origin_count = origin_count,
              .origin_type = origin_type,
              .result = result,
              .result_count = result_count,
              .result_type = result_type,
              .target_rank = target_rank,
              .target_disp = target_disp,
              .target_count = target_count,
              .target_type = target_type};
}

// The committed type `h`, or nullptr after raising MPI_ERR_TYPE on the window into *err.
const Datatype* find_type(ApiCall& call, const WinRef& r, MPI_Datatype h, const char* what,
                          int* err) {
  const Datatype* t = find_datatype(h, call.rank);
  if (!t)
    *err = win_fail(call, r, MPI_ERR_TYPE, "%s is not a datatype of this rank", what);
  else if (!is_committed(*t))
    *err = win_fail(call, r, MPI_ERR_TYPE, "%s (%s) is not committed", what, t->name);
  else
    return t;
  return nullptr;
}

// Whether the caller may access `target` now: a fence epoch, a started access epoch that
// includes it, or a lock on it.
bool in_access_epoch(const WinMember& m, int target) {
  if (m.fence_epoch || m.lock_all || m.locks.count(target)) return true;
  return m.access_started &&
         std::find(m.access_group.begin(), m.access_group.end(), target) != m.access_group.end();
}

// Whether bytes [lo, lo + span) of member `tm` lie in memory it attached: in one region or in
// adjacent ones (an operation may span regions attached one after the other, as MPICH's
// win_dynamic_rma_flush_get does).
bool is_attached(const WinMember& tm, std::intptr_t lo, std::int64_t span) {
  std::intptr_t covered = lo;  // [lo, covered) is attached
  bool grew = true;
  while (covered < lo + span && grew) {
    grew = false;
    for (const WinMember::Region& g : tm.attached)
      if (g.base <= covered && covered < g.base + g.size) {
        covered = g.base + g.size;
        grew = true;
      }
  }
  return covered >= lo + span;
}

// Where `count` elements of `type` at `disp` land in the target's memory, after checking they
// lie in its part of the window (in memory it attached, for a dynamic window); 0 after raising
// MPI_ERR_RMA_RANGE into *err.
std::intptr_t target_address(ApiCall& call, const WinRef& r, const Args& a, const Datatype& t,
                             int* err) {
  const WinMember& tm = r.win->member(a.target_rank);
  std::int64_t span =
      a.target_count == 0
          ? 0
          : (a.target_count - 1) * static_cast<std::int64_t>(t.extent) + t.true_extent;
  if (r.win->flavor() == MPI_WIN_FLAVOR_DYNAMIC) {
    std::intptr_t lo = a.target_disp + t.true_lb;
    if (is_attached(tm, lo, span)) return a.target_disp;
    *err = win_fail(call, r, MPI_ERR_RMA_RANGE,
                    "target_disp=%ld with %d x %s reaches [%p, +%ld), which is not in memory rank "
                    "%d attached",
                    a.target_disp, a.target_count, t.name, reinterpret_cast<void*>(lo), span,
                    a.target_rank);
    return 0;
  }
  std::int64_t offset = a.target_disp * tm.disp_unit;
  std::int64_t lo = offset + t.true_lb;
  if (span == 0 || (a.target_disp >= 0 && lo >= 0 && lo + span <= tm.size))
    return reinterpret_cast<std::intptr_t>(tm.base) + offset;
  *err = win_fail(call, r, MPI_ERR_RMA_RANGE,
                  "target_disp=%ld (x disp_unit %d) with %d x %s reaches bytes [%ld, %ld) of rank "
                  "%d's part of the window, which has %ld bytes",
                  a.target_disp, tm.disp_unit, a.target_count, t.name, lo, lo + span, a.target_rank,
                  tm.size);
  return 0;
}

// The operation's types agree: same bytes on both sides (the type signatures of MPI-3.1
// 11.3.1 must match), and for accumulates one predefined element kind that `op` accepts.
int check_match(ApiCall& call, const WinRef& r, const Args& a, const Datatype* o, const Datatype& t,
                const Datatype* res) {
  std::uint64_t tbytes = t.size * static_cast<std::uint64_t>(a.target_count);
  if (o && o->size * static_cast<std::uint64_t>(a.origin_count) != tbytes)
    return win_fail(call, r, MPI_ERR_TYPE,
                    "the origin's %d x %s (%lu bytes) do not match the target's %d x %s (%lu "
                    "bytes)",
                    a.origin_count, o->name, o->size * static_cast<unsigned long>(a.origin_count),
                    a.target_count, t.name, static_cast<unsigned long>(tbytes));
  if (res && res->size * static_cast<std::uint64_t>(a.result_count) != tbytes)
    return win_fail(call, r, MPI_ERR_TYPE, "the result's %d x %s do not match the target's %d x %s",
                    a.result_count, res->name, a.target_count, t.name);
  // An empty signature matches any other (badrma in MPICH's suite: zero counts of any types).
  if (a.kind == RmaKind::Put || a.kind == RmaKind::Get || tbytes == 0) return MPI_SUCCESS;
  if (!is_valid_op(a.op) || is_user_op(a.op))
    return win_fail(call, r, MPI_ERR_OP,
                    "%s: one-sided accumulates take predefined operations only", op_name(a.op));
  if (a.kind == RmaKind::Accumulate && a.op == MPI_NO_OP)
    return win_fail(call, r, MPI_ERR_OP, "MPI_NO_OP is for MPI_Get_accumulate only");
  if ((o && o->elem != t.elem) || (res && res->elem != t.elem))
    return win_fail(call, r, MPI_ERR_TYPE,
                    "the origin's %s and the target's %s are not made of one predefined type",
                    o ? o->name : res->name, t.name);
  if (a.kind != RmaKind::CompareAndSwap && !op_supports(a.op, t))
    return win_fail(call, r, MPI_ERR_OP, "%s is not defined for %s", op_name(a.op), t.name);
  return MPI_SUCCESS;
}

// The origin's CPU time of issuing one operation of the call `name`.
SimTime overhead_of(RmaKind k, const char* name) {
  const RmaParams& p = Windows::get().params();
  switch (k) {
    case RmaKind::Put:
      return p.put_overhead;
    case RmaKind::Get:
      return p.get_overhead;
    case RmaKind::CompareAndSwap:
      return p.atomic_overhead;
    default:
      return std::string_view(name) == "MPI_Fetch_and_op" ? p.atomic_overhead
                                                          : p.accumulate_overhead;
  }
}

// A request for a request-based operation (completed by operations.cpp).
Request* make_request(ApiCall& call, Window& win) {
  Request* q = call.world.requests().create();
  q->kind = RequestKind::Collective;  // completed by the library, like a nonblocking collective
  q->owner = call.rank;
  q->waiter = call.world.scheduler().current()->id();
  q->call = call.name;
  q->comm = &win.comm();
  win.comm().add_request();
  q->status.MPI_SOURCE = MPI_ANY_SOURCE;
  q->status.MPI_TAG = MPI_ANY_TAG;
  return q;
}

// The call as the call trace keeps it (call_trace_format.hpp): one record for every call.
void record(CallRecord& rec, const char* name, MPI_Win win, const Args& a) {
  rec.value(runtime::call_trace::rma_call(name)).op(a.op);
  rec.value(a.origin_count).type(a.origin_type).value(a.result_count).type(a.result_type);
  rec.value(a.target_rank).value(a.target_disp).value(a.target_count).type(a.target_type);
  rec.value(win).request(a.request);
}

int check_and_issue(ApiCall& call, WinRef& r, const Args& a);

int run(ApiCall& call, MPI_Win win, const Args& a) {
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  CallRecord rec(call, runtime::call_trace::Kind::RmaOperation);
  record(rec, call.name, win, a);
  err = check_and_issue(call, r, a);
  if (err != MPI_SUCCESS) rec.cancel();
  return err;
}

int check_and_issue(ApiCall& call, WinRef& r, const Args& a) {
  int err = MPI_SUCCESS;
  if (a.request) *a.request = MPI_REQUEST_NULL;
  if (a.target_rank == MPI_PROC_NULL) {
    if (a.request) *a.request = null_peer_request(call.world, RequestKind::Recv)->handle;
    return MPI_SUCCESS;
  }
  if ((err = check_rank(call, r, "target_rank", a.target_rank)) != MPI_SUCCESS) return err;
  if (a.origin_count < 0 || a.target_count < 0 || a.result_count < 0)
    return win_fail(call, r, MPI_ERR_COUNT, "a count is negative");
  const bool has_origin = !(a.kind == RmaKind::GetAccumulate && a.op == MPI_NO_OP);
  const bool has_result = a.kind == RmaKind::GetAccumulate || a.kind == RmaKind::CompareAndSwap;
  const Datatype* o =
      has_origin ? find_type(call, r, a.origin_type, "origin_datatype", &err) : nullptr;
  const Datatype* res = has_result && err == MPI_SUCCESS
                            ? find_type(call, r, a.result_type, "result_datatype", &err)
                            : nullptr;
  const Datatype* t =
      err == MPI_SUCCESS ? find_type(call, r, a.target_type, "target_datatype", &err) : nullptr;
  if (err != MPI_SUCCESS) return err;
  if (!in_access_epoch(r.member(), a.target_rank))
    return win_fail(call, r, MPI_ERR_RMA_SYNC,
                    "no access epoch to rank %d is open (call MPI_Win_fence, MPI_Win_start or "
                    "MPI_Win_lock first)",
                    a.target_rank);
  err = check_match(call, r, a, o, *t, res);
  if (err != MPI_SUCCESS) return err;
  std::intptr_t addr = target_address(call, r, a, *t, &err);
  if (err != MPI_SUCCESS) return err;

  runtime::Scheduler& s = call.world.scheduler();
  s.sleep_lazily(overhead_of(a.kind, call.name));
  s.settle();
  RmaOp op;
  op.kind = a.kind;
  op.op = a.op;
  op.origin = {call.rank, const_cast<void*>(a.origin), a.origin_count, o};
  op.result = {call.rank, a.result, a.result_count, res};
  op.compare = {call.rank, const_cast<void*>(a.compare), a.target_count, t};
  op.target = {r.win->comm().world_rank(a.target_rank), reinterpret_cast<void*>(addr),
               a.target_count, t};
  if (a.kind == RmaKind::CompareAndSwap) op.compare.type = o;
  Request* q = a.request ? make_request(call, *r.win) : nullptr;
  if (q) *a.request = q->handle;
  issue(call.world, *r.win, r.me, a.target_rank, op, q);
  return MPI_SUCCESS;
}

// The request-based calls (MPI_Rput and friends): `a` with the request to make.
int run_request_based(ApiCall& call, MPI_Win win, Args a, MPI_Request* request) {
  if (!request) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "request is NULL");
  a.request = request;
  return run(call, win, a);
}

}  // namespace

extern "C" {

int MPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Win win) {
  ApiCall call("MPI_Put", ApiCall::Needs::Init, settle_with_cost());
  return run(call, win,
             one_buffer(RmaKind::Put, MPI_REPLACE, origin_addr, origin_count, origin_datatype,
                        target_rank, target_disp, target_count, target_datatype));
}

int MPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  ApiCall call("MPI_Get", ApiCall::Needs::Init, settle_with_cost());
  return run(call, win,
             one_buffer(RmaKind::Get, MPI_REPLACE, origin_addr, origin_count, origin_datatype,
                        target_rank, target_disp, target_count, target_datatype));
}

int MPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  ApiCall call("MPI_Accumulate", ApiCall::Needs::Init, settle_with_cost());
  return run(call, win,
             one_buffer(RmaKind::Accumulate, op, origin_addr, origin_count, origin_datatype,
                        target_rank, target_disp, target_count, target_datatype));
}

int MPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       void* result_addr, int result_count, MPI_Datatype result_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  ApiCall call("MPI_Get_accumulate", ApiCall::Needs::Init, settle_with_cost());
  return run(
      call, win,
      get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                     result_datatype, target_rank, target_disp, target_count, target_datatype, op));
}

int MPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  ApiCall call("MPI_Fetch_and_op", ApiCall::Needs::Init, settle_with_cost());
  return run(call, win,
             get_accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
                            target_disp, 1, datatype, op));
}

int MPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                         MPI_Win win) {
  ApiCall call("MPI_Compare_and_swap", ApiCall::Needs::Init, settle_with_cost());
  return run(call, win,
             Args{.kind = RmaKind::CompareAndSwap,
                  .origin = origin_addr,
                  .origin_count = 1,
                  .origin_type = datatype,
                  .result = result_addr,
                  .result_count = 1,
                  .result_type = datatype,
                  .compare = compare_addr,
                  .target_rank = target_rank,
                  .target_disp = target_disp,
                  .target_count = 1,
                  .target_type = datatype});
}

int MPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win, MPI_Request* request) {
  ApiCall call("MPI_Rput", ApiCall::Needs::Init, settle_with_cost());
  return run_request_based(
      call, win,
      one_buffer(RmaKind::Put, MPI_REPLACE, origin_addr, origin_count, origin_datatype, target_rank,
                 target_disp, target_count, target_datatype),
      request);
}

int MPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request* request) {
  ApiCall call("MPI_Rget", ApiCall::Needs::Init, settle_with_cost());
  return run_request_based(
      call, win,
      one_buffer(RmaKind::Get, MPI_REPLACE, origin_addr, origin_count, origin_datatype, target_rank,
                 target_disp, target_count, target_datatype),
      request);
}

int MPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  ApiCall call("MPI_Raccumulate", ApiCall::Needs::Init, settle_with_cost());
  return run_request_based(
      call, win,
      one_buffer(RmaKind::Accumulate, op, origin_addr, origin_count, origin_datatype, target_rank,
                 target_disp, target_count, target_datatype),
      request);
}

int MPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void* result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                        MPI_Request* request) {
  ApiCall call("MPI_Rget_accumulate", ApiCall::Needs::Init, settle_with_cost());
  return run_request_based(
      call, win,
      get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                     result_datatype, target_rank, target_disp, target_count, target_datatype, op),
      request);
}

}  // extern "C"
