// SPDX-License-Identifier: Apache-2.0
// The one-sided operations' data and time. An operation moves its data when the origin issues
// it, through the same typed copies as point-to-point payloads (libsimmpi/p2p/typed_copy.hpp:
// privatized globals, folded memory, datatypes with gaps); its completion is timed as flows on
// the machine (hardware::Platform::transfer, the network or the node's shared memory), with
// L(a, b) the latency between two ranks, S/B a flow's time on an idle machine and c the
// target's reduction on the node's CPU model (a generic kernel of one operation per element and
// three passes over the data):
//   put, accumulate   data flow origin -> target, c, then an acknowledgement back: complete at
//                     the origin at t + L + S/B + c + L
//   get               request L to the target, then a data flow back: t + 2L + S/B
//   get_accumulate,   data flow to the target, c, result flow back: t + 2L + S_in/B + c +
//   fetch_and_op,     S_out/B
//   compare_and_swap
// where t is the issue time, after the origin's overhead (mpi.rma.*_overhead). A target applies
// the reductions of accumulates and atomics one at a time, in the order their data reaches it:
// one that arrives while another is applied waits for it (c then starts later). Puts and
// accumulates of at most mpi.eager_threshold bytes are complete locally at issue (their data is
// copied out, as an eager send's), larger ones when their data is at the target, t + L + S/B (as
// a rendezvous send completes when its data is in); the others when their result is in.
#pragma once

#include <cstdint>

#include "libsimmpi/p2p/typed_copy.hpp"
#include "libsimmpi/rma/window.hpp"

namespace simmpi::mpi {

enum class RmaKind : std::uint8_t { Put, Get, Accumulate, GetAccumulate, CompareAndSwap };

struct RmaOp {
  RmaKind kind = RmaKind::Put;
  MPI_Op op = MPI_REPLACE;  // accumulates
  TypedBuffer origin;       // put and accumulate: the data; get: where it goes
  TypedBuffer result;       // get_accumulate and compare_and_swap: where the old data goes
  TypedBuffer compare;      // compare_and_swap
  TypedBuffer target;       // in the target's memory
};

// Issues `op` from member `origin` of `win` to member `target` at the current time: its data
// moves now, its flows start now, and its completion is counted in the origin's WinMember until
// the flows end. `request` (may be null) completes at the operation's local completion
// (MPI_Rput and friends). Never switches.
void issue(World& w, Window& win, int origin, int target, const RmaOp& op, Request* request);

// Blocks the calling member `origin` of `win` until its operations to `target` (all targets
// when -1) are complete: at their targets, or only locally when `local`. May switch.
void wait_operations(World& w, Window& win, int origin, int target, bool local);

// Whether `origin` has operations (to `target`, or any when -1) not complete at `now`.
bool has_pending(Window& win, int origin, int target, SimTime now);

}  // namespace simmpi::mpi
