// SPDX-License-Identifier: Apache-2.0
// One-sided operations: their data at issue, their flows, and the waits for their completion.
#include "libsimmpi/rma/operations.hpp"

#include <cstring>
#include <memory>

#include "hardware/compute/compute_model.hpp"
#include "libsimmpi/core/reduce_op.hpp"
#include "libsimmpi/p2p/transport.hpp"
#include "libsimmpi/rma/member_wait.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

// An operation on its way: what its completion updates when its last flow ends.
struct Flight {
  Window* win;
  int origin, target;              // comm ranks in the window
  int origin_world, target_world;  // ranks of the machine
  bool fetches;                    // its result comes back (local completion at the end)
  bool local_pending;              // not yet complete locally (see operations.hpp)
  std::uint64_t bytes_back;        // the reply flow's size
  SimTime reduce;                  // the target's reduction
  Request* request;                // completed at local completion (request-based operations)
};

void count_done(Completion& c, SimTime t) {
  --c.unknown;
  c.latest = runtime::max(c.latest, t);
}

// The operation is complete locally at `t`: its origin buffer may be reused.
void finish_local(World& w, Flight* f, SimTime t) {
  WinMember& m = f->win->member(f->origin);
  f->local_pending = false;
  count_done(m.all_local, t);
  count_done(m.local_by_target[f->target], t);
  if (f->request) complete_request(w, f->request, t);
  if (m.waiter >= 0) w.scheduler().wake(w.scheduler().process(m.waiter), t);
}

// The operation is complete at the origin at `t`.
void finish(Flight* f, SimTime t) {
  World& w = World::get();
  if (f->local_pending) finish_local(w, f, t);
  WinMember& m = f->win->member(f->origin);
  count_done(m.all, t);
  count_done(m.by_target[f->target], t);
  if (m.waiter >= 0) w.scheduler().wake(w.scheduler().process(m.waiter), t);
  delete f;
}

void reply_arrived(void* flight, std::uint64_t, SimTime arrival) {
  finish(static_cast<Flight*>(flight), arrival);
}

// The target sends the result (a get's data, a fetching operation's old values) back.
void start_reply(void* flight, std::uint64_t) {
  auto* f = static_cast<Flight*>(flight);
  World::get().platform().transfer(f->target_world, f->origin_world, f->bytes_back,
                                   hardware::ArrivalNotice{&reply_arrived, f, 0});
}

// The origin's data is at the target at `arrival` and served: a put or accumulate is
// acknowledged once applied; a fetching operation replies once its reduction is done.
void serve_data(Flight* f, SimTime arrival) {
  World& w = World::get();
  SimTime applied = arrival;
  if (f->reduce > SimTime()) {
    WinMember& t = f->win->member(f->target);
    applied = runtime::max(arrival, t.reductions_done) + f->reduce;
    t.reductions_done = applied;
  }
  if (f->fetches)
    w.engine().schedule(applied, runtime::Action{&start_reply, f, 0});
  else
    finish(f, applied + w.platform().latency(f->target_world, f->origin_world));
}

void serve_data_now(void* flight, std::uint64_t) {
  serve_data(static_cast<Flight*>(flight), World::get().now());
}

// Under mpi.rma.progress = target_call: the request has reached the target; it is served when
// the target next is in an MPI call (`then` runs then).
void await_target(void* flight, std::uint64_t then) {
  auto* f = static_cast<Flight*>(flight);
  World& w = World::get();
  auto* step = reinterpret_cast<void (*)(void*, std::uint64_t)>(then);
  w.engine().schedule(target_serves_at(w, f->target_world), runtime::Action{step, f, 0});
}

// Schedules `step` for `f` at the target at `at`, or once the target serves it after `at`.
void at_target(World& w, Flight* f, SimTime at, void (*step)(void*, std::uint64_t)) {
  if (Windows::get().params().target_progress)
    w.engine().schedule(at,
                        runtime::Action{&await_target, f, reinterpret_cast<std::uint64_t>(step)});
  else
    w.engine().schedule(at, runtime::Action{step, f, 0});
}

void data_arrived(void* flight, std::uint64_t, SimTime arrival) {
  auto* f = static_cast<Flight*>(flight);
  if (f->local_pending && !f->fetches) finish_local(World::get(), f, arrival);
  if (Windows::get().params().target_progress)
    at_target(World::get(), f, arrival, &serve_data_now);
  else
    serve_data(f, arrival);
}

// The target's reduction of `bytes` of `type` on its node's CPU: one operation per element,
// each element read twice and written once.
SimTime reduction_time(World& w, const Datatype& type, std::uint64_t bytes) {
  if (bytes == 0) return SimTime();
  hardware::ComputeTask task;
  task.kernel = hardware::Kernel::Generic;
  std::uint64_t unit = type.basic_size ? type.basic_size : 1;
  task.ops = static_cast<double>(bytes / unit);
  task.bytes = 3.0 * static_cast<double>(bytes);
  return w.platform().compute().cpu().time(task);
}

// target = origin op target, element by element, in packed form.
void accumulate_data(World& w, const RmaOp& op) {
  std::uint64_t n = op.target.bytes();
  if (n == 0 || op.op == MPI_NO_OP || wholly_folded(op.target, n)) return;
  if (op.op == MPI_REPLACE) {
    copy_typed(w, op.origin, op.target, n);
    return;
  }
  std::unique_ptr<char[]> in(new char[n]), inout(new char[n]);
  pack_typed(w, op.origin, n, in.get());
  pack_typed(w, op.target, n, inout.get());
  apply_op(op.op, *op.target.type, in.get(), inout.get(), static_cast<int>(op.target.count));
  unpack_typed(w, inout.get(), n, op.target);
}

// result = target; if target == compare, target = origin (one element).
void compare_and_swap_data(World& w, const RmaOp& op) {
  std::uint64_t n = op.target.bytes();
  std::unique_ptr<char[]> old(new char[n]), cmp(new char[n]);
  pack_typed(w, op.target, n, old.get());
  pack_typed(w, op.compare, n, cmp.get());
  unpack_typed(w, old.get(), n, op.result);
  if (std::memcmp(old.get(), cmp.get(), n) == 0) copy_typed(w, op.origin, op.target, n);
}

void move_data(World& w, const RmaOp& op) {
  switch (op.kind) {
    case RmaKind::Put:
      copy_typed(w, op.origin, op.target, op.target.bytes());
      break;
    case RmaKind::Get:
      copy_typed(w, op.target, op.origin, op.target.bytes());
      break;
    case RmaKind::Accumulate:
      accumulate_data(w, op);
      break;
    case RmaKind::GetAccumulate:
      copy_typed(w, op.target, op.result, op.target.bytes());
      accumulate_data(w, op);
      break;
    case RmaKind::CompareAndSwap:
      compare_and_swap_data(w, op);
      break;
  }
}

struct Waiting {
  Window* win;
  int origin, target;
  bool local;
};

std::string describe_waiting(const void* ctx) {
  auto* a = static_cast<const Waiting*>(ctx);
  WinMember& m = a->win->member(a->origin);
  int n = a->target < 0 ? (a->local ? m.all_local : m.all).unknown
                        : (a->local ? m.local_by_target : m.by_target)[a->target].unknown;
  std::string to = a->target < 0 ? "" : strprintf(" to rank %d", a->target);
  return strprintf("waiting for %d one-sided operations%s on %s to complete", n, to.c_str(),
                   a->win->name().c_str());
}

Completion& completion_of(WinMember& m, int target, bool local) {
  if (target < 0) return local ? m.all_local : m.all;
  return (local ? m.local_by_target : m.by_target)[target];
}

}  // namespace

void issue(World& w, Window& win, int origin, int target, const RmaOp& op, Request* request) {
  move_data(w, op);
  const int me = win.comm().world_rank(origin);
  const int to = win.comm().world_rank(target);
  const bool fetches = op.kind != RmaKind::Put && op.kind != RmaKind::Accumulate;
  const bool reduces = op.kind != RmaKind::Put && op.kind != RmaKind::Get;
  const std::uint64_t bytes = op.target.bytes();
  std::uint64_t out = op.kind == RmaKind::CompareAndSwap ? 2 * bytes : bytes;
  if (op.kind == RmaKind::Get || (op.kind == RmaKind::GetAccumulate && op.op == MPI_NO_OP)) out = 0;
  // A put or accumulate of at most mpi.eager_threshold bytes is copied out at the call, as an
  // eager send is; a larger one frees its buffer when its data is in, as a rendezvous send.
  const bool local_now = !fetches && out <= w.params().eager_threshold;
  auto* f = new Flight{&win,
                       origin,
                       target,
                       me,
                       to,
                       fetches,
                       !local_now,
                       fetches ? bytes : 0,
                       reduces ? reduction_time(w, *op.target.type, bytes) : SimTime(),
                       local_now ? nullptr : request};
  WinMember& m = win.member(origin);
  ++m.all.unknown;
  ++m.by_target[target].unknown;
  if (!local_now) {
    ++m.all_local.unknown;
    ++m.local_by_target[target].unknown;
  }
  if (request && local_now) complete_request(w, request, w.now());
  if (op.kind == RmaKind::Get) {
    at_target(w, f, w.now() + w.platform().latency(me, to), &start_reply);
    return;
  }
  w.platform().transfer(me, to, out, hardware::ArrivalNotice{&data_arrived, f, 0});
}

void wait_operations(World& w, Window& win, int origin, int target, bool local) {
  WinMember& m = win.member(origin);
  const Waiting what{&win, origin, target, local};
  block_member_until(w, m, describe_waiting, &what, [&] {
    const Completion& c = completion_of(m, target, local);
    if (c.unknown > 0) return false;
    if (c.latest > w.now()) w.scheduler().wait_until(c.latest);
    return true;
  });
  if (target >= 0 && !local && m.local_by_target[target].unknown == 0) {
    m.by_target.erase(target);
    m.local_by_target.erase(target);
  } else if (target < 0 && !local && m.all_local.unknown == 0) {
    m.by_target.clear();
    m.local_by_target.clear();
  }
}

bool has_pending(Window& win, int origin, int target, SimTime now) {
  WinMember& m = win.member(origin);
  if (target < 0) return m.all.unknown > 0 || m.all.latest > now;
  auto it = m.by_target.find(target);
  return it != m.by_target.end() && (it->second.unknown > 0 || it->second.latest > now);
}

}  // namespace simmpi::mpi
